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

/// A ko at E5/F5: Black F5 can be taken by White E5, and retaken.
fn ko() -> Table {
    let mut t = Table::nine();
    t.play("D5", B, &[]);
    t.play("F6", W, &[]);
    t.play("E6", B, &[]);
    t.play("F4", W, &[]);
    t.play("E4", B, &[]);
    t.play("G5", W, &[]);
    t.play("F5", B, &[]);
    t
}

#[test]
fn a_ko_taken_and_retaken_inside_one_stall_is_every_move() {
    let mut t = ko();
    // A quarter of a second a move, press included, while a hand hovers over the ko (the
    // sensor under it reads `?` a moment): the ko's region is never quiet for a settle time
    // while White takes, both play a threat, and Black retakes on the point the board last
    // reported holding Black's earlier stone.
    let e5 = t.idx("E5");
    let hover = |t: &mut Table, back: Reading| {
        t.set(&[(e5, Reading::Unknown)]);
        t.wait(40);
        t.set(&[(e5, back)]);
    };
    t.put("E5", W);
    t.wait(60);
    t.take("F5");
    t.wait(60);
    t.press_white();
    t.wait(90);
    hover(&mut t, Reading::White);
    t.put("A1", B);
    t.wait(80);
    t.press_black();
    t.wait(130);
    hover(&mut t, Reading::White);
    t.put("J1", W);
    t.wait(80);
    t.press_white();
    t.wait(130);
    t.put("F5", B);
    t.wait(60);
    t.take("E5");
    t.wait(60);
    t.press_black();
    t.wait(130);
    t.put("J9", W);
    t.wait(80);
    t.press_white();
    t.wait(3_000);
    assert_eq!(
        t.moves(),
        vec![
            "D5", "F6", "E6", "F4", "E4", "G5", "F5", "E5", "A1", "J1", "F5", "J9"
        ]
    );
    assert!(t.alerts().is_empty(), "{:#?}", t.alerts());
    assert!(
        device_alerts(&t, DeviceAlertKind::BoardUnavailable).is_empty(),
        "no press is left unexplained"
    );
}

#[test]
fn a_stone_lifted_before_it_settled_after_its_press_is_a_takeback_not_a_premature_press() {
    let mut t = corner();
    // Black places E3, presses, lifts it again before it ever read steady for a settle time,
    // and puts a stone on G7 instead: the press completed E3, and E3 was taken back (CN2002).
    t.put("E3", B);
    t.wait(150);
    t.press_black();
    t.wait(120);
    t.take("E3");
    t.wait(80);
    t.put("G7", B);
    t.wait(3_000);
    let kinds: Vec<_> = t.alerts().iter().map(|a| a.kind).collect();
    assert_eq!(
        kinds,
        vec![goban_referee::InfractionKind::Takeback],
        "{:#?}",
        t.alerts()
    );
    assert_eq!(t.moves()[4], "E3");
}
