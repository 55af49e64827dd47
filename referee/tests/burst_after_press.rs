//! A bare press followed by a burst of stones (fast play): the press is settled by the first stone and never pinned on a later move.

mod common;

use common::table::Table;
use goban_referee::InfractionKind;
use goban_rules::Color;

const B: Color = Color::Black;
const W: Color = Color::White;

fn kinds(t: &Table) -> Vec<(InfractionKind, u32)> {
    t.alerts().iter().map(|a| (a.kind, a.move_number)).collect()
}

#[test]
fn premature_press_then_a_fast_reply_is_one_alert_not_a_cascade() {
    let mut t = Table::nine();
    t.play("E5", B, &[]);
    // White presses before the stone (CN2002 17.4), the stone lands 100 ms later and Black
    // answers 250 ms after it, before the board was quiet: both stones arrive in one burst.
    t.press_white();
    t.wait(100);
    t.put("C3", W);
    t.wait(250);
    t.put("G7", B);
    t.wait(150);
    t.press_black();
    t.wait(1_500);
    t.play("C7", W, &[]);
    t.play("G3", B, &[]);
    t.play("D4", W, &[]);
    t.wait(6_000);
    assert_eq!(t.moves(), vec!["E5", "C3", "G7", "C7", "G3", "D4"]);
    assert_eq!(kinds(&t), vec![(InfractionKind::PrematurePress, 2)]);
}

#[test]
fn a_pass_then_two_quick_stones_records_the_pass_without_alert() {
    let mut t = Table::nine();
    t.play("E5", B, &[]);
    // White passes (CN2002 2.5); Black and White then play within one settle time.
    t.press_white();
    t.wait(1_000);
    t.put("G7", B);
    t.wait(200);
    t.put("C3", W);
    t.wait(1_500);
    t.press_white();
    t.wait(6_000);
    assert!(t.alerts().is_empty(), "{:#?}", t.alerts());
    assert_eq!(t.moves(), vec!["E5", "pass", "G7", "C3"]);
}
