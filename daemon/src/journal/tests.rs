//! Unit tests of the journal on a real SQLite file: group commit, recovery, archive reads.

use super::*;
use crate::config::{Retention, Span};
use crate::hub::{Archive, Payload, Published, Topic};

fn build_journal(dir: &tempfile::TempDir, synchronous: Synchronous) -> Journal {
    let config = JournalConfig {
        path: dir.path().join("journal.sqlite"),
        synchronous,
        commit_window: Span(std::time::Duration::from_millis(1)),
        ..JournalConfig::default()
    };
    Journal::open(&config).expect("open journal")
}

fn build_event(board: &str, seq: u64, topic: Topic) -> Published {
    Published {
        board: board.into(),
        seq,
        topic,
        at_ms: 1_000 + seq,
        payload: Payload::json(&serde_json::json!({"v": 1, "seq": seq})).unwrap(),
        view: None,
    }
}

fn build_batch(board: &str, epoch: u64, inputs: &[&str], seqs: &[u64]) -> Batch {
    let mut batch = Batch::new(board, epoch);
    batch.inputs = inputs
        .iter()
        .enumerate()
        .map(|(i, json)| InputRecord {
            at_ms: i as u64,
            json: (*json).into(),
        })
        .collect();
    batch.events = seqs
        .iter()
        .map(|&seq| build_event(board, seq, Topic::Moves))
        .collect();
    batch
}

#[tokio::test]
async fn inputs_and_seq_survive_reopen() {
    let dir = tempfile::tempdir().expect("tempdir");
    {
        let journal = build_journal(&dir, Synchronous::Full);
        let mut first = build_batch("t1", 1, &["{\"a\":1}", "{\"a\":2}"], &[1, 2]);
        first.open_epoch = true;
        journal.write(first).await.expect("write");
        journal
            .write(build_batch("t1", 1, &["{\"a\":3}"], &[3]))
            .await
            .expect("write");
        journal
            .write(build_batch("t2", 1, &["{\"b\":1}"], &[1]))
            .await
            .expect("write");
        journal.close().await.expect("close");
    }
    let journal = build_journal(&dir, Synchronous::Normal);
    let t1 = journal.recover("t1").expect("recover");
    assert_eq!(t1.last_seq, 3);
    assert_eq!(t1.open_epoch, Some(1));
    let inputs: Vec<&str> = t1.inputs.iter().map(|i| i.json.as_str()).collect();
    assert_eq!(inputs, ["{\"a\":1}", "{\"a\":2}", "{\"a\":3}"]);
    let t2 = journal.recover("t2").expect("recover");
    assert_eq!(
        (t2.last_seq, t2.open_epoch),
        (1, None),
        "t2 never opened an epoch"
    );
    assert_eq!(
        journal.recover("t3").expect("recover"),
        Recovered::default()
    );
}

#[tokio::test]
async fn concurrent_writers_share_commits_and_keep_order() {
    let dir = tempfile::tempdir().expect("tempdir");
    let journal = build_journal(&dir, Synchronous::Normal);
    let mut tasks = Vec::new();
    for board in ["a", "b", "c"] {
        let journal = journal.clone();
        tasks.push(tokio::spawn(async move {
            for seq in 1..=50 {
                journal
                    .write(build_batch(board, 1, &["{}"], &[seq]))
                    .await
                    .expect("write");
            }
        }));
    }
    for task in tasks {
        task.await.expect("join");
    }
    let archive = journal.archive().expect("archive");
    for board in ["a", "b", "c"] {
        let seqs: Vec<u64> = archive
            .events_since(board, 10, 1000)
            .expect("read")
            .iter()
            .map(|e| e.seq)
            .collect();
        assert_eq!(seqs, (11..=50).collect::<Vec<_>>());
    }
    assert_eq!(
        archive.events_since("a", 0, 5).expect("read").len(),
        5,
        "limit is honoured"
    );
}

