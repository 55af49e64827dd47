//! When a board's batch must be committed: a change of the game at once, a clock reading when
//! another commit goes. What its views share: one SGF header per game. How its messages are
//! numbered: by the ledger alone.

use std::sync::Arc;

use goban_referee::{
    ArbiterAct, ArbiterCommand, Button, Device, GameSetup, Input, PointChange, Reading,
    RefereeConfig,
};

use goban_hardware::LinkEvent;
use goban_protocol::DeviceKind;

use super::health::Health;
use super::ledger::{Ledger, Urgency};
use crate::journal::{Recovered, StoredCheckpoint};
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

/// The ledger is a board's only counter: the referee's events, its states and the daemon's own
/// device reports get one seq each, gap-free from where the journal stopped, and each payload
/// opens with the `v` and the `seq` it was numbered with, as api.md shows every message.
#[test]
fn every_message_is_numbered_by_the_ledger_from_where_the_journal_stopped() {
    let config = RefereeConfig {
        board: "t1".into(),
        size: 9,
        time_control: Some("absolute:main=10m".parse().expect("time control")),
        ..RefereeConfig::default()
    };
    let recovered = Recovered {
        last_seq: 999,
        ..Recovered::default()
    };
    let mut ledger = Ledger::recover(config, &recovered).expect("ledger");
    let mut published = Vec::new();
    let mut seal = |ledger: &mut Ledger| {
        if let Some(sealed) = ledger.seal() {
            published.extend(sealed.batch.events);
        }
    };
    for device in [Device::Board, Device::Clock] {
        let _ = ledger.handle(T0, Input::DeviceConnected { device });
    }
    let snapshot = Input::BoardSnapshot {
        points: ".".repeat(81),
    };
    let _ = ledger.handle(T0, snapshot);
    let ports = [("p".to_owned(), vec![DeviceKind::Board])];
    let mut health = Health::new("t1".into(), ports.into_iter());
    let connected = LinkEvent::Connected {
        port: "p".into(),
        devices: Vec::new(),
    };
    let report = health.handle(&connected, T0).expect("a device report");
    ledger.push_device(report, T0);
    seal(&mut ledger);
    let start = ArbiterAct {
        by: "test".into(),
        note: None,
        command: ArbiterCommand::StartGame(GameSetup::default()),
    };
    let _ = ledger.handle(T0 + 1_000, Input::ArbiterAct(start));
    seal(&mut ledger);
    // Black's E5, settled, then the press; every deadline on the way sealed too.
    let changes = vec![PointChange {
        index: 40,
        state: Reading::Black,
    }];
    let _ = ledger.handle(T0 + 2_000, Input::BoardDiff { changes });
    let press = T0 + 3_000;
    while let Some(due) = ledger.poll_timeout().filter(|&due| due <= press) {
        let _ = ledger.handle(due, Input::Timeout);
        seal(&mut ledger);
    }
    let _ = ledger.handle(press, Input::ClockPress { button: Button::L });
    seal(&mut ledger);

    let seqs: Vec<u64> = published.iter().map(|message| message.seq).collect();
    let expected: Vec<u64> = (1_000..).take(seqs.len()).collect();
    assert_eq!(seqs, expected, "gap-free from the journal's last seq");
    assert_eq!(ledger.last_seq(), 999 + seqs.len() as u64);
    for topic in [Topic::State, Topic::Moves, Topic::Device, Topic::Clock] {
        assert!(
            published.iter().any(|message| message.topic == topic),
            "{topic:?} among {:?}",
            published.iter().map(|m| m.topic).collect::<Vec<_>>()
        );
    }
    for message in &published {
        let v = if message.topic == Topic::State { 2 } else { 1 };
        let head = format!("{{\"v\":{v},\"seq\":{},\"board\":\"t1\",", message.seq);
        assert!(
            message.payload.as_str().starts_with(&head),
            "{}",
            message.payload.as_str()
        );
    }
}

/// A daemon upgraded mid-tournament finds checkpoints of format 2 in its journal, written
/// while the referee still numbered its events: restored (not refused for a full replay), the
/// game goes on, and the board's seq goes on from the journal's, not from the checkpoint's.
#[test]
fn a_format_2_checkpoint_from_before_the_upgrade_is_restored_and_the_seq_goes_on() {
    const COUNTING: &[u8] =
        include_bytes!("../../../referee/tests/fixtures/checkpoint-format-2/counting.json");
    const TAIL_EVENTS: &str =
        include_str!("../../../referee/tests/fixtures/checkpoint-format-2/tail-events.jsonl");
    // The fixture's game: counting, W+3.75 proposed; its referee had numbered 147 events.
    let at_ms = 1_796_029_236_800;
    let recovered = Recovered {
        last_seq: 2_000,
        open_epoch: Some(1),
        last_epoch: 1,
        checkpoint: Some(StoredCheckpoint {
            input_id: 90,
            at_ms,
            format: 2,
            state: COUNTING.to_vec(),
        }),
        ..Recovered::default()
    };
    let config = RefereeConfig {
        size: 9,
        ..RefereeConfig::default()
    };
    let mut ledger = Ledger::recover(config, &recovered).expect("restored, not refused");
    let state = &ledger.view().state;
    assert_eq!(state.proposed_result.as_deref(), Some("W+3.75"));
    assert_eq!(ledger.last_seq(), 2_000);
    // The fixture's own next input, at its own time.
    ledger
        .handle(at_ms + 700, Input::Arbiter(ArbiterCommand::ConfirmResult))
        .expect("the count is confirmed");
    let sealed = ledger.seal().expect("the result is committed");
    let seqs: Vec<u64> = sealed.batch.events.iter().map(|m| m.seq).collect();
    assert_eq!(seqs.first(), Some(&2_001), "{seqs:?}");
    // Byte for byte what the old referee's event said (api.md), but for the ledger's seq.
    let audit = sealed
        .batch
        .events
        .iter()
        .find(|m| m.topic == Topic::Audit)
        .expect("the confirmation on `audit`");
    let old = TAIL_EVENTS
        .lines()
        .find(|line| line.contains("\"event\":\"arbiter_action\""))
        .expect("the old referee's arbiter_action");
    let renumbered = old.replace("\"seq\":151,", &format!("\"seq\":{},", audit.seq));
    assert_eq!(audit.payload.as_str(), renumbered);
    assert!(seqs.windows(2).all(|w| w[1] == w[0] + 1), "{seqs:?}");
    let state = &ledger.view().state;
    assert_eq!(state.result.as_deref(), Some("W+3.75"));
    assert!(state.count.is_some(), "the count stays beside its result");
    assert_eq!(state.seq, *seqs.last().expect("a state"));
}
