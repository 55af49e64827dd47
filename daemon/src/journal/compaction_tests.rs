//! Compaction of finished games past their retention: the record stays, the inputs and events
//! go, a board's highest seq and its open game stay.

use super::tests::{build_batch, build_journal};
use super::*;
use crate::config::{Retention, Span};
use crate::message::Payload;

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
