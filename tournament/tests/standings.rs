//! CN2002 art. 27 standings against tables computed by hand (see the comments for the arithmetic).

use std::collections::BTreeMap;

use goban_tournament::standings::{GameRecord, Rules, Standing, System, compute};
use goban_tournament::{Outcome, PlayerId};

fn game(round: u32, black: &str, white: &str, winner: Option<&str>) -> GameRecord {
    let outcome = match winner {
        None => Outcome::Draw,
        Some(w) if w == black => Outcome::BlackWins,
        Some(_) => Outcome::WhiteWins,
    };
    GameRecord {
        round,
        black: black.into(),
        white: white.into(),
        outcome,
    }
}

/// Games written as "round black-white winner", comma-separated; `=` for a draw:
/// `"1 A-B A, 1 C-D ="`.
fn games(text: &str) -> Vec<GameRecord> {
    text.split(',')
        .map(|entry| {
            let parts: Vec<&str> = entry.split_whitespace().collect();
            let [round, pair, winner] = parts[..] else {
                panic!("bad game {entry:?}");
            };
            let (black, white) = pair.split_once('-').expect("black-white");
            let winner = (winner != "=").then_some(winner);
            game(round.parse().expect("round"), black, white, winner)
        })
        .collect()
}

fn round_robin(games: &[GameRecord], warnings: &BTreeMap<PlayerId, u32>) -> Vec<Standing> {
    compute(Rules::new(System::RoundRobin), games, &[], warnings)
}

fn warnings(list: &[(&str, u32)]) -> BTreeMap<PlayerId, u32> {
    list.iter().map(|(p, n)| (PlayerId::from(*p), *n)).collect()
}

fn table(lines: &[Standing]) -> Vec<(u32, &str, u32, f64, f64, u32, bool)> {
    lines
        .iter()
        .map(|s| {
            (
                s.place,
                s.player.as_str(),
                s.points,
                s.defeated_points,
                s.opponents_points,
                s.warnings,
                s.shared,
            )
        })
        .collect()
}

/// A beats B and D, B beats C and D, C beats A, D beats C.
/// Points: A 4, B 4, C 2, D 2.
/// 胜者小分: A = B 4 + D 2 = 6; B = C 2 + D 2 = 4; C = A 4; D = C 2.
#[test]
fn round_robin_second_criterion_is_the_points_of_those_beaten() {
    let games = games("1 A-B A, 1 C-D D, 2 A-C C, 2 B-D B, 3 A-D A, 3 B-C B");
    let lines = round_robin(&games, &BTreeMap::new());
    let got: Vec<_> = table(&lines)
        .into_iter()
        .map(|(pl, p, pts, d, ..)| (pl, p, pts, d))
        .collect();
    assert_eq!(
        got,
        vec![
            (1, "A", 4, 6.0),
            (2, "B", 4, 4.0),
            (3, "C", 2, 4.0),
            (4, "D", 2, 2.0)
        ]
    );
}

/// A cycle: A beats B, B beats C, C beats A, all beat D. Points A, B, C 4 each;
/// 胜者小分 4 each (the cycle opponent's 4 plus D's 0). Warnings A 1, B 0, C 1:
/// B is first on warnings; A and C share second (art. 27 C is the organiser's); D is fourth.
#[test]
fn round_robin_ties_go_to_fewer_warnings_then_are_shared() {
    let games = games("1 A-B A, 1 C-D C, 2 A-C C, 2 B-D B, 3 A-D A, 3 B-C B");
    let w = warnings(&[("A", 1), ("C", 1)]);
    let lines = round_robin(&games, &w);
    assert_eq!(
        table(&lines),
        vec![
            (1, "B", 4, 4.0, 8.0, 0, false),
            (2, "A", 4, 4.0, 8.0, 1, true),
            (2, "C", 4, 4.0, 8.0, 1, true),
            (4, "D", 0, 0.0, 12.0, 0, false),
        ]
    );
}

/// X draws Y, X beats Z, Z beats Y. Points X 3, Z 2, Y 1.
/// 胜者小分: X = Z 2 + half of Y 1 = 2.5; Z = Y 1; Y = half of X 3 = 1.5.
#[test]
fn round_robin_counts_half_the_points_of_those_drawn() {
    let games = games("1 X-Y =, 2 X-Z X, 3 Z-Y Z");
    let lines = round_robin(&games, &BTreeMap::new());
    let got: Vec<_> = table(&lines)
        .into_iter()
        .map(|(_, p, pts, d, ..)| (p, pts, d))
        .collect();
    assert_eq!(got, vec![("X", 3, 2.5), ("Z", 2, 1.0), ("Y", 1, 1.5)]);
}

