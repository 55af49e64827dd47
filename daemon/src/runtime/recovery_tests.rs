//! Recovery at start: boards rebuilt in parallel equal the boards before the restart, and a board publishes nothing until it is registered, then continues its seq.

use std::collections::BTreeMap;
use std::sync::Arc;

use goban_referee::{
    ArbiterAct, ArbiterCommand, Button, Device, GameSetup, Input, PointChange, Reading,
    RefereeConfig,
};
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;

use super::{Job, spawn};
use crate::config::{JournalConfig, Span, Synchronous};
use crate::journal::{Journal, Recovered};
use crate::publish::hub::{Hub, Readiness};
use crate::runtime::clock::HostClock;
use crate::runtime::control::BoardHandle;
use crate::runtime::ledger::{Ledger, Urgency};
use crate::runtime::supervisor::Wiring;
use crate::runtime::unjournaled::Unjournaled;

const T0: u64 = 1_796_029_200_000;

fn build_config(board: &str) -> RefereeConfig {
    RefereeConfig {
        board: board.into(),
        size: 9,
        time_control: Some("absolute:main=10m".parse().expect("time control")),
        ..RefereeConfig::default()
    }
}

async fn commit(ledger: &mut Ledger, journal: &Journal) {
    if let Some(sealed) = ledger.seal() {
        journal.write(sealed.batch).await.expect("journal write");
    }
}

/// Deadlines up to `now` (clock readings every second), then `input`, committed as the supervisor does.
async fn step(ledger: &mut Ledger, journal: &Journal, now: u64, input: Input) {
    while let Some(due) = ledger.poll_timeout().filter(|&due| due <= now) {
        let _ = ledger.handle(due, Input::Timeout);
        if ledger.urgency() != Urgency::Idle {
            commit(ledger, journal).await;
        }
    }
    let _ = ledger.handle(now, input);
    commit(ledger, journal).await;
}

/// `moves` moves on a 9x9 board at 5 s each, the clock running; returns the live ledger.
async fn play(board: &str, moves: u16, journal: &Journal) -> Ledger {
    let mut ledger = Ledger::recover(build_config(board), &Recovered::default()).expect("ledger");
    let mut now = T0;
    for device in [Device::Board, Device::Clock] {
        step(&mut ledger, journal, now, Input::DeviceConnected { device }).await;
    }
    let snapshot = Input::BoardSnapshot {
        points: ".".repeat(81),
    };
    step(&mut ledger, journal, now, snapshot).await;
    now += 1_000;
    let act = ArbiterAct {
        by: "test".into(),
        note: None,
        command: ArbiterCommand::StartGame(GameSetup {
            game: Some(format!("{board}-1")),
            ..GameSetup::default()
        }),
    };
    step(&mut ledger, journal, now, Input::ArbiterAct(act)).await;
    for number in 0..moves {
        now += 5_000;
        let (state, button) = if number % 2 == 0 {
            (Reading::Black, Button::L)
        } else {
            (Reading::White, Button::R)
        };
        let changes = vec![PointChange {
            index: number,
            state,
        }];
        step(&mut ledger, journal, now, Input::BoardDiff { changes }).await;
        now += 400;
        step(&mut ledger, journal, now, Input::ClockPress { button }).await;
    }
    ledger
}

fn open_journal(dir: &tempfile::TempDir) -> Journal {
    Journal::open(&JournalConfig {
        path: dir.path().join("journal.sqlite"),
        synchronous: Synchronous::Normal,
        commit_window: Span(std::time::Duration::ZERO),
        ..JournalConfig::default()
    })
    .expect("journal")
}

/// The full state without its seq (a restart numbers the view with the board's last seq).
fn state_without_seq(ledger: &Ledger) -> serde_json::Value {
    let mut state = serde_json::to_value(&ledger.view().state).expect("state");
    state["seq"] = serde_json::Value::Null;
    state
}

