//! A chattering sensor at 2–10 Hz for 5–30 s, on an empty point, on a stone and next to the point played: one device alert naming it, the rest of the board still read, every move kept.

mod common;

use common::hall::{Chatter, button, device_alerts, play_chattering, wait_chattering};
use common::table::Table;
use goban_referee::{DeviceAlertKind, Reading};
use goban_rules::Color;

const B: Color = Color::Black;
const W: Color = Color::White;

/// Moves played around a chattering sensor; `A2` captures `A1` (a stone placed and
/// captured while the sensor chatters).
const GAME: [(&str, Color); 7] = [
    ("E5", B),
    ("A1", W),
    ("B1", B),
    ("G7", W),
    ("A2", B),
    ("C7", W),
    ("G3", B),
];

fn play_game(t: &mut Table, chatter: &mut Chatter, gap_ms: u64, after_ms: u64) {
    for (p, c) in GAME {
        if p == "A2" {
            t.put(p, c);
            wait_chattering(t, chatter, 400);
            t.take("A1");
            wait_chattering(t, chatter, gap_ms);
            t.press(button(c));
            wait_chattering(t, chatter, after_ms);
            continue;
        }
        play_chattering(t, chatter, p, c, gap_ms, after_ms);
    }
}

fn names(t: &Table) -> Vec<String> {
    t.moves()
}

fn expected() -> Vec<String> {
    GAME.iter().map(|m| m.0.to_owned()).collect()
}

fn check(t: &Table, point: &str, what: &str) {
    assert_eq!(names(t), expected(), "{what}");
    assert!(t.alerts().is_empty(), "{what}: {:#?}", t.alerts());
    let chatter = device_alerts(t, DeviceAlertKind::ChatteringSensor);
    assert_eq!(chatter.len(), 1, "{what}: {chatter:#?}");
    assert_eq!(chatter[0].point.as_deref(), Some(point), "{what}");
}

#[test]
fn an_empty_corner_chattering_stalls_nothing() {
    for hz in [2, 4, 10] {
        for (for_ms, reading) in [(5_000, Reading::Black), (20_000, Reading::White)] {
            let mut t = Table::nine();
            let j9 = t.idx("J9");
            let mut c = Chatter::new(&t, j9, hz, Reading::Empty, reading, for_ms);
            play_game(&mut t, &mut c, 500, 900);
            wait_chattering(&mut t, &mut c, 20_000);
            let what = format!("{hz} Hz for {for_ms} ms");
            check(&t, "J9", &what);
            let state = t.referee.state();
            assert!(state.device.chattering_points.is_empty(), "{what}: cleared");
            assert!(
                device_alerts(&t, DeviceAlertKind::ChatteringSensor)[0]
                    .resolved_at
                    .is_some()
            );
        }
    }
}

#[test]
fn a_chattering_stone_is_not_a_capture_nor_a_move() {
    for hz in [2, 5, 10] {
        let mut t = Table::nine();
        t.play("D5", B, &[]);
        t.play("J1", W, &[]);
        let d5 = t.idx("D5");
        let mut c = Chatter::new(&t, d5, hz, Reading::Black, Reading::Empty, 15_000);
        for (p, col) in [("F5", B), ("J2", W), ("F6", B), ("H1", W)] {
            play_chattering(&mut t, &mut c, p, col, 500, 900);
        }
        wait_chattering(&mut t, &mut c, 12_000);
        let what = format!("{hz} Hz on a stone");
        assert_eq!(
            names(&t),
            vec!["D5", "J1", "F5", "J2", "F6", "H1"],
            "{what}"
        );
        assert!(t.alerts().is_empty(), "{what}: {:#?}", t.alerts());
        assert_eq!(
            device_alerts(&t, DeviceAlertKind::ChatteringSensor).len(),
            1,
            "{what}"
        );
    }
}

