//! Evidence timelines: each alert lists the steady readings and presses that led to it (point, colour, time), bounded to 16 entries.

mod common;

use std::collections::BTreeMap;

use common::table::Table;
use goban_referee::InfractionKind;
use goban_rules::Color;

const B: Color = Color::Black;
const W: Color = Color::White;

#[test]
fn a_missed_capture_lists_the_stones_and_presses_before_it() {
    // CN2002 18.2, 22.6: Black presses with the captured E5 still on the board.
    let mut t = Table::nine();
    for (p, c) in [
        ("D5", B),
        ("E5", W),
        ("F5", B),
        ("A1", W),
        ("E6", B),
        ("A2", W),
    ] {
        t.play(p, c, &[]);
    }
    t.put("E4", B);
    t.wait(500);
    t.press_black();
    t.wait(1_500);
    t.take("E5");
    t.wait(2_000);
    let alerts = t.alerts();
    assert_eq!(alerts.len(), 1, "{alerts:#?}");
    let alert = &alerts[0];
    assert_eq!(alert.kind, InfractionKind::MissedCapture);
    let what: Vec<&str> = alert.evidence.iter().map(|e| e.what.as_str()).collect();
    assert!(what.contains(&"black stone read on E4"), "{what:#?}");
    assert!(
        what.contains(&"black pressed the clock (button L)"),
        "{what:#?}"
    );
    assert!(what.contains(&"white stone read on A2"), "{what:#?}");
    assert!(
        what.iter()
            .any(|w| w.contains("captured stones still on E5")),
        "the finding itself: {what:#?}"
    );
    assert!(alert.evidence.len() <= 16);
    let times: Vec<&str> = alert.evidence.iter().map(|e| e.at.as_str()).collect();
    let mut sorted = times.clone();
    sorted.sort();
    assert_eq!(times, sorted, "oldest first");
    // The stone on E4 came before the press that claimed it.
    let stone = what
        .iter()
        .position(|w| *w == "black stone read on E4")
        .unwrap();
    let press = what
        .iter()
        .rposition(|w| *w == "black pressed the clock (button L)")
        .unwrap();
    assert!(stone < press, "{:#?}", alert.evidence);
}

#[test]
fn a_long_game_keeps_the_timeline_bounded() {
    let mut t = Table::nine();
    let points = [
        "C3", "G7", "C7", "G3", "E3", "E7", "C5", "G5", "D4", "F6", "D6", "F4",
    ];
    for (i, p) in points.iter().enumerate() {
        t.play(p, if i % 2 == 0 { B } else { W }, &[]);
    }
    // A premature press (CN2002 17.4): White presses, then places.
    t.press_white();
    t.wait(1_200);
    t.put("H8", W);
    t.wait(1_000);
    t.press_white();
    t.wait(1_000);
    let alerts = t.alerts();
    assert_eq!(alerts.len(), 1, "{alerts:#?}");
    let ev = &alerts[0].evidence;
    assert_eq!(ev.len(), 16, "{ev:#?}");
    assert!(
        ev.iter().any(|e| e.what == "white stone read on H8"),
        "{ev:#?}"
    );
    assert!(
        !ev.iter().any(|e| e.what == "black stone read on C3"),
        "the oldest history is dropped"
    );
}

/// The board of each evidence line, replayed from the first line's `seen` and the later lines'
/// `changed` (api.md): point -> "B", "W" or "?" (every other point empty); `None` before any board.
fn replay_boards(ev: &[goban_referee::Evidence]) -> Vec<Option<BTreeMap<String, &'static str>>> {
    let mut board: Option<BTreeMap<String, &'static str>> = None;
    ev.iter()
        .map(|line| {
            if let Some(seen) = &line.seen {
                assert!(seen.empty.is_empty(), "seen lists no empty points");
                board = Some(BTreeMap::new());
                apply(board.as_mut().unwrap(), seen);
            } else if let Some(changed) = &line.changed {
                apply(
                    board.as_mut().expect("a change follows a whole board"),
                    changed,
                );
            }
            board.clone()
        })
        .collect()
}

