//! When a board's batch must be committed: a change of the game at once, a clock reading when another commit goes.

use goban_referee::{
    ArbiterAct, ArbiterCommand, Button, Device, GameSetup, Input, PointChange, Reading,
    RefereeConfig,
};

use super::ledger::{Ledger, Urgency};
use crate::hub::Topic;
use crate::journal::Recovered;

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

#[test]
fn a_move_is_committed_at_once_and_a_clock_reading_may_wait() {
    let mut ledger = build_ledger();
    let mut now = T0;
    for device in [Device::Board, Device::Clock] {
        let _ = ledger.handle(now, Input::DeviceConnected { device });
    }
    let snapshot = Input::BoardSnapshot {
        points: ".".repeat(81),
    };
    let _ = ledger.handle(now, snapshot);
    let _ = ledger.seal();
    now += 1_000;
    let start = ArbiterAct {
        by: "test".into(),
        note: None,
        command: ArbiterCommand::StartGame(GameSetup {
            game: Some("t1-1".into()),
            ..GameSetup::default()
        }),
    };
    let _ = ledger.handle(now, Input::ArbiterAct(start));
    assert_eq!(ledger.urgency(), Urgency::Now, "a game start");
    let _ = ledger.seal();

    // Black's stone, settled: a new move.
    now += 2_000;
    tick(&mut ledger, now);
    let changes = vec![PointChange {
        index: 40,
        state: Reading::Black,
    }];
    let _ = ledger.handle(now, Input::BoardDiff { changes });
    let settled = ledger.poll_timeout().expect("the stone settles");
    let _ = ledger.handle(settled, Input::Timeout);
    assert_eq!(ledger.urgency(), Urgency::Now, "a move");
    let _ = ledger.seal();
    now = settled + 200;
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