#[test]
fn a_sensor_chattering_next_to_the_point_played_does_not_hide_the_move() {
    for hz in [2, 4, 10] {
        let mut t = Table::nine();
        t.play("C3", B, &[]);
        t.play("G7", W, &[]);
        let f5 = t.idx("F5");
        let mut c = Chatter::new(&t, f5, hz, Reading::Empty, Reading::White, 10_000);
        wait_chattering(&mut t, &mut c, 2_500);
        for (p, col) in [("E5", B), ("C7", W), ("G3", B)] {
            play_chattering(&mut t, &mut c, p, col, 500, 900);
        }
        wait_chattering(&mut t, &mut c, 12_000);
        let what = format!("{hz} Hz beside E5");
        assert_eq!(names(&t), vec!["C3", "G7", "E5", "C7", "G3"], "{what}");
        assert!(t.alerts().is_empty(), "{what}: {:#?}", t.alerts());
    }
}

/// White plays on the chattering point itself, and the game goes on around it while the
/// sensor still reads `?` (hall stress, "chatter next to move", games 7, 8 and 11): the stone
/// is read only when the sensor clears, yet it was the first of the moves held meanwhile.
/// Black's fast answer waits in the queue behind White's held press and is held with it;
/// the stone's reading says when the sensor read again, not when it was placed, so it
/// carries no order; every move is recorded in the order played.
#[test]
fn a_stone_played_on_a_chattering_point_keeps_its_place_in_the_order() {
    for wrong in [Reading::White, Reading::Black] {
        for hz in [2, 4, 10] {
            let mut t = Table::nine();
            t.play("C3", B, &[]);
            t.play("G7", W, &[]);
            let f5 = t.idx("F5");
            let mut c = Chatter::new(&t, f5, hz, Reading::Empty, wrong, 12_000);
            wait_chattering(&mut t, &mut c, 2_500);
            play_chattering(&mut t, &mut c, "E5", B, 500, 900);
            // The stone lands on the chattering point: its true reading is White from now on.
            c.a = Reading::White;
            play_chattering(&mut t, &mut c, "F5", W, 500, 900);
            // Black answers fast: the press comes before the stone is reported.
            play_chattering(&mut t, &mut c, "G3", B, 150, 900);
            let what = format!("{hz} Hz, {wrong:?} chatter, White on F5");
            assert_eq!(
                t.referee.state().device.unexplained_presses,
                2,
                "{what}: White's press for F5 and Black's queued behind it are both held"
            );
            for (p, col) in [("C7", W), ("D4", B)] {
                play_chattering(&mut t, &mut c, p, col, 500, 900);
            }
            wait_chattering(&mut t, &mut c, 14_000);
            assert_eq!(
                names(&t),
                vec!["C3", "G7", "E5", "F5", "G3", "C7", "D4"],
                "{what}"
            );
            assert!(t.alerts().is_empty(), "{what}: {:#?}", t.alerts());
            let asks = device_alerts(&t, DeviceAlertKind::BoardUnavailable);
            assert!(
                asks.iter().all(|a| a.resolved_at.is_some()),
                "{what}: no ask left open: {asks:#?}"
            );
        }
    }
}

/// Two bare presses while a sensor chatters elsewhere (the board unclean, so no pass is proven
/// at once) are never both read as passes: a stone placed and the stone that captured it
/// hide as well behind two passes, which one replacement at a time cannot rule out (hall
/// stress, "chatter on a stone"). The referee asks and records nothing it did not see.
#[test]
fn two_passes_while_a_sensor_chatters_are_asked_not_guessed() {
    let mut t = Table::nine();
    t.play("C3", B, &[]);
    t.play("G7", W, &[]);
    let j9 = t.idx("J9");
    let mut c = Chatter::new(&t, j9, 4, Reading::Empty, Reading::White, 8_000);
    wait_chattering(&mut t, &mut c, 3_000);
    t.press(button(B));
    wait_chattering(&mut t, &mut c, 900);
    play_chattering(&mut t, &mut c, "C7", W, 400, 900);
    t.press(button(B));
    wait_chattering(&mut t, &mut c, 900);
    play_chattering(&mut t, &mut c, "E5", W, 400, 900);
    wait_chattering(&mut t, &mut c, 12_000);
    assert_eq!(names(&t), vec!["C3", "G7"], "no pass guessed");
    let asks = device_alerts(&t, DeviceAlertKind::BoardUnavailable);
    assert_eq!(asks.len(), 1, "{asks:#?}");
    assert!(asks[0].resolved_at.is_none(), "{asks:#?}");
    assert!(t.alerts().is_empty(), "{:#?}", t.alerts());
}