fn build_job(board: &str) -> (Job, oneshot::Receiver<Result<Box<Ledger>, String>>) {
    let (done, rebuilt) = oneshot::channel();
    let job = Job {
        config: build_config(board),
        done,
    };
    (job, rebuilt)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn boards_rebuilt_in_parallel_equal_the_boards_before_the_restart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let journal = open_journal(&dir);
    let mut before = Vec::new();
    for (n, moves) in [7, 12, 3, 20, 9].into_iter().enumerate() {
        before.push(play(&format!("t{n}"), moves, &journal).await);
    }
    journal.flush().await.expect("flush");

    let (jobs, rebuilt): (Vec<_>, Vec<_>) = (0..before.len())
        .map(|n| build_job(&format!("t{n}")))
        .unzip();
    spawn(&journal, jobs);
    for (old, rebuilt) in before.iter().zip(rebuilt) {
        let new = rebuilt.await.expect("sent").expect("rebuilt");
        // The view keeps the seq of the last state published, which need not be the last seq
        // (a press that only times the last move publishes a correction, not a state).
        let recovered = journal.recover(old.id()).expect("recover");
        let last_state = recovered.last_state.as_ref().map(|(seq, _)| *seq);
        assert_eq!(Some(new.view().seq()), last_state, "{}", old.id());
        assert_eq!(new.view().seq(), old.view().seq(), "{}", old.id());
        assert_eq!(
            state_without_seq(&new),
            state_without_seq(old),
            "{}",
            old.id()
        );
        assert_eq!(
            new.view().sgf().expect("the new SGF"),
            old.view().sgf().expect("the old SGF"),
            "{}",
            old.id()
        );
        assert_eq!(new.poll_timeout(), old.poll_timeout(), "{}", old.id());
    }
}

#[tokio::test]
async fn a_board_publishes_nothing_before_it_is_ready_then_continues_its_seq() {
    let dir = tempfile::tempdir().expect("tempdir");
    let journal = open_journal(&dir);
    drop(play("t1", 5, &journal).await);
    journal.flush().await.expect("flush");
    let last_seq = journal.recover("t1").expect("recover").last_seq;

    let hub = Hub::new(64, Arc::new(journal.archive().expect("archive")));
    let mut bus = hub.subscribe();
    hub.expect("t1");
    let (_events_tx, events) = mpsc::channel(8);
    let (requests_tx, requests) = mpsc::channel(8);
    let wiring = Wiring {
        events,
        requests,
        links: BTreeMap::new(),
        journal: journal.clone(),
        hub: hub.clone(),
        clock: HostClock::system(),
        unjournaled: Unjournaled::default(),
        in_flight: None,
    };
    let control = Arc::new(BoardHandle::new(Arc::from("t1"), requests_tx));
    let (job, rebuilt) = build_job("t1");
    let cancel = CancellationToken::new();
    let board = tokio::spawn(crate::runtime::serve_when_recovered(
        rebuilt,
        control,
        wiring,
        None,
        cancel.clone(),
    ));
    // The rebuild has not even started: the board waits, unserved and silent.
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    assert_eq!(hub.readiness("t1"), Some(Readiness::Recovering));
    assert!(hub.view("t1").is_none() && hub.control("t1").is_none());
    assert!(bus.try_recv().is_err(), "published while recovering");

    spawn(&journal, vec![job]);
    assert!(hub.control_when_ready("t1").await.is_some(), "registered");
    assert_eq!(hub.readiness("t1"), None);

    // Whatever it publishes once ready (the clock's due readings, the final `device` report)
    // continues the journal's seq without a gap.
    cancel.cancel();
    board.await.expect("board task");
    let seqs: Vec<u64> = std::iter::from_fn(|| bus.try_recv().ok())
        .map(|message| message.seq)
        .collect();
    assert!(!seqs.is_empty(), "the stop report at least");
    let expected: Vec<u64> = (last_seq + 1..).take(seqs.len()).collect();
    assert_eq!(seqs, expected);
}

