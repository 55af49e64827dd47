//! Journal bytes per game and restart time, measured on the real ledger, referee and SQLite journal: prints figures.
//!
//! Ignored by default (a measurement, not a check of behaviour beyond "the
//! game was played"). Run, in release for meaningful times:
//!
//!     GOBAN_BENCH_BOARDS=64 cargo test --release -p goban-bridge --lib \
//!         journal_growth -- --ignored --nocapture
//!
//! Each board plays a 250-move 19x19 game at human pace (20 s per move, the
//! stone read 400 ms before the press) under `absolute:main=90m`, the clock
//! running and ticking every second, every reading committed as the
//! supervisor commits it. Then every board is rebuilt from the journal as a
//! restart after `kill -9` would, by the daemon's own recovery (one thread
//! per core).
//!
//! `GOBAN_BENCH_JOURNAL=<file>` keeps the played journal in that file, and a
//! later run with the same file and board count only measures the restart
//! (to profile recovery without playing 500 games again). `GOBAN_BENCH_T0_MS`
//! sets when the games start (see [`t0`]).

use std::time::Instant;

use goban_referee::{
    ArbiterAct, ArbiterCommand, Button, Device, GameSetup, Input, PointChange, Reading,
    RefereeConfig,
};

use super::ledger::{Ledger, Urgency};
use super::recovery::{self, Job};
use crate::config::{JournalConfig, Span, Synchronous};
use crate::journal::{Journal, Recovered};

const T0: u64 = 1_796_029_200_000;

