//! A stone placed and captured inside a stall (its region never quiet while it stood) is recovered as the move its press was made for, never read as a pass (issue 15, referee-notes point 4).

mod common;

use common::hall::device_alerts;
use common::table::Table;
use goban_referee::{DeviceAlertKind, Reading};
use goban_rules::Color;

const B: Color = Color::Black;
const W: Color = Color::White;

/// Black A8 and White B8, B9 around the corner: Black A9 leaves A9-A8 one liberty at A7.
fn corner() -> Table {
    let mut t = Table::nine();
    t.play("A8", B, &[]);
    t.play("B8", W, &[]);
    t.play("E5", B, &[]);
    t.play("B9", W, &[]);
    t
}

#[test]
fn a_stone_captured_inside_a_stall_is_a_move_not_a_pass() {
    let mut t = corner();
    t.put("A9", B);
    t.wait(100);
    t.press_black();
    // A hand hovers over A8: the corner's region is not quiet until after White's reply.
    t.wait(100);
    let a8 = t.idx("A8");
    t.set(&[(a8, Reading::Unknown)]);
    t.wait(40);
    t.set(&[(a8, Reading::Black)]);
    t.wait(180);
    t.put("A7", W);
    t.wait(100);
    t.take("A9");
    t.wait(200);
    t.take("A8");
    t.wait(100);
    t.press_white();
    t.wait(3_000);
    assert_eq!(t.moves(), vec!["A8", "B8", "E5", "B9", "A9", "A7"]);
    assert!(t.alerts().is_empty(), "{:#?}", t.alerts());
}

#[test]
fn a_stone_that_went_unexplained_holds_the_press_instead_of_a_pass() {
    let mut t = corner();
    // A black stone stands on G3 long enough to read, is lifted inside the stall, and White
    // plays elsewhere: no sequence explains the press, so no pass is guessed.
    t.put("G3", B);
    t.wait(100);
    t.press_black();
    t.wait(100);
    let g4 = t.idx("G4");
    t.set(&[(g4, Reading::Unknown)]);
    t.wait(40);
    t.set(&[(g4, Reading::Empty)]);
    t.wait(160);
    t.take("G3");
    t.wait(100);
    t.put("C3", W);
    t.wait(100);
    t.press_white();
    t.wait(3_000);
    let moves = t.moves();
    assert!(!moves.iter().any(|m| m == "pass"), "{moves:?}");
    // One alert asks the arbiter about the press the board could not explain.
    assert_eq!(
        device_alerts(&t, DeviceAlertKind::BoardUnavailable).len(),
        1
    );
}