#[tokio::test]
async fn duplicate_seq_fails_the_whole_batch() {
    let dir = tempfile::tempdir().expect("tempdir");
    let journal = build_journal(&dir, Synchronous::Normal);
    journal
        .write(build_batch("t1", 1, &["{}"], &[1]))
        .await
        .expect("write");
    let err = journal
        .write(build_batch("t1", 1, &["{\"x\":1}"], &[2, 1]))
        .await;
    assert!(matches!(err, Err(JournalError::Sqlite(_))), "{err:?}");
    let recovered = journal.recover("t1").expect("recover");
    assert_eq!(
        (recovered.last_seq, recovered.inputs.len()),
        (1, 0),
        "nothing of the failed batch is kept"
    );
}

#[tokio::test]
async fn closed_epochs_are_not_replayed_and_games_are_served() {
    let dir = tempfile::tempdir().expect("tempdir");
    let journal = build_journal(&dir, Synchronous::Normal);
    let mut batch = build_batch("t1", 1, &["{}"], &[1]);
    batch.open_epoch = true;
    batch.close_epoch = true;
    batch.game = Some(GameRecord {
        id: "2026-11-30-t1-1".into(),
        finished_ms: 5,
        summary: Payload::json(&serde_json::json!({"game": "2026-11-30-t1-1", "result": "B+R"}))
            .unwrap(),
        state: Payload::json(&serde_json::json!({"phase": "finished"})).unwrap(),
        sgf: "(;GM[1]RE[B+R])".into(),
    });
    journal.write(batch).await.expect("write");
    let recovered = journal.recover("t1").expect("recover");
    assert_eq!(
        (recovered.open_epoch, recovered.last_epoch, recovered.games),
        (None, 1, 1)
    );
    let archive = journal.archive().expect("archive");
    assert_eq!(archive.games().expect("games")[0]["result"], "B+R");
    assert_eq!(
        archive.game("2026-11-30-t1-1").expect("game"),
        Some(serde_json::json!({"phase": "finished"}))
    );
    assert_eq!(
        archive.game_sgf("2026-11-30-t1-1").expect("sgf").as_deref(),
        Some("(;GM[1]RE[B+R])")
    );
    assert_eq!(archive.game("nope").expect("game"), None);
}

#[test]
fn a_journal_from_a_newer_daemon_is_refused_untouched() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("journal.sqlite");
    {
        let conn = rusqlite::Connection::open(&path).expect("open");
        conn.execute_batch("CREATE TABLE events_v9 (x); PRAGMA user_version = 9;")
            .expect("a future file");
    }
    let before = std::fs::read(&path).expect("read");
    let Err(err) = Journal::open(&JournalConfig {
        path: path.clone(),
        synchronous: Synchronous::Full,
        commit_window: Span(std::time::Duration::from_millis(1)),
        ..JournalConfig::default()
    }) else {
        panic!("a journal from a newer daemon must be refused")
    };
    assert!(matches!(err, JournalError::Schema(_)), "{err:?}");
    assert!(err.to_string().contains("schema version 9"), "{err}");
    assert_eq!(
        std::fs::read(&path).expect("read"),
        before,
        "the file changed"
    );
    assert!(!dir.path().join("journal.sqlite-wal").exists());
}

