//! The digest's "must NOT raise" cases and the pass/press ambiguity: ordinary handling is never an alert.

mod common;

use common::table::Table;
use goban_referee::{EventKind, Reading};
use goban_rules::Color;

const B: Color = Color::Black;
const W: Color = Color::White;

fn assert_quiet(t: &Table) {
    assert!(
        t.alerts().is_empty(),
        "no alert expected, got {:#?}",
        t.alerts()
    );
}

#[test]
fn a_hand_hovering_over_the_board_is_not_a_move() {
    let mut t = Table::nine();
    t.play("E5", B, &[]);
    let near: Vec<usize> = ["D4", "D5", "F6", "E4", "C3"]
        .iter()
        .map(|p| t.idx(p))
        .collect();
    for round in 0..20 {
        let p = near[round % near.len()];
        t.set(&[(p, Reading::White)]);
        t.wait(80);
        t.set(&[(p, Reading::Empty)]);
        t.wait(60);
    }
    t.wait(2_000);
    assert_quiet(&t);
    assert_eq!(t.moves(), vec!["E5"]);
    t.play("C7", W, &[]);
    assert_eq!(t.moves(), vec!["E5", "C7"]);
}

#[test]
fn a_stone_sliding_across_neighbours_lands_as_one_move() {
    let mut t = Table::nine();
    let (c5, d5, e5) = (t.idx("C5"), t.idx("D5"), t.idx("E5"));
    t.set(&[(c5, Reading::Black)]);
    t.wait(120);
    t.set(&[(c5, Reading::Empty), (d5, Reading::Black)]);
    t.wait(150);
    t.set(&[(d5, Reading::Empty), (e5, Reading::Black)]);
    t.wait(600);
    t.press_black();
    t.wait(1_000);
    assert_quiet(&t);
    assert_eq!(t.moves(), vec!["E5"]);
    let corrections = t.events_where(|k| matches!(k, EventKind::Correction { .. }));
    assert!(
        corrections.is_empty(),
        "a slide shorter than the settle time is never announced"
    );
}

#[test]
fn a_stone_that_settles_then_slides_before_the_press_is_an_explicit_correction() {
    let mut t = Table::nine();
    t.put("D5", B);
    t.wait(800);
    let (d5, e5) = (t.idx("D5"), t.idx("E5"));
    t.set(&[(d5, Reading::Empty), (e5, Reading::Black)]);
    t.wait(600);
    t.press_black();
    t.wait(1_000);
    assert_quiet(&t);
    assert_eq!(t.moves(), vec!["E5"]);
    let corrections = t.events_where(
        |k| matches!(k, EventKind::Correction { was, now, .. } if was == "D5" && now == "E5"),
    );
    assert_eq!(corrections.len(), 1, "the referee says it changed its mind");
}

#[test]
fn a_stone_lifted_and_put_back_is_nothing() {
    let mut t = Table::nine();
    t.play("E5", B, &[]);
    t.play("C3", W, &[]);
    for (lift_ms, name) in [(100, "E5"), (1_200, "C3"), (2_000, "E5")] {
        t.take(name);
        t.wait(lift_ms);
        t.put(name, if name == "E5" { B } else { W });
        t.wait(500);
    }
    t.wait(5_000);
    assert_quiet(&t);
    assert_eq!(t.moves(), vec!["E5", "C3"]);
}

#[test]
fn captures_taken_off_one_by_one_slowly_in_any_order_are_fine() {
    let mut t = Table::nine();
    // White's three stones D5 E5 F5 walled in by Black; Black's G5 captures them.
    for (p, c) in [
        ("D6", B),
        ("D5", W),
        ("E6", B),
        ("E5", W),
        ("F6", B),
        ("F5", W),
        ("C5", B),
        ("A1", W),
    ] {
        t.play(p, c, &[]);
    }
    for (p, c) in [
        ("D4", B),
        ("A2", W),
        ("E4", B),
        ("A3", W),
        ("F4", B),
        ("A4", W),
    ] {
        t.play(p, c, &[]);
    }
    t.put("G5", B);
    t.wait(2_500);
    t.take("E5");
    t.wait(3_000);
    t.take("F5");
    t.wait(1_700);
    t.take("D5");
    t.wait(900);
    t.press_black();
    t.wait(2_000);
    assert_quiet(&t);
    let state = t.referee.state();
    assert_eq!(state.captures.black, 3);
    assert!(
        state.guidance.leds.is_empty(),
        "the board shows the game position"
    );
}

#[test]
fn single_reading_flicker_is_ignored() {
    let mut t = Table::nine();
    t.play("E5", B, &[]);
    let e5 = t.idx("E5");
    let a1 = t.idx("A1");
    t.set(&[(e5, Reading::Empty), (a1, Reading::White)]);
    t.wait(40);
    t.set(&[(e5, Reading::Black), (a1, Reading::Empty)]);
    t.wait(3_000);
    assert_quiet(&t);
    assert_eq!(t.moves(), vec!["E5"]);
}

#[test]
fn a_bare_press_followed_by_the_opponents_stone_is_a_pass() {
    let mut t = Table::nine();
    t.play("E5", B, &[]);
    t.press_white();
    t.wait(1_500);
    t.play("C3", B, &[]);
    assert_quiet(&t);
    assert_eq!(t.moves(), vec!["E5", "pass", "C3"]);
}

#[test]
fn a_bare_press_nobody_answers_becomes_a_pass_at_the_deadline() {
    let mut t = Table::nine();
    t.play("E5", B, &[]);
    t.press_white();
    t.wait(3_000);
    assert_eq!(t.moves(), vec!["E5"], "undecided before the deadline");
    t.wait(2_000);
    assert_eq!(t.moves(), vec!["E5", "pass"]);
    // The player then places a stone after all: an explicit correction and a premature press.
    t.put("C3", W);
    t.wait(1_000);
    assert_eq!(t.moves(), vec!["E5", "C3"]);
    assert_eq!(t.alerts().len(), 1);
    assert_eq!(
        t.alerts()[0].kind,
        goban_referee::InfractionKind::PrematurePress
    );
    assert!(
        !t.events_where(|k| matches!(k, EventKind::Correction { was, .. } if was == "pass"))
            .is_empty()
    );
}

#[test]
fn several_fast_moves_in_one_burst_are_inferred_when_the_replay_matches() {
    let mut t = Table::nine();
    for (p, c) in [("E5", B), ("C3", W), ("G7", B), ("C7", W)] {
        t.put(p, c);
        t.wait(100);
    }
    t.wait(1_000);
    assert_quiet(&t);
    assert_eq!(t.moves(), vec!["E5", "C3", "G7", "C7"]);
}

#[test]
fn moves_without_any_press_follow_each_other() {
    let mut t = Table::nine();
    for (p, c) in [("E5", B), ("C3", W), ("G7", B)] {
        t.put(p, c);
        t.wait(1_000);
    }
    assert_quiet(&t);
    assert_eq!(t.moves(), vec!["E5", "C3", "G7"]);
    assert_eq!(t.referee.state().to_move, W);
}

#[test]
fn a_late_press_after_the_opponents_stone_is_not_a_pass() {
    let mut t = Table::nine();
    t.put("E5", B);
    t.wait(1_000);
    t.put("C3", W);
    t.wait(800);
    // Black notices the clock only now; White's press was ignored by the clock meanwhile.
    t.press_white();
    t.press_black();
    t.wait(6_000);
    t.play("G7", B, &[]);
    assert_quiet(&t);
    assert_eq!(t.moves(), vec!["E5", "C3", "G7"]);
}
