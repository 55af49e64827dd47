//! Moves the board could not order, recorded as a setup block (issue 39): a board that joins mid-game, the block in the SGF, and a checkpoint and a replay that keep it.

mod common;

use common::hall::{
    assert_restores_and_replays, button, device_alerts, position_of, put_unseen, replug, unordered,
    unplug,
};
use common::table::Table;
use goban_referee::{
    ArbiterCommand, Device, DeviceAlertKind, EventKind, GameSetup, Input, RefereeConfig,
};
use goban_rules::Color;
use goban_rules::sgf::{SgfEvent, read_sgf};

const B: Color = Color::Black;
const W: Color = Color::White;

/// A 9x9 game whose board joins after `moves` were placed and pressed unseen.
fn joins_after(moves: &[(&str, Color)]) -> Table {
    let mut t = Table::unread(RefereeConfig {
        size: 9,
        ..RefereeConfig::default()
    });
    t.send(Input::DeviceConnected {
        device: Device::Clock,
    });
    t.arbiter(ArbiterCommand::StartGame(GameSetup::default()));
    for &(p, c) in moves {
        t.wait(2_000);
        put_unseen(&mut t, p, c);
        t.wait(400);
        t.press(button(c));
    }
    t.wait(300);
    replug(&mut t);
    t.wait(1_500);
    t
}

/// Black G7, White C7, Black G3 played while the board was unplugged, then two moves seen.
fn block_then_two_moves() -> Table {
    let mut t = Table::timed_nine();
    unplug(&mut t);
    for (p, c) in [("G7", B), ("C7", W), ("G3", B)] {
        t.wait(1_000);
        put_unseen(&mut t, p, c);
        t.wait(400);
        t.press(button(c));
    }
    t.wait(1_000);
    replug(&mut t);
    t.wait(1_500);
    t.play("A1", W, &[]);
    t.play("J9", B, &[]);
    t
}

#[test]
fn a_board_that_joins_mid_game_records_the_stones_as_a_block_and_reads_on() {
    let before = [
        ("E5", B),
        ("C3", W),
        ("G7", B),
        ("C7", W),
        ("G3", B),
        ("D4", W),
        ("F6", B),
    ];
    let mut t = joins_after(&before);
    assert_eq!(
        unordered(&t),
        (1..=7).collect::<Vec<u32>>(),
        "{:?}",
        t.moves()
    );
    let mut got = t.moves();
    got.sort();
    let mut want: Vec<String> = before.iter().map(|m| m.0.to_owned()).collect();
    want.sort();
    assert_eq!(got, want, "the stones on the board, nothing invented");
    assert_eq!(t.referee.state().to_move, W);
    let asks = device_alerts(&t, DeviceAlertKind::BoardUnavailable);
    assert_eq!(asks.len(), 1, "{asks:?}");
    assert!(
        asks[0].message.contains("moves 1-7, order unknown"),
        "{asks:?}"
    );
    t.play("B8", W, &[]);
    t.play("H2", B, &[]);
    assert_eq!(t.moves()[7..], ["B8", "H2"]);
    assert_eq!(unordered(&t).len(), 7);
    assert!(t.alerts().is_empty(), "no infraction: {:?}", t.alerts());
}

#[test]
fn a_board_that_joins_with_a_stone_no_press_explains_stays_an_ask() {
    // Three presses, four stones: one of them is no move of this game.
    let mut t = Table::unread(RefereeConfig {
        size: 9,
        ..RefereeConfig::default()
    });
    t.send(Input::DeviceConnected {
        device: Device::Clock,
    });
    t.arbiter(ArbiterCommand::StartGame(GameSetup::default()));
    put_unseen(&mut t, "A9", W);
    for (p, c) in [("E5", B), ("C3", W), ("G7", B)] {
        t.wait(2_000);
        put_unseen(&mut t, p, c);
        t.wait(400);
        t.press(button(c));
    }
    t.wait(300);
    replug(&mut t);
    t.wait(1_500);
    assert!(unordered(&t).is_empty(), "{:?}", t.moves());
    assert!(!t.moves().iter().any(|m| m == "pass"), "{:?}", t.moves());
}

#[test]
fn the_sgf_has_the_block_as_a_setup_node_and_reads_back() {
    let t = block_then_two_moves();
    let sgf = t.referee.sgf().expect("sgf");
    assert!(sgf.contains("C[moves 3-5: order unknown"), "{sgf}");
    assert!(sgf.contains("AB[gc][gg]AW[cc]PL[W]"), "{sgf}");
    let game = &read_sgf(&sgf).expect("reads back")[0];
    let kinds: Vec<&str> = game
        .events
        .iter()
        .map(|e| match e {
            SgfEvent::Move(_) => "move",
            SgfEvent::Setup { .. } => "setup",
        })
        .collect();
    assert_eq!(kinds, ["move", "move", "setup", "move", "move"]);
    let replay = game.replay().expect("replays");
    assert_eq!(replay.implied_passes, 0, "no pass implied after the block");
    assert_eq!(position_of(&replay.game), t.referee.state().position);
}

