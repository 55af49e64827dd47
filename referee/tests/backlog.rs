//! Presses queued on the clock's line while the daemon (or the link) was away, read in one burst when it comes back (issue 39.7): held and explained from the board as it reads, never a pass or an infraction from the burst.

mod common;

use common::hall::{away_then_back, device_alerts, unordered};
use common::table::Table;
use goban_referee::{Button, Device, DeviceAlertKind, EventKind, Input, Phase};
use goban_rules::Color;

const B: Color = Color::Black;
const W: Color = Color::White;

fn game() -> Table {
    Table::timed_nine()
}

fn infractions(t: &Table) -> Vec<String> {
    t.alerts().iter().map(|a| a.kind.id().to_owned()).collect()
}

#[test]
fn a_backlog_of_presses_is_explained_by_the_board_as_it_reads() {
    for k in 1..=2 {
        let meanwhile = [("G7", B), ("C7", W)];
        let mut t = game();
        away_then_back(&mut t, &meanwhile[..k], 60_000);
        let mut want = vec!["E5", "C3"];
        want.extend(meanwhile[..k].iter().map(|m| m.0));
        assert_eq!(t.moves(), want, "{k} moves while away");
        assert!(infractions(&t).is_empty(), "{:?}", infractions(&t));
        t.play(
            if k % 2 == 1 { "D4" } else { "F4" },
            if k % 2 == 1 { W } else { B },
            &[],
        );
        assert_eq!(t.moves().len(), want.len() + 1, "play goes on");
        assert!(infractions(&t).is_empty(), "{:?}", infractions(&t));
    }
}

#[test]
fn a_backlog_the_board_cannot_order_is_a_block_of_unknown_order_and_play_goes_on() {
    // Two black stones and one white for three presses: which black stone came first is lost.
    let mut t = game();
    away_then_back(&mut t, &[("G7", B), ("C7", W), ("G3", B)], 90_000);
    // The block's stones by point (C7, G7, G3 in index order), never in a guessed order.
    assert_eq!(t.moves(), ["E5", "C3", "C7", "G7", "G3"]);
    assert_eq!(unordered(&t), [3, 4, 5]);
    let state = t.referee.state();
    assert_eq!(
        state.device.unexplained_presses, 0,
        "the presses are the block's"
    );
    assert_eq!(state.to_move, W);
    let asks = device_alerts(&t, DeviceAlertKind::BoardUnavailable);
    assert_eq!(asks.len(), 1, "one ask: {asks:?}");
    assert!(
        asks[0].resolved_at.is_none(),
        "the order is still the arbiter's"
    );
    assert!(
        asks[0].message.contains("moves 3-5, order unknown"),
        "{asks:?}"
    );
    let blocks = t.events_where(|e| matches!(e, EventKind::SetupBlock { .. }));
    assert_eq!(blocks.len(), 1);
    assert!(matches!(
        &blocks[0].kind,
        EventKind::SetupBlock { first: 3, last: 5, black, white, .. }
            if black == &["G7", "G3"] && white == &["C7"]
    ));
    assert!(
        t.events_where(|e| matches!(e, EventKind::MovePlayed { number: 3..=5, .. }))
            .is_empty(),
        "no move_played claims an order"
    );
    // Later moves are read in order and numbered after the block.
    t.play("D4", W, &[]);
    t.play("F4", B, &[]);
    assert_eq!(t.moves()[5..], ["D4", "F4"]);
    assert_eq!(unordered(&t), [3, 4, 5], "later moves in order");
    assert!(infractions(&t).is_empty(), "{:?}", infractions(&t));
    assert_eq!(t.referee.state().phase, Phase::Playing);
    assert_eq!(
        device_alerts(&t, DeviceAlertKind::BoardUnavailable).len(),
        1
    );
    // Four moves away, two stones of each colour: the same.
    let mut t = game();
    away_then_back(
        &mut t,
        &[("G7", B), ("C7", W), ("G3", B), ("D4", W)],
        90_000,
    );
    let moves = t.moves();
    assert_eq!(moves.len(), 6, "{moves:?}");
    assert!(
        !moves.iter().any(|m| m == "pass"),
        "no phantom pass: {moves:?}"
    );
    assert!(
        infractions(&t).is_empty(),
        "no infraction from a backlog: {:?}",
        infractions(&t)
    );
    assert_eq!(t.referee.state().phase, Phase::Playing, "no counting");
    assert_eq!(unordered(&t), [3, 4, 5, 6]);
    let asks = device_alerts(&t, DeviceAlertKind::BoardUnavailable);
    assert_eq!(asks.len(), 1, "one ask-the-arbiter alert: {asks:?}");
}