#[tokio::test]
async fn a_full_disk_fails_whole_batches_and_keeps_every_committed_one() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = JournalConfig {
        path: dir.path().join("journal.sqlite"),
        synchronous: Synchronous::Full,
        commit_window: Span(std::time::Duration::from_millis(1)),
        ..JournalConfig::default()
    };
    let pages: u32 = {
        let journal = Journal::open(&config).expect("create");
        journal.close().await.expect("close");
        let conn = rusqlite::Connection::open(&config.path).expect("open");
        conn.query_row("PRAGMA page_count", [], |r| r.get(0))
            .expect("page_count")
    };
    // Room for a few batches only: the disk fills up during the game.
    let journal = Journal::open_capped(&config, pages + 8).expect("open capped");
    let big = format!("{{\"pad\":\"{}\"}}", "x".repeat(3_000));
    let mut committed = 0u64;
    let mut failure = None;
    for n in 1..=200u64 {
        let mut batch = build_batch("t1", 1, &[big.as_str(), big.as_str()], &[n]);
        batch.open_epoch = n == 1;
        match journal.write(batch).await {
            Ok(()) => committed = n,
            Err(err) => {
                failure = Some(err);
                break;
            }
        }
    }
    let Some(err) = failure else {
        panic!("200 batches of 6 KB fit in {} pages", pages + 8)
    };
    assert!(committed > 0, "not even one batch fitted");
    assert!(err.to_string().contains("full"), "{err}");
    assert!(
        journal.is_refusing(),
        "a failed commit must show on the journal's health"
    );

    // The failed batch left nothing; every committed one is there, in order.
    let recovered = journal.recover("t1").expect("recover");
    assert_eq!(recovered.last_seq, committed);
    assert_eq!(recovered.inputs.len() as u64, committed * 2);
    let archive = journal.archive().expect("archive");
    let seqs: Vec<u64> = archive
        .events_since("t1", 0, usize::MAX)
        .expect("events")
        .iter()
        .map(|event| event.seq)
        .collect();
    assert_eq!(seqs, (1..=committed).collect::<Vec<_>>());
    // The writer survived and still answers; a commit that writes nothing proves nothing.
    journal.flush().await.expect("flush after a failed commit");
    assert!(journal.is_refusing());
}

fn build_game(id: &str, finished_ms: u64) -> GameRecord {
    GameRecord {
        id: id.into(),
        finished_ms,
        summary: Payload::json(&serde_json::json!({"game": id, "result": "W+R"})).unwrap(),
        state: Payload::json(
            &serde_json::json!({"phase": "finished", "infractions": [{"id": "a1"}]}),
        )
        .unwrap(),
        sgf: "(;GM[1]RE[W+R])".into(),
    }
}

/// Epoch 1 of `t1`: a game finished at `finished_ms` (inputs, seqs 1-3), closed when epoch 2
/// (inputs, seqs 4-5) opened; with `next_game` false the board never moved on.
async fn build_finished_then_open(journal: &Journal, finished_ms: u64, next_game: bool) {
    let mut finished = build_batch("t1", 1, &["{\"a\":1}", "{\"a\":2}"], &[1, 2, 3]);
    finished.open_epoch = true;
    finished.game = Some(build_game("2026-11-30-t1-1", finished_ms));
    journal.write(finished).await.expect("write");
    if next_game {
        let mut close = Batch::new("t1", 1);
        close.close_epoch = true;
        journal.write(close).await.expect("close");
        let mut open = build_batch("t1", 2, &["{\"b\":1}"], &[4, 5]);
        open.open_epoch = true;
        journal.write(open).await.expect("write");
    }
}

fn seqs(journal: &Journal, board: &str) -> Vec<u64> {
    let archive = journal.archive().expect("archive");
    let events = archive.events_since(board, 0, usize::MAX).expect("events");
    events.iter().map(|event| event.seq).collect()
}

const HOUR: u64 = 3_600_000;

#[tokio::test]
async fn a_finished_game_is_compacted_once_its_retention_passed_and_its_record_stays() {
    let dir = tempfile::tempdir().expect("tempdir");
    let journal = build_journal(&dir, Synchronous::Normal);
    build_finished_then_open(&journal, 1_003, true).await;
    let two_hours = Retention::After(Span(std::time::Duration::from_secs(7_200)));

    assert_eq!(
        journal
            .compact(two_hours, 1_003 + 2 * HOUR - 1)
            .expect("compact"),
        Compacted::default(),
        "not yet two hours after the end"
    );
    assert_eq!(
        journal.compact(Retention::Never, u64::MAX).expect("never"),
        Compacted::default()
    );
    assert_eq!(seqs(&journal, "t1"), vec![1, 2, 3, 4, 5]);

    let done = journal
        .compact(two_hours, 1_003 + 2 * HOUR)
        .expect("compact");
    assert_eq!((done.epochs, done.inputs, done.events), (1, 2, 3));
    assert_eq!(
        seqs(&journal, "t1"),
        vec![4, 5],
        "the open game's resume is intact"
    );
    let archive = journal.archive().expect("archive");
    assert_eq!(
        archive.game_sgf("2026-11-30-t1-1").expect("sgf").as_deref(),
        Some("(;GM[1]RE[W+R])")
    );
    let kept = archive
        .game("2026-11-30-t1-1")
        .expect("game")
        .expect("kept");
    assert_eq!(
        kept["infractions"][0]["id"], "a1",
        "its alerts stay with its final state"
    );
    assert_eq!(archive.games().expect("games").len(), 1);
    // The open game recovers as before.
    let recovered = journal.recover("t1").expect("recover");
    assert_eq!(
        (
            recovered.open_epoch,
            recovered.last_seq,
            recovered.inputs.len(),
            recovered.games
        ),
        (Some(2), 5, 1, 1)
    );
    assert_eq!(
        journal.compact(two_hours, u64::MAX).expect("again"),
        Compacted::default()
    );
}