#[test]
fn a_block_survives_a_checkpoint_and_a_replay_of_the_journal() {
    let t = block_then_two_moves();
    assert_eq!(unordered(&t), [3, 4, 5]);
    let config = RefereeConfig {
        size: 9,
        ..RefereeConfig::default()
    };
    let replayed = assert_restores_and_replays(&t, config);
    let blocks = replayed
        .iter()
        .filter(|e| matches!(e, EventKind::SetupBlock { .. }))
        .count();
    assert_eq!(blocks, 1);
}

#[test]
fn a_stone_read_at_once_before_its_press_waits_for_it_and_moves_seen_after_are_in_order() {
    let mut t = Table::timed_nine();
    unplug(&mut t);
    for (p, c) in [("G7", B), ("C7", W), ("G3", B)] {
        t.wait(1_000);
        put_unseen(&mut t, p, c);
        t.wait(400);
        t.press(button(c));
    }
    // White's next stone is down, its press not yet made, when the board reads again.
    t.wait(1_000);
    put_unseen(&mut t, "D4", W);
    t.wait(300);
    replug(&mut t);
    t.wait(1_500);
    assert_eq!(
        t.moves(),
        ["E5", "C3"],
        "which white stone is unpressed is unknown"
    );
    assert_eq!(t.referee.state().device.unexplained_presses, 3);
    t.press(button(W));
    t.wait(1_000);
    // Black's next move, seen being placed, then pressed.
    t.play("F4", B, &[]);
    let moves = t.moves();
    let mut block = moves[2..6].to_vec();
    block.sort();
    assert_eq!(block, ["C7", "D4", "G3", "G7"], "{moves:?}");
    assert_eq!(unordered(&t), [3, 4, 5, 6]);
    assert_eq!(moves[6..], ["F4"], "seen after the block: in order");
    let state = t.referee.state();
    assert!(state.moves[6].order_known && state.moves[6].time_left_ms.is_some());
    assert_eq!(state.device.unexplained_presses, 0);
    assert!(t.alerts().is_empty(), "no infraction: {:?}", t.alerts());
    t.play("A1", W, &[]);
    assert_eq!(t.moves()[7..], ["A1"]);
}

#[test]
fn the_arbiter_gives_the_order_of_a_block_and_it_becomes_ordinary_moves() {
    let mut t = block_then_two_moves();
    let order = |points: &[&str]| {
        Input::Arbiter(ArbiterCommand::OrderMoves {
            first: 3,
            points: points.iter().map(|p| (*p).to_owned()).collect(),
        })
    };
    let before = t.referee.state();
    // Not the block's stones, or not one colour in turn: refused, nothing changed.
    for wrong in [
        &["G7", "C7", "H3"][..],
        &["G7", "C7"],
        &["G7", "G3", "C7"],
        &["C7", "G7", "G3"],
    ] {
        assert!(t.try_send(order(wrong)).is_err(), "{wrong:?}");
        assert_eq!(t.referee.state().moves, before.moves, "{wrong:?}");
    }
    assert!(t.try_send(order(&["G3", "C7", "G7"])).is_ok());
    assert_eq!(t.moves(), ["E5", "C3", "G3", "C7", "G7", "A1", "J9"]);
    assert!(unordered(&t).is_empty());
    let state = t.referee.state();
    assert_eq!(state.position, before.position, "the same position");
    let asks = device_alerts(&t, DeviceAlertKind::BoardUnavailable);
    assert!(asks.iter().all(|a| a.resolved_at.is_some()), "{asks:?}");
    let corrected = t.events_where(|e| {
        matches!(e, EventKind::Correction { reason, .. } if reason.contains("order given by the arbiter"))
    });
    assert_eq!(
        corrected.len(),
        3,
        "C7 G7 G3 listed by point become G3 C7 G7"
    );
    let sgf = t.referee.sgf().expect("sgf");
    assert!(!sgf.contains("order unknown"), "{sgf}");
    assert!(sgf.contains(";B[gg]") && sgf.contains(";W[cc]"), "{sgf}");
    assert_eq!(
        state.audit.last().map(|a| a.action.as_str()),
        Some("order_moves")
    );
    // Play goes on.
    t.play("B2", W, &[]);
    assert_eq!(t.moves().len(), 8);
    assert!(t.alerts().is_empty(), "{:?}", t.alerts());
}

#[test]
fn a_move_of_a_block_is_not_voided_alone_but_a_later_one_is() {
    let mut t = block_then_two_moves();
    let void = |number| Input::Arbiter(ArbiterCommand::VoidMove { number });
    let before = t.referee.state();
    for number in [2, 4] {
        assert!(t.try_send(void(number)).is_err(), "move {number}");
        assert_eq!(t.referee.state().moves, before.moves, "move {number}");
    }
    assert!(t.try_send(void(6)).is_ok());
    assert_eq!(t.moves()[5], "pass");
    assert_eq!(unordered(&t), [3, 4, 5], "the block stands");
}