#[test]
fn a_clock_backlog_while_the_board_sees_is_read_against_a_fresh_snapshot() {
    let mut t = game();
    t.send(Input::DeviceDisconnected {
        device: Device::Clock,
    });
    t.put("G7", B);
    t.wait(800);
    t.put("C7", W);
    t.wait(800);
    t.send(Input::DeviceConnected {
        device: Device::Clock,
    });
    t.send(Input::BacklogPress { button: Button::L });
    t.send(Input::BacklogPress { button: Button::R });
    let asked = t
        .commands
        .iter()
        .filter(|c| matches!(c, goban_referee::DeviceCommand::SnapRequest))
        .count();
    assert!(asked >= 1, "the board is asked to read afresh");
    let points: String = t.board.iter().map(|r| r.to_char()).collect();
    t.send(Input::BoardSnapshot { points });
    t.wait(2_000);
    assert_eq!(t.moves(), ["E5", "C3", "G7", "C7"]);
    assert!(infractions(&t).is_empty(), "{:?}", infractions(&t));
    t.play("D4", B, &[]);
    assert_eq!(t.moves(), ["E5", "C3", "G7", "C7", "D4"]);
}

/// Many presses and stones at once (a minute of blitz away): the referee asks or explains,
/// never passes twice, never counts.
#[test]
fn a_long_backlog_never_ends_the_game() {
    let mut t = game();
    let meanwhile = [
        ("G7", B),
        ("C7", W),
        ("G3", B),
        ("D4", W),
        ("F4", B),
        ("D6", W),
        ("F6", B),
        ("B5", W),
    ];
    away_then_back(&mut t, &meanwhile, 98_000);
    assert_eq!(t.referee.state().phase, Phase::Playing, "no counting");
    assert!(!t.moves().iter().any(|m| m == "pass"), "{:?}", t.moves());
    assert!(infractions(&t).is_empty(), "{:?}", infractions(&t));
}

/// The clock unplugged for one move (its press lost with the cable), then back: White's
/// stone, and White's press reaching the host with Black's next stone, in either order
/// (`e2e_fault_replug` under load, issue 39/44.7). The lost press is no wrong colour.
#[test]
fn a_press_lost_while_the_clock_was_away_is_no_wrong_colour() {
    for stone_before_press in [false, true] {
        let mut t = game();
        t.send(Input::DeviceDisconnected {
            device: Device::Clock,
        });
        t.put("G7", B);
        t.wait(800);
        t.send(Input::DeviceConnected {
            device: Device::Clock,
        });
        t.wait(800);
        t.put("C7", W);
        t.wait(400);
        if stone_before_press {
            t.put("G3", B);
            t.press(Button::R);
        } else {
            t.press(Button::R);
            t.put("G3", B);
        }
        t.wait(400);
        t.press(Button::L);
        t.wait(1_000);
        t.play("D4", W, &[]);
        assert_eq!(
            t.moves(),
            ["E5", "C3", "G7", "C7", "G3", "D4"],
            "stone before press: {stone_before_press}"
        );
        assert!(
            infractions(&t).is_empty(),
            "stone before press {stone_before_press}: {:?}",
            infractions(&t)
        );
        let clock = t.referee.state().clock.expect("a timed game");
        assert_eq!(clock.running, Some(B), "the clock runs for Black after D4");
    }
}