#[tokio::test]
async fn a_board_whose_journal_cannot_be_read_is_reported_failed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let journal = open_journal(&dir);
    let (job, rebuilt) = build_job("t1");
    std::fs::remove_dir_all(dir.path()).expect("remove the journal's directory");
    spawn(&journal, vec![job]);
    let why = rebuilt.await.expect("sent").err().expect("a failure");
    assert!(why.starts_with("journal:"), "{why}");
}

/// The board rebuilt from `journal` equals `old`: state, SGF, next deadline and seq.
fn assert_rebuilt_equals(journal: &Journal, config: RefereeConfig, old: &Ledger) {
    let reader = journal.recovery_reader().expect("reader");
    let new = super::rebuild(&reader, config).expect("rebuilt");
    assert_eq!(state_without_seq(&new), state_without_seq(old));
    assert_eq!(
        new.view().sgf().expect("the new SGF"),
        old.view().sgf().expect("the old SGF")
    );
    assert_eq!(new.poll_timeout(), old.poll_timeout());
    // The view keeps the seq of the last state published (a press's correction may follow it).
    let recovered = journal.recover(old.id()).expect("recover");
    let last_state = recovered.last_state.as_ref().map(|(seq, _)| *seq);
    assert_eq!(Some(new.view().seq()), last_state);
    assert_eq!(new.view().seq(), old.view().seq());
}

#[tokio::test]
async fn a_long_game_is_rebuilt_from_its_checkpoint_and_the_inputs_after_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let journal = open_journal(&dir);
    // 2 inputs a move: past the policy's 64 inputs, so a checkpoint mid-game.
    let old = play("t1", 45, &journal).await;
    journal.flush().await.expect("flush");
    let recovered = journal.recover("t1").expect("recover");
    let checkpoint = recovered.checkpoint.as_ref().expect("a checkpoint");
    let full = journal
        .recovery_reader()
        .expect("reader")
        .recover_in_full("t1")
        .expect("in full");
    assert!(
        recovered.inputs.len() < 64 && full.inputs.len() > 90,
        "{} inputs after the checkpoint, {} in all",
        recovered.inputs.len(),
        full.inputs.len()
    );
    assert!(checkpoint.at_ms > T0 + 100_000, "a checkpoint mid-game");
    // The checkpoint itself is restored (no fallback to the full replay).
    let restored = Ledger::recover(build_config("t1"), &recovered).expect("restored");
    assert_eq!(state_without_seq(&restored), state_without_seq(&old));
    assert_rebuilt_equals(&journal, build_config("t1"), &old);
}

#[tokio::test]
async fn a_refused_checkpoint_falls_back_to_replaying_the_whole_game() {
    let dir = tempfile::tempdir().expect("tempdir");
    let journal = open_journal(&dir);
    let old = play("t1", 45, &journal).await;
    journal.flush().await.expect("flush");
    let conn = rusqlite::Connection::open(dir.path().join("journal.sqlite")).expect("open");

    // A checkpoint of an older format is not even decoded.
    conn.execute("UPDATE checkpoints SET format = 0", [])
        .expect("older format");
    assert_rebuilt_equals(&journal, build_config("t1"), &old);

    // Damaged JSON inside a valid packing: the referee refuses it.
    conn.execute(
        "UPDATE checkpoints SET format = ?1, packing = 0, state = CAST('{\"format\":1,\"referee\":{' AS BLOB)",
        [goban_referee::checkpoint::FORMAT],
    )
    .expect("damaged");
    assert_rebuilt_equals(&journal, build_config("t1"), &old);

    // The config changed across the restart: the inputs are replayed under the new one.
    let changed = RefereeConfig {
        settle_ms: build_config("t1").settle_ms + 1,
        ..build_config("t1")
    };
    let reader = journal.recovery_reader().expect("reader");
    let new = super::rebuild(&reader, changed.clone()).expect("rebuilt");
    assert_eq!(new.view().state.move_number, old.view().state.move_number);
}
