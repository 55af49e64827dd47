//! When a board's batch must be committed: a change of the game at once, a clock reading when
//! another commit goes. What its views share: one SGF header per game.

use std::sync::Arc;

use goban_referee::{
    ArbiterAct, ArbiterCommand, Button, Device, GameSetup, Input, PointChange, Reading,
    RefereeConfig,
};

use super::ledger::{Ledger, Urgency};
use crate::journal::Recovered;
use crate::message::Topic;

const T0: u64 = 1_796_029_200_000;

fn build_ledger() -> Ledger {
    let config = RefereeConfig {
        board: "t1".into(),
        size: 9,
        time_control: Some("absolute:main=10m".parse().expect("time control")),
        ..RefereeConfig::default()
    };
    Ledger::recover(config, &Recovered::default()).expect("ledger")
}

/// Delivers the referee's deadlines up to `until`, sealing whatever they make.
fn tick(ledger: &mut Ledger, until: u64) {
    while let Some(due) = ledger.poll_timeout().filter(|&due| due <= until) {
        let _ = ledger.handle(due, Input::Timeout);
        let _ = ledger.seal();
    }
}

/// Connects the devices, reads an empty board and starts game `t1-1`; the time after it.
fn start_game(ledger: &mut Ledger) -> u64 {
    let now = T0;
    for device in [Device::Board, Device::Clock] {
        let _ = ledger.handle(now, Input::DeviceConnected { device });
    }
    let snapshot = Input::BoardSnapshot {
        points: ".".repeat(81),
    };
    let _ = ledger.handle(now, snapshot);
    let _ = ledger.seal();
    let start = ArbiterAct {
        by: "test".into(),
        note: None,
        command: ArbiterCommand::StartGame(GameSetup {
            game: Some("t1-1".into()),
            ..GameSetup::default()
        }),
    };
    let _ = ledger.handle(now + 1_000, Input::ArbiterAct(start));
    now + 1_000
}

/// Black's stone on E5 (index 40), settled; the time it settled.
fn place_black_stone(ledger: &mut Ledger, now: u64) -> u64 {
    tick(ledger, now);
    let changes = vec![PointChange {
        index: 40,
        state: Reading::Black,
    }];
    let _ = ledger.handle(now, Input::BoardDiff { changes });
    let settled = ledger.poll_timeout().expect("the stone settles");
    let _ = ledger.handle(settled, Input::Timeout);
    settled
}

#[test]
fn a_move_is_committed_at_once_and_a_clock_reading_may_wait() {
    let mut ledger = build_ledger();
    let now = start_game(&mut ledger);
    assert_eq!(ledger.urgency(), Urgency::Now, "a game start");
    let _ = ledger.seal();

    // Black's stone, settled: a new move.
    let settled = place_black_stone(&mut ledger, now + 2_000);
    assert_eq!(ledger.urgency(), Urgency::Now, "a move");
    let _ = ledger.seal();
    let now = settled + 200;
    tick(&mut ledger, now);
    let _ = ledger.handle(now, Input::ClockPress { button: Button::L });
    let _ = ledger.seal();

    // White's clock runs: its next reading is only a clock message, which may wait.
    let due = ledger.poll_timeout().expect("White's clock runs");
    let _ = ledger.handle(due, Input::Timeout);
    assert_eq!(ledger.urgency(), Urgency::MayWait, "a clock reading");
    let sealed = ledger.seal().expect("the reading is sealed");
    assert!(!sealed.batch.events.is_empty());
    assert!(
        sealed
            .batch
            .events
            .iter()
            .all(|event| event.topic == Topic::Clock),
        "only clock messages may wait"
    );
    assert_eq!(ledger.urgency(), Urgency::Idle, "sealing empties the batch");
}

#[test]
fn the_views_of_one_game_share_its_sgf_header_and_each_writes_its_own_moment() {
    let mut ledger = build_ledger();
    let now = start_game(&mut ledger);
    let _ = ledger.seal();
    let before = ledger.view().clone();
    place_black_stone(&mut ledger, now + 2_000);
    let _ = ledger.seal();
    let after = ledger.view().clone();
    assert!(after.seq() > before.seq(), "the move made a new view");
    let (Some(kept), Some(shared)) = (before.sgf_header(), after.sgf_header()) else {
        panic!("both views are of a game");
    };
    assert!(Arc::ptr_eq(kept, shared), "one header for the game");
    let (then, now) = (before.sgf().expect("SGF"), after.sgf().expect("SGF"));
    assert!(
        then.starts_with("(;FF[4]") && !then.contains(";B[ee]"),
        "{then}"
    );
    assert!(now.contains(";B[ee]"), "{now}");
}