/// Eight players, five Swiss rounds (method B).
///
/// | round | games (winner) |
/// | 1 | A-B (A), C-D (C), E-F (E), G-H (G) |
/// | 2 | A-C (A), E-G (G), B-D (B), F-H (F) |
/// | 3 | A-G (G), C-E (draw), B-F (B), D-H (H) |
/// | 4 | G-B (G), A-E (A), C-H (H), D-F (D) |
/// | 5 | A-F (F), B-H (draw), C-G (C), D-E (E) |
///
/// Points: G 8, A 6, B 5, C 5, E 5, H 5, F 4, D 2 (sum 40 = 20 games x 2).
/// 对手分: A = B5+C5+G8+E5+F4 = 27; B = A6+D2+F4+G8+H5 = 25;
/// C = D2+A6+E5+H5+G8 = 26; D = C5+B5+H5+F4+E5 = 24; E = F4+G8+C5+A6+D2 = 25;
/// F = E5+H5+B5+D2+A6 = 23; G = H5+E5+A6+B5+C5 = 26; H = G8+F4+D2+C5+B5 = 24.
/// Among the 5-pointers: C 26 third; B and E at 25 go to warnings (B 2, E 1):
/// E fourth, B fifth; H 24 sixth; then F, then D.
#[test]
fn swiss_method_b_points_then_opponents_points_then_warnings() {
    let games = games(
        "1 A-B A, 1 C-D C, 1 E-F E, 1 G-H G, \
         2 A-C A, 2 E-G G, 2 B-D B, 2 F-H F, \
         3 A-G G, 3 C-E =, 3 B-F B, 3 D-H H, \
         4 G-B G, 4 A-E A, 4 C-H H, 4 D-F D, \
         5 A-F F, 5 B-H =, 5 C-G C, 5 D-E E",
    );
    let w = warnings(&[("B", 2), ("E", 1), ("D", 3)]);
    let lines = compute(Rules::new(System::Swiss), &games, &[], &w);
    let got: Vec<_> = table(&lines)
        .into_iter()
        .map(|(pl, p, pts, _, sos, warn, _)| (pl, p, pts, sos, warn))
        .collect();
    assert_eq!(
        got,
        vec![
            (1, "G", 8, 26.0, 0),
            (2, "A", 6, 27.0, 0),
            (3, "C", 5, 26.0, 0),
            (4, "E", 5, 25.0, 1),
            (5, "B", 5, 25.0, 2),
            (6, "H", 5, 24.0, 0),
            (7, "F", 4, 23.0, 0),
            (8, "D", 2, 24.0, 3),
        ]
    );
    // 胜者小分 is still reported: G beat H 5, E 5, A 6, B 5 = 21;
    // C beat D 2 and G 8 and drew E 5 = 12.5.
    let by = |p: &str| {
        lines
            .iter()
            .find(|s| s.player.as_str() == p)
            .unwrap()
            .defeated_points
    };
    assert!((by("G") - 21.0).abs() < f64::EPSILON);
    assert!((by("C") - 12.5).abs() < f64::EPSILON);
    assert!(lines.iter().all(|s| !s.shared));
}

/// A bye scores a win and has no opponent; unknown games count for nothing.
/// A 2 points (beat B, 对手分 B 0 = 0); C 2 points from the bye (no opponent, 0):
/// tied on every criterion, they share first; B third.
#[test]
fn byes_and_unplayed_games() {
    let games = [
        game(1, "A", "B", Some("A")),
        GameRecord {
            round: 2,
            black: "A".into(),
            white: "C".into(),
            outcome: Outcome::Unknown,
        },
    ];
    let byes = [(1, PlayerId::from("C"))];
    let lines = compute(Rules::new(System::Swiss), &games, &byes, &BTreeMap::new());
    let got: Vec<_> = lines
        .iter()
        .map(|s| (s.place, s.player.as_str(), s.points, s.games))
        .collect();
    assert_eq!(got, vec![(1, "A", 2, 1), (1, "C", 2, 0), (3, "B", 0, 1)]);
}
