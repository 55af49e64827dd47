//! SGF of a counted game: the owned points as TB/TW on the last node, readable by our own reader.

use goban_rules::score::{DeadStones, Territory};
use goban_rules::sgf::{GameInfo, read_sgf, write_sgf, write_sgf_counted};
use goban_rules::{BoardSize, Color, Game, GameSetup, Move, Point, Ruleset};

fn build_counted_game() -> (Game, DeadStones) {
    let size = BoardSize::new(5).unwrap();
    let mut g = Game::new(GameSetup::new(size, Ruleset::Cn2002)).unwrap();
    // Black walls off column A-B, White columns D-E, and a white stone dies in Black's corner.
    let moves = [
        "B1", "C1", "B2", "C2", "B3", "C3", "B4", "C4", "B5", "C5", "pass", "A1",
    ];
    for name in moves {
        let mv = if name == "pass" {
            Move::Pass
        } else {
            Move::Play(Point::parse_human(name, size).unwrap())
        };
        g.play(g.to_move(), mv).unwrap();
    }
    g.play(Color::Black, Move::Pass).unwrap();
    g.play(Color::White, Move::Pass).unwrap();
    let dead = DeadStones::from_points([Point::parse_human("A1", size).unwrap()]);
    (g, dead)
}

#[test]
fn the_count_is_marked_on_the_last_node() {
    let (g, dead) = build_counted_game();
    let territory = Territory::of(g.board(), &dead);
    let text = write_sgf_counted(&g, &GameInfo::default(), &[], &territory);
    let tail = &text[text.rfind(';').unwrap()..];
    // A1 (the dead white stone) is Black's point; D and E are White's.
    assert!(tail.starts_with(";W[]TB["), "{text}");
    let (tb, tw) = tail.split_at(tail.find("TW[").unwrap());
    for column_a in ["[aa]", "[ab]", "[ac]", "[ad]", "[ae]"] {
        assert!(tb.contains(column_a), "{text}");
    }
    assert_eq!(
        tb.matches('[').count(),
        1 + 5,
        "W[] and five points: {text}"
    );
    assert_eq!(tw.matches('[').count(), 10, "columns D and E: {text}");
    assert!(tw.contains("[da]") && tw.contains("[ee]"), "{text}");
    // Our reader takes it back.
    assert_eq!(read_sgf(&text).unwrap().len(), 1);
    // Without a count nothing is marked.
    assert!(!write_sgf(&g, &GameInfo::default(), &[]).contains("TB["));
}
