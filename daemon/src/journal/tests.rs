//! Unit tests of the journal on a real SQLite file: group commit, recovery, archive reads, a
//! full disk. Compaction is in `compaction_tests.rs`, checkpoints in `checkpoint_tests.rs`.

use super::*;
use crate::config::Span;
use crate::message::{Payload, Published, Topic};

pub(super) fn build_journal(dir: &tempfile::TempDir, synchronous: Synchronous) -> Journal {
    let config = JournalConfig {
        path: dir.path().join("journal.sqlite"),
        synchronous,
        commit_window: Span(std::time::Duration::from_millis(1)),
        ..JournalConfig::default()
    };
    Journal::open(&config).expect("open journal")
}

pub(super) fn build_event(board: &str, seq: u64, topic: Topic) -> Published {
    Published {
        board: board.into(),
        seq,
        topic,
        at_ms: 1_000 + seq,
        payload: Payload::json(&serde_json::json!({"v": 1, "seq": seq})).unwrap(),
        view: None,
    }
}

pub(super) fn build_batch(board: &str, epoch: u64, inputs: &[&str], seqs: &[u64]) -> Batch {
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