#[tokio::test]
async fn the_game_on_a_board_and_an_abandoned_game_keep_their_rows() {
    let dir = tempfile::tempdir().expect("tempdir");
    let journal = build_journal(&dir, Synchronous::Normal);
    // Finished, but still the board's game: its epoch is open.
    build_finished_then_open(&journal, 1_003, false).await;
    // An abandoned game on t2: its epoch closed without a result.
    let mut abandoned = build_batch("t2", 1, &["{}"], &[1, 2]);
    abandoned.open_epoch = true;
    abandoned.close_epoch = true;
    journal.write(abandoned).await.expect("write");
    journal
        .write(build_batch("t2", 2, &["{}"], &[3]))
        .await
        .expect("write");

    let zero = Retention::After(Span(std::time::Duration::ZERO));
    assert_eq!(
        journal.compact(zero, u64::MAX).expect("compact"),
        Compacted::default()
    );
    assert_eq!(seqs(&journal, "t1"), vec![1, 2, 3]);
    assert_eq!(seqs(&journal, "t2"), vec![1, 2, 3]);
    assert_eq!(journal.recover("t1").expect("recover").inputs.len(), 2);
}

#[tokio::test]
async fn compaction_keeps_the_boards_highest_seq_so_a_restart_numbers_on() {
    let dir = tempfile::tempdir().expect("tempdir");
    let journal = build_journal(&dir, Synchronous::Normal);
    build_finished_then_open(&journal, 1_003, false).await;
    // Killed right after closing the epoch, before the next game wrote anything.
    let mut close = Batch::new("t1", 1);
    close.close_epoch = true;
    journal.write(close).await.expect("close");

    let done = journal
        .compact(Retention::After(Span(std::time::Duration::ZERO)), 2_000)
        .expect("compact");
    assert_eq!((done.epochs, done.inputs, done.events), (1, 2, 2));
    assert_eq!(seqs(&journal, "t1"), vec![3]);
    assert_eq!(journal.recover("t1").expect("recover").last_seq, 3);
}

/// The first midnight after `ms` at a fixed offset from UTC, in minutes (a calendar for tests).
fn midnight_at_offset(
    offset_min: i64,
) -> impl Fn(&rusqlite::Connection, u64) -> Result<u64, JournalError> {
    move |_, ms| {
        let day = 86_400_000_i64;
        let offset = offset_min * 60_000;
        let local = ms as i64 + offset;
        Ok(((local.div_euclid(day) + 1) * day - offset) as u64)
    }
}

#[tokio::test]
async fn end_of_day_retention_waits_for_the_local_midnight_after_the_end() {
    // 2026-11-30T15:30:00Z: 23:30 in Beijing (UTC+8), 10:30 in New York (UTC-5).
    let finished = 1_796_052_600_000;
    let beijing_midnight = 1_796_054_400_000; // 2026-11-30T16:00:00Z
    let new_york_midnight = 1_796_101_200_000; // 2026-12-01T05:00:00Z
    for (offset, midnight) in [(8 * 60, beijing_midnight), (-5 * 60, new_york_midnight)] {
        let dir = tempfile::tempdir().expect("tempdir");
        let journal = build_journal(&dir, Synchronous::Normal);
        build_finished_then_open(&journal, finished, true).await;
        let mut conn = rusqlite::Connection::open(dir.path().join("journal.sqlite")).expect("open");
        let calendar = midnight_at_offset(offset);
        let before = compact_with(&mut conn, midnight - 1, &calendar).expect("compact");
        assert_eq!(
            before,
            Compacted::default(),
            "UTC{offset:+} min: before midnight"
        );
        let after = compact_with(&mut conn, midnight, &calendar).expect("compact");
        assert_eq!(after.epochs, 1, "UTC{offset:+} min: at midnight");
        assert_eq!(seqs(&journal, "t1"), vec![4, 5]);
    }
}