fn apply(board: &mut BTreeMap<String, &'static str>, readings: &goban_referee::infraction::Seen) {
    for p in &readings.empty {
        board.remove(p);
    }
    for (list, mark) in [
        (&readings.black, "B"),
        (&readings.white, "W"),
        (&readings.unreadable, "?"),
    ] {
        for p in list {
            board.insert(p.clone(), mark);
        }
    }
}

fn stones(board: &BTreeMap<String, &'static str>, mark: &str) -> Vec<String> {
    board
        .iter()
        .filter(|(_, m)| **m == mark)
        .map(|(p, _)| p.clone())
        .collect()
}

#[test]
fn each_line_of_evidence_carries_the_board_as_read_and_its_points() {
    // The missed capture of the first test: every line shows the stones read then, by point.
    let mut t = Table::nine();
    for (p, c) in [
        ("D5", B),
        ("E5", W),
        ("F5", B),
        ("A1", W),
        ("E6", B),
        ("A2", W),
    ] {
        t.play(p, c, &[]);
    }
    t.put("E4", B);
    t.wait(500);
    t.press_black();
    t.wait(1_500);
    t.take("E5");
    t.wait(2_000);
    let alerts = t.alerts();
    assert_eq!(alerts.len(), 1, "{alerts:#?}");
    let alert = &alerts[0];
    let ev = &alert.evidence;
    // The whole board once, on the first line; then only changes.
    assert!(ev[0].seen.is_some(), "{ev:#?}");
    assert!(ev[1..].iter().all(|e| e.seen.is_none()), "{ev:#?}");
    let boards = replay_boards(ev);
    let line = |what: &str| {
        let k = ev
            .iter()
            .position(|e| e.what == what)
            .unwrap_or_else(|| panic!("{what}: {ev:#?}"));
        (&ev[k], boards[k].clone().expect("a board"))
    };
    // The reading of A2: White's A2 just arrived, Black's E4 not yet.
    let (a2, board) = line("white stone read on A2");
    assert_eq!(a2.points, vec!["A2".to_owned()]);
    assert_eq!(
        a2.changed.as_ref().map(|c| c.white.clone()),
        Some(vec!["A2".to_owned()])
    );
    assert_eq!(stones(&board, "B"), ["D5", "E6", "F5"]);
    assert_eq!(stones(&board, "W"), ["A1", "A2", "E5"]);
    assert!(stones(&board, "?").is_empty());
    // The reading of E4: the stone that captures, with the captured E5 still read.
    let (e4, at_e4) = line("black stone read on E4");
    assert_eq!(e4.points, vec!["E4".to_owned()]);
    assert_eq!(stones(&at_e4, "B"), ["D5", "E4", "E6", "F5"]);
    assert_eq!(stones(&at_e4, "W"), ["A1", "A2", "E5"]);
    // Black's last press, after E4: the same board (no change given), about no point.
    let k = ev
        .iter()
        .rposition(|e| e.what == "black pressed the clock (button L)")
        .unwrap_or_else(|| panic!("{ev:#?}"));
    assert_eq!((&ev[k].seen, &ev[k].changed), (&None, &None));
    assert_eq!(boards[k].as_ref(), Some(&at_e4));
    assert!(ev[k].points.is_empty());
    // The finding: the alert's own points, on the board as read when it was raised.
    let k = ev
        .iter()
        .position(|e| e.what.contains("captured stones still on E5"))
        .unwrap_or_else(|| panic!("{ev:#?}"));
    assert_eq!(ev[k].points, alert.points);
    assert!(ev[k].points.contains(&"E5".to_owned()), "{:#?}", ev[k]);
    assert!(
        boards[k]
            .as_ref()
            .is_some_and(|b| b.get("E4") == Some(&"B"))
    );
}

#[test]
fn evidence_without_a_board_reads_as_before() {
    // An alert journaled before the board was recorded: `seen`, `changed` and `points` are optional.
    let old = serde_json::json!({"at": "2026-12-01T10:00:00.000Z", "what": "black pressed the clock (button L)"});
    let line: goban_referee::Evidence = serde_json::from_value(old.clone()).unwrap();
    assert_eq!((&line.seen, &line.changed), (&None, &None));
    assert!(line.points.is_empty());
    assert_eq!(
        serde_json::to_value(&line).unwrap(),
        old,
        "nothing new is written when absent"
    );
}
