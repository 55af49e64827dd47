//! Voiding and restoring any earlier move (sanction "move void, counts as a pass", CN2002 19, 18.3): replay of the rest, refusal when a later move breaks.

mod common;

use common::table::Table;
use goban_referee::{ArbiterCommand, EventKind, Input, RefereeError};
use goban_rules::Color;

const B: Color = Color::Black;
const W: Color = Color::White;

fn void(t: &mut Table, number: u32) -> Result<(), RefereeError> {
    t.try_send(Input::Arbiter(ArbiterCommand::VoidMove { number }))
}

fn restore(t: &mut Table, number: u32) -> Result<(), RefereeError> {
    t.try_send(Input::Arbiter(ArbiterCommand::RestoreMove { number }))
}

/// B B1, W A1, B A2 capturing A1, W E5.
fn corner_capture(t: &mut Table) {
    t.play("B1", B, &[]);
    t.play("A1", W, &[]);
    t.play("A2", B, &["A1"]);
    t.play("E5", W, &[]);
}

#[test]
fn an_earlier_move_is_voided_as_a_pass_and_restored() {
    let mut t = Table::nine();
    t.play("E5", B, &[]);
    t.play("C3", W, &[]);
    t.play("G7", B, &[]);
    t.play("C7", W, &[]);
    void(&mut t, 2).unwrap();
    assert_eq!(t.moves(), vec!["E5", "pass", "G7", "C7"]);
    let state = t.referee.state();
    assert_eq!(
        state.guidance.remove,
        vec!["C3".to_owned()],
        "the void stone is to go"
    );
    assert!(
        t.events_where(
            |k| matches!(k, EventKind::Correction { number: 2, was, now, .. } if was == "C3" && now == "pass")
        )
        .len()
            == 1
    );
    t.wait(5_000);
    assert!(
        t.alerts().is_empty(),
        "the sensors cannot overturn the ruling"
    );
    // Play goes on after the ruling (Black to move).
    t.play("G3", B, &[]);
    assert_eq!(t.moves().len(), 5);
    restore(&mut t, 2).unwrap();
    assert_eq!(t.moves(), vec!["E5", "C3", "G7", "C7", "G3"]);
    assert!(t.referee.state().guidance.is_empty());
    t.wait(5_000);
    assert!(t.alerts().is_empty());
}

#[test]
fn voiding_a_capture_brings_the_captured_stone_back_into_the_game() {
    let mut t = Table::nine();
    corner_capture(&mut t);
    void(&mut t, 3).unwrap();
    assert_eq!(t.moves(), vec!["B1", "A1", "pass", "E5"]);
    let g = t.referee.state().guidance;
    assert_eq!(g.remove, vec!["A2".to_owned()]);
    assert_eq!(g.add.len(), 1);
    assert_eq!((g.add[0].point.as_str(), g.add[0].color), ("A1", W));
    t.wait(5_000);
    assert!(t.alerts().is_empty(), "{:?}", t.alerts());
    restore(&mut t, 3).unwrap();
    assert_eq!(t.moves(), vec!["B1", "A1", "A2", "E5"]);
    assert!(t.referee.state().guidance.is_empty());
}

#[test]
fn a_void_that_breaks_a_later_move_is_refused_and_changes_nothing() {
    let mut t = Table::nine();
    corner_capture(&mut t);
    t.play("A1", B, &[]); // 5: on the point the capture emptied
    t.play("E7", W, &[]);
    let (moves, state, events) = (t.moves(), t.referee.state(), t.events.len());
    let err = void(&mut t, 3).unwrap_err();
    assert!(
        matches!(
            err,
            RefereeError::ReplayBreaks {
                number: 3,
                broken: 5,
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(t.moves(), moves);
    assert_eq!(t.referee.state().guidance, state.guidance);
    assert_eq!(t.events.len(), events, "a refused command emits nothing");
    // A stone that was never voided cannot be restored; a pass cannot be voided.
    assert!(matches!(restore(&mut t, 2), Err(RefereeError::BadMove(2))));
    assert!(matches!(void(&mut t, 99), Err(RefereeError::BadMove(99))));
    assert!(matches!(void(&mut t, 0), Err(RefereeError::BadMove(0))));
    assert_eq!(t.moves(), moves);
}

#[test]
fn a_restore_that_breaks_a_later_move_is_refused() {
    let mut t = Table::nine();
    t.play("E5", B, &[]);
    t.play("C3", W, &[]);
    void(&mut t, 2).unwrap();
    // The void stone is taken off and Black plays on its point.
    t.take("C3");
    t.wait(1_000);
    t.play("G7", B, &[]); // 3
    t.play("C3", W, &[]); // 4: White plays C3 again, now legal
    let moves = t.moves();
    assert_eq!(moves, vec!["E5", "pass", "G7", "C3"]);
    let err = restore(&mut t, 2).unwrap_err();
    assert!(
        matches!(
            err,
            RefereeError::ReplayBreaks {
                number: 2,
                broken: 4,
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(t.moves(), moves);
}