#[test]
fn the_local_midnight_after_a_time_is_within_a_day_and_at_00_00_local() {
    let conn = rusqlite::Connection::open_in_memory().expect("memory");
    for ms in [1_796_052_600_000_u64, 1_796_054_400_000, 1_800_000_000_123] {
        let midnight = local_midnight_after(&conn, ms).expect("midnight");
        assert!(
            midnight > ms && midnight - ms <= 25 * HOUR,
            "{ms} -> {midnight}"
        );
        let local: String = conn
            .query_row(
                "SELECT time(?1, 'unixepoch', 'localtime')",
                [midnight as i64 / 1_000],
                |r| r.get(0),
            )
            .expect("local time");
        assert_eq!(local, "00:00:00", "{ms} -> {midnight}");
    }
}

#[tokio::test]
async fn a_resume_serves_the_published_bytes_of_packed_and_older_plain_rows() {
    let dir = tempfile::tempdir().expect("tempdir");
    let journal = build_journal(&dir, Synchronous::Normal);
    // A row as a daemon before packing wrote it: JSON text, packing 0.
    journal.flush().await.expect("created");
    let older = r#"{"v":1,"seq":1,"board":"t1","event":"move_played","point":"D4"}"#;
    rusqlite::Connection::open(dir.path().join("journal.sqlite"))
        .expect("open")
        .execute(
            "INSERT INTO events (board, seq, topic, at_ms, payload) VALUES ('t1', 1, 'moves', 1, ?1)",
            [older],
        )
        .expect("older row");
    let clock = r#"{"v":1,"seq":2,"board":"t1","game":"g","at":"2026-11-30T10:24:23.200Z","event":"clock","clock":{"running":"black","black":{"main_ms":2867400,"periods":0,"period_ms":0,"used_ms":2532600,"flagged":false},"white":{"main_ms":2870400,"periods":0,"period_ms":0,"used_ms":2529600,"flagged":false},"to_move":"black","paused":false,"flag_fallen":null,"time_control":"absolute:main=90m"}}"#;
    let mut batch = Batch::new("t1", 1);
    batch.events.push(Published {
        board: "t1".into(),
        seq: 2,
        topic: Topic::Clock,
        at_ms: 2,
        payload: Payload::from_text(clock.to_owned()),
        view: None,
    });
    journal.write(batch).await.expect("write");

    let stored: i64 = rusqlite::Connection::open(dir.path().join("journal.sqlite"))
        .expect("open")
        .query_row(
            "SELECT LENGTH(payload) FROM events WHERE seq = 2",
            [],
            |r| r.get(0),
        )
        .expect("stored");
    assert!(
        stored * 4 < clock.len() as i64,
        "{stored} bytes stored for {}",
        clock.len()
    );
    let archive = journal.archive().expect("archive");
    let served: Vec<(u64, Topic, String)> = archive
        .events_since("t1", 0, 10)
        .expect("events")
        .into_iter()
        .map(|e| (e.seq, e.topic, e.payload.as_str().to_owned()))
        .collect();
    assert_eq!(
        served,
        vec![
            (1, Topic::Moves, older.to_owned()),
            (2, Topic::Clock, clock.to_owned())
        ]
    );
}

