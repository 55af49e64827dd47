//! JK seki: a seki liberty is one NEITHER side can fill safely; one-sided dame is not seki.
//! Positions for both colours, in the middle and at the edge, and the arbiter's rulings.
mod common;

use common::{build_game, pt};
use goban_rules::{Color, CountInput, KoRule, Ruleset, Score, SekiMarks, SekiRuling};

/// The diagram with the colours swapped.
fn swapped(rows: &[&str]) -> Vec<String> {
    rows.iter()
        .map(|r| {
            r.chars()
                .map(|c| match c {
                    'X' => 'O',
                    'O' => 'X',
                    other => other,
                })
                .collect()
        })
        .collect()
}

fn jk(rows: &[&str], input: &CountInput) -> Score {
    build_game(rows, Ruleset::Jk, KoRule::Simple, Color::Black)
        .score(input)
        .unwrap()
}

/// (Black territory, White territory, seki points) under JK, for the diagram and for its
/// colour swap (whose counts come back swapped).
fn both_colours(rows: &[&str], input: &CountInput) -> [(u32, u32, u32); 2] {
    let s = jk(rows, input);
    let sw = swapped(rows);
    let sw: Vec<&str> = sw.iter().map(String::as_str).collect();
    let t = jk(&sw, input);
    [
        (s.black.territory, s.white.territory, s.seki_points),
        (t.white.territory, t.black.territory, t.seki_points),
    ]
}

/// E5 is dame that Black can fill safely (it ataris E6, White connects at E7) but White
/// cannot (E6+E5 would have one liberty). One-sided: not seki, both sides keep territory.
const ONE_SIDED_MIDDLE: [&str; 9] = [
    ".........",
    ".........",
    "OOOO.OOOO",
    "XXXXOXXXX",
    "XXXX.XXXX",
    "....X....",
    ".........",
    ".........",
    ".........",
];

/// The same shape against the left edge: A5 is dame only White cannot fill.
const ONE_SIDED_EDGE: [&str; 9] = [
    ".........",
    ".........",
    ".OOOOOOOO",
    "OXXXXXXXX",
    ".XXXXXXXX",
    "X........",
    ".........",
    ".........",
    ".........",
];

#[test]
fn one_sided_dame_next_to_eyes_is_not_seki() {
    for rows in [ONE_SIDED_MIDDLE, ONE_SIDED_EDGE] {
        // White: rows 8-9 and the connection point (19); Black: rows 1-4 but one stone (35).
        for counts in both_colours(&rows, &CountInput::default()) {
            assert_eq!(counts, (35, 19, 0), "{rows:?}");
        }
        let s = jk(&rows, &CountInput::default());
        assert_eq!((s.dame, s.result.to_sgf()), (1, "B+9.5".to_owned()));
    }
}

/// Corner seki without eyes: B9 (Black) and the white chain A8-D8+D9 share A9 and C9;
/// whoever fills one is captured at the other. Black's wall around it keeps its territory.
const NO_EYE_CORNER: [&str; 9] = [
    ".X.OX....",
    "OOOOX....",
    "XXXXX....",
    ".........",
    ".........",
    ".........",
    ".........",
    ".........",
    ".........",
];

#[test]
fn seki_without_eyes_in_the_corner_keeps_the_walls_territory() {
    // 81 points - 13 stones - 2 shared liberties.
    for counts in both_colours(&NO_EYE_CORNER, &CountInput::default()) {
        assert_eq!(counts, (66, 0, 0));
    }
    let s = jk(&NO_EYE_CORNER, &CountInput::default());
    assert_eq!((s.dame, s.result.to_sgf()), (2, "B+59.5".to_owned()));
}

/// Seki with an eye each (A7 Black's, E7 White's) sharing C7, at the top edge; the walls
/// below share 28 dame with the empty rows.
const EYES_EDGE: [&str; 7] = [
    ".X.O.OX", "XXXOOOX", "OOOXXXX", ".......", ".......", ".......", ".......",
];

#[test]
fn seki_with_eyes_at_the_edge_for_both_colours() {
    for counts in both_colours(&EYES_EDGE, &CountInput::default()) {
        assert_eq!(counts, (0, 0, 2), "the eyes are seki points, not territory");
    }
}

#[test]
fn an_arbiter_rules_a_group_in_or_out_of_seki() {
    let g = build_game(&ONE_SIDED_MIDDLE, Ruleset::Jk, KoRule::Simple, Color::Black);
    let mut input = CountInput::default();
    // The arbiter rules the White group (through E6) and the Black one (E4) in seki.
    input.seki.rule(pt(&g, "E6"), SekiRuling::InSeki);
    input.seki.rule(pt(&g, "E4"), SekiRuling::InSeki);
    let s = g.score(&input).unwrap();
    assert_eq!((s.black.territory, s.white.territory), (0, 0));
    assert_eq!(s.seki_points, 35 + 19);
    // Withdrawn, the heuristic decides again.
    input.seki = SekiMarks::new();
    assert_eq!(g.score(&input).unwrap().black.territory, 35);
    // A seki ruled out: the eyes count again.
    let g = build_game(&EYES_EDGE, Ruleset::Jk, KoRule::Simple, Color::Black);
    let mut input = CountInput::default();
    input.seki.rule(pt(&g, "B6"), SekiRuling::NotInSeki);
    input.seki.rule(pt(&g, "D7"), SekiRuling::NotInSeki);
    let s = g.score(&input).unwrap();
    assert_eq!(
        (s.black.territory, s.white.territory, s.seki_points),
        (1, 1, 0)
    );
    // A ruling on an empty point is refused.
    input.seki.rule(pt(&g, "A1"), SekiRuling::InSeki);
    assert!(g.score(&input).is_err());
}