/// When the games start: `GOBAN_BENCH_T0_MS`, or [`T0`]. A daemon restarted on the kept journal
/// catches up on every clock deadline between the games' last input and its own clock, so a
/// restart measured with the real binary wants games that end about when it starts.
fn t0() -> u64 {
    std::env::var("GOBAN_BENCH_T0_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .unwrap_or(T0)
}
const MOVES: u64 = 250;
const THINK_MS: u64 = 20_000;

/// The referee config the daemon builds for `board` from the table `tests/bench/restart_hall.py`
/// writes, so that a restart of the real binary on the kept journal takes its checkpoints.
fn build_config(board: &str) -> RefereeConfig {
    let text = format!(
        "[[board]]\nid = \"{board}\"\nboard_port = \"/absent\"\nsize = 19\n\
         time_control = \"absolute:main=90m\"\n"
    );
    let config = crate::config::parse(&text).expect("the bench's board config");
    super::engine::referee_config(&config.boards[0], &config.referee)
}

/// Commit what the ledger holds, as the supervisor does when it is urgent.
async fn commit(ledger: &mut Ledger, journal: &Journal) {
    if let Some(sealed) = ledger.seal() {
        journal.write(sealed.batch).await.expect("journal write");
    }
}

/// Deliver the referee's deadlines up to `now`, then `input` at `now`.
async fn step(ledger: &mut Ledger, journal: &Journal, now: u64, input: Option<Input>) {
    while let Some(due) = ledger.poll_timeout().filter(|&due| due <= now) {
        let _ = ledger.handle(due, Input::Timeout);
        if ledger.urgency() != Urgency::Idle {
            commit(ledger, journal).await;
        }
    }
    if let Some(input) = input {
        let _ = ledger.handle(now, input);
        if ledger.urgency() != Urgency::Idle {
            commit(ledger, journal).await;
        }
    }
}

/// Black fills rows 0.., White rows 18.. downwards: no capture, no suicide, 250 legal moves.
fn point_of(number: u64) -> u16 {
    let k = u16::try_from(number / 2).expect("small");
    let (row, col) = (k / 19, k % 19);
    if number.is_multiple_of(2) {
        row * 19 + col
    } else {
        (18 - row) * 19 + col
    }
}

async fn play_game(board: &str, journal: &Journal) {
    let mut ledger = Ledger::recover(build_config(board), &Recovered::default()).expect("ledger");
    let mut now = t0();
    for input in [
        Input::DeviceConnected {
            device: Device::Board,
        },
        Input::DeviceConnected {
            device: Device::Clock,
        },
        Input::BoardSnapshot {
            points: ".".repeat(361),
        },
    ] {
        step(&mut ledger, journal, now, Some(input)).await;
    }
    now += 1_000;
    let start = ArbiterCommand::StartGame(GameSetup {
        game: Some(format!("{board}-1")),
        ..GameSetup::default()
    });
    let act = ArbiterAct {
        by: "bench".into(),
        note: None,
        command: start,
    };
    step(&mut ledger, journal, now, Some(Input::ArbiterAct(act))).await;
    for number in 0..MOVES {
        now += THINK_MS;
        let state = if number.is_multiple_of(2) {
            Reading::Black
        } else {
            Reading::White
        };
        let changes = vec![PointChange {
            index: point_of(number),
            state,
        }];
        step(
            &mut ledger,
            journal,
            now,
            Some(Input::BoardDiff { changes }),
        )
        .await;
        now += 400;
        let button = if number.is_multiple_of(2) {
            Button::L
        } else {
            Button::R
        };
        step(
            &mut ledger,
            journal,
            now,
            Some(Input::ClockPress { button }),
        )
        .await;
    }
    now += 1_000;
    step(&mut ledger, journal, now, None).await;
    commit(&mut ledger, journal).await;
}

fn boards() -> usize {
    std::env::var("GOBAN_BENCH_BOARDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(8)
}

fn kept_journal() -> Option<std::path::PathBuf> {
    std::env::var_os("GOBAN_BENCH_JOURNAL").map(Into::into)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement: run with --ignored --nocapture"]
async fn journal_growth_per_game_and_restart_time() {
    let dir = tempfile::tempdir().expect("tempdir");
    let kept = kept_journal();
    let replay_only = kept.as_ref().is_some_and(|path| path.exists());
    let config = JournalConfig {
        path: kept.unwrap_or_else(|| dir.path().join("journal.sqlite")),
        synchronous: Synchronous::Normal,
        commit_window: Span(std::time::Duration::ZERO),
        ..JournalConfig::default()
    };
    let journal = Journal::open(&config).expect("journal");
    let boards = boards();
    if replay_only {
        println!("restart only, from {}", config.path.display());
    } else {
        play_all(&journal, &config, boards).await;
    }
    restart(&journal, boards).await;
}

async fn play_all(journal: &Journal, config: &JournalConfig, boards: usize) {
    let started = Instant::now();
    let games: Vec<_> = (0..boards)
        .map(|n| {
            let journal = journal.clone();
            tokio::spawn(async move { play_game(&format!("b{n}"), &journal).await })
        })
        .collect();
    for game in games {
        game.await.expect("game");
    }
    journal.flush().await.expect("flush");
    let played = started.elapsed();

    let conn = rusqlite::Connection::open(&config.path).expect("open");
    let _: (i64, i64, i64) = conn
        .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .expect("checkpoint");
    let bytes = std::fs::metadata(&config.path).expect("size").len();
    let moves: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM events WHERE board = 'b0' AND topic = 'moves'",
            [],
            |r| r.get(0),
        )
        .expect("moves");
    assert!(
        moves >= MOVES as i64,
        "the scripted game was not played: {moves} move events"
    );
    println!(
        "{boards} boards x {MOVES} moves at {} s per move, played in {played:?}",
        THINK_MS / 1000
    );
    println!(
        "journal file: {bytes} bytes = {} bytes per game, {} bytes per move",
        bytes / boards as u64,
        bytes / boards as u64 / MOVES
    );
    let mut stmt = conn
        .prepare(
            "SELECT 'input', COUNT(*), SUM(LENGTH(input)) FROM inputs WHERE board = 'b0' \
             UNION ALL SELECT topic, COUNT(*), SUM(LENGTH(payload)) FROM events WHERE board = 'b0' GROUP BY topic",
        )
        .expect("prepare");
    let rows = stmt
        .query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, i64>(2)?,
            ))
        })
        .expect("rows");
    for row in rows {
        let (kind, count, text) = row.expect("row");
        println!("  board b0: {kind:>8}: {count:>6} rows, {text:>9} bytes stored");
    }
}

/// Every board rebuilt from the journal as the daemon does at start: on one thread per core,
/// each board handed over as soon as it is rebuilt.
async fn restart(journal: &Journal, boards: usize) {
    let started = Instant::now();
    let mut jobs = Vec::with_capacity(boards);
    let mut rebuilt = Vec::with_capacity(boards);
    for n in 0..boards {
        let (done, ledger) = tokio::sync::oneshot::channel();
        jobs.push(Job {
            config: build_config(&format!("b{n}")),
            done,
        });
        rebuilt.push(ledger);
    }
    recovery::spawn(journal, jobs);
    let mut first = None;
    for ledger in rebuilt {
        let ledger = ledger.await.expect("rebuilt").expect("rebuild");
        assert!(ledger.has_game());
        first.get_or_insert_with(|| started.elapsed());
    }
    let restart = started.elapsed();
    println!(
        "restart: {boards} games in progress rebuilt in {restart:?} ({:?} per board, {} threads; first board ready after {:?})",
        restart / u32::try_from(boards).expect("few boards"),
        recovery::threads_for(boards),
        first.unwrap_or_default(),
    );
}