#[tokio::test]
async fn the_status_turns_refusing_once_and_accepting_again_when_space_returns() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = JournalConfig {
        path: dir.path().join("journal.sqlite"),
        ..JournalConfig::default()
    };
    let journal = Journal::open_nearly_full(&config, 8).await;
    let mut status = journal.status();
    assert_eq!(*status.borrow_and_update(), JournalStatus::Accepting);
    let big = format!("{{\"pad\":\"{}\"}}", "x".repeat(3_000));
    let mut n = 0;
    loop {
        n += 1;
        assert!(n < 200, "the capped journal never filled up");
        if journal
            .write(build_batch("t1", 1, &[big.as_str()], &[n]))
            .await
            .is_err()
        {
            break;
        }
    }
    assert!(status.has_changed().expect("open"));
    let JournalStatus::Refusing { since_ms, cause } = status.borrow_and_update().clone() else {
        panic!("not refusing")
    };
    assert!(
        since_ms > 1_700_000_000_000 && cause.contains("full"),
        "{since_ms} {cause}"
    );
    // A second refused commit changes nothing that a watcher would hear about.
    assert!(
        journal
            .write(build_batch("t1", 1, &[big.as_str()], &[n]))
            .await
            .is_err()
    );
    assert!(!status.has_changed().expect("open"));

    // Space returns: rows removed by another connection free pages under the cap.
    rusqlite::Connection::open(&config.path)
        .expect("open")
        .execute("DELETE FROM inputs", [])
        .expect("free pages");
    journal
        .write(build_batch("t1", 1, &["{}"], &[n]))
        .await
        .expect("accepted again");
    assert!(status.has_changed().expect("open"));
    assert_eq!(*status.borrow_and_update(), JournalStatus::Accepting);
    assert!(!journal.is_refusing());
}

fn build_checkpoint(at_ms: u64, state: &str) -> CheckpointRecord {
    CheckpointRecord {
        at_ms,
        format: 1,
        state: state.as_bytes().into(),
    }
}

#[tokio::test]
async fn a_checkpoint_is_read_back_with_only_the_inputs_after_it_and_goes_with_its_epoch() {
    let dir = tempfile::tempdir().expect("tempdir");
    let journal = build_journal(&dir, Synchronous::Normal);
    let mut first = build_batch("t1", 1, &["{\"a\":1}", "{\"a\":2}"], &[1]);
    first.open_epoch = true;
    first.checkpoint = Some(build_checkpoint(7, "{\"after\":2}"));
    journal.write(first).await.expect("write");
    journal
        .write(build_batch("t1", 1, &["{\"a\":3}"], &[2]))
        .await
        .expect("write");
    // Another board's rows in between: ids are the file's, not the board's.
    let mut other = build_batch("t2", 1, &["{\"b\":1}"], &[1]);
    other.open_epoch = true;
    other.checkpoint = Some(build_checkpoint(1, "{\"t2\":1}"));
    journal.write(other).await.expect("write");

    let t1 = journal.recover("t1").expect("recover");
    let checkpoint = t1.checkpoint.expect("a checkpoint");
    assert_eq!(
        (
            checkpoint.at_ms,
            checkpoint.format,
            checkpoint.state.as_slice()
        ),
        (7, 1, b"{\"after\":2}".as_slice())
    );
    let inputs: Vec<&str> = t1.inputs.iter().map(|i| i.json.as_str()).collect();
    assert_eq!(
        inputs,
        ["{\"a\":3}"],
        "only the inputs after the checkpoint"
    );
    let full = journal
        .recovery_reader()
        .expect("reader")
        .recover_in_full("t1")
        .expect("recover in full");
    assert!(full.checkpoint.is_none());
    assert_eq!(full.inputs.len(), 3);

    // A later checkpoint replaces the earlier one.
    let mut later = build_batch("t1", 1, &["{\"a\":4}"], &[3]);
    later.checkpoint = Some(build_checkpoint(9, "{\"after\":4}"));
    journal.write(later).await.expect("write");
    let t1 = journal.recover("t1").expect("recover");
    assert_eq!(t1.checkpoint.expect("checkpoint").state, b"{\"after\":4}");
    assert!(t1.inputs.is_empty());
    let rows = |conn: &rusqlite::Connection| -> i64 {
        conn.query_row(
            "SELECT COUNT(*) FROM checkpoints WHERE board = 't1'",
            [],
            |r| r.get(0),
        )
        .expect("count")
    };
    let conn = rusqlite::Connection::open(dir.path().join("journal.sqlite")).expect("open");
    assert_eq!(rows(&conn), 1, "one row per open game");

    // A batch without inputs has no place for a checkpoint; closing the epoch removes it.
    let mut close = build_batch("t1", 1, &[], &[4]);
    close.checkpoint = Some(build_checkpoint(10, "{\"ignored\":1}"));
    close.close_epoch = true;
    journal.write(close).await.expect("write");
    assert_eq!(rows(&conn), 0);
    assert!(journal.recover("t2").expect("recover").checkpoint.is_some());
}

#[tokio::test]
async fn a_damaged_checkpoint_is_ignored_and_the_whole_epoch_is_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    let journal = build_journal(&dir, Synchronous::Normal);
    let mut first = build_batch("t1", 1, &["{\"a\":1}", "{\"a\":2}"], &[1]);
    first.open_epoch = true;
    first.checkpoint = Some(build_checkpoint(7, "{\"after\":2}"));
    journal.write(first).await.expect("write");
    journal.flush().await.expect("flush");
    let conn = rusqlite::Connection::open(dir.path().join("journal.sqlite")).expect("open");
    conn.execute("UPDATE checkpoints SET state = x'ffffffff'", [])
        .expect("damage");
    let t1 = journal.recover("t1").expect("recover");
    assert!(t1.checkpoint.is_none());
    assert_eq!(t1.inputs.len(), 2);
}

/// The cost of one checkpoint late in a game: takes the checkpoint of board `b0` from the
/// journal kept by the `journal_growth` bench (`GOBAN_BENCH_JOURNAL`), then times encoding it
/// (the referee's JSON), packing, unpacking and restoring it. Prints figures (docs/performance.md).
#[test]
#[ignore = "a measurement: run with --ignored --nocapture and GOBAN_BENCH_JOURNAL"]
fn checkpoint_cost_late_in_a_game() {
    const ROUNDS: u32 = 200;
    let path = std::env::var_os("GOBAN_BENCH_JOURNAL").expect("GOBAN_BENCH_JOURNAL");
    let conn = rusqlite::Connection::open(path).expect("open");
    let (input_id, packing, stored): (i64, i64, Vec<u8>) = conn
        .query_row(
            "SELECT input_id, packing, state FROM checkpoints WHERE board = 'b0' \
             ORDER BY epoch DESC LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .expect("b0 has a checkpoint");
    let json = packing::Unpacker::new()
        .unpack(packing, &stored)
        .expect("unpacks");
    let value: serde_json::Value = serde_json::from_str(&json).expect("json");
    let config: goban_referee::RefereeConfig =
        serde_json::from_value(value["referee"]["config"].clone()).expect("config");
    let moves = value["referee"]["game"]["moves"]
        .as_array()
        .map_or(0, Vec::len);

    let started = std::time::Instant::now();
    let mut referee = None;
    for _ in 0..ROUNDS {
        referee = Some(goban_referee::Referee::restore(&config, json.as_bytes()).expect("restore"));
    }
    let restore = started.elapsed() / ROUNDS;
    let referee = referee.expect("restored");
    let started = std::time::Instant::now();
    let mut encoded = Vec::new();
    for _ in 0..ROUNDS {
        encoded = referee.checkpoint().expect("encode");
    }
    let encode = started.elapsed() / ROUNDS;
    let mut packer = packing::Packer::new();
    let started = std::time::Instant::now();
    let mut packed = 0;
    for _ in 0..ROUNDS {
        packed = packer.pack(&encoded).expect("packs").len();
    }
    let pack = started.elapsed() / ROUNDS;
    let mut unpacker = packing::Unpacker::new();
    let started = std::time::Instant::now();
    for _ in 0..ROUNDS {
        assert_eq!(
            unpacker.unpack(packing, &stored).expect("unpacks").len(),
            json.len()
        );
    }
    let unpack = started.elapsed() / ROUNDS;
    println!(
        "b0's checkpoint after input {input_id}, move {moves}: {} bytes of JSON, {packed} packed \
         (stored {}); encode {encode:?}, pack {pack:?}, unpack {unpack:?}, restore {restore:?}",
        encoded.len(),
        stored.len()
    );
}
