//! Compaction of finished games after their retention: their inputs and events go, their SGF, summary and final state stay for ever.
//!
//! Only closed epochs that archived a game are touched: the game on a board
//! (its epoch still open) is its crash recovery and its SSE resume, and an
//! abandoned game (an epoch closed without a result) has no record to keep
//! instead of its rows, so it keeps them. An epoch's events are those numbered
//! after the previous epoch's last seq up to its own; the board's highest seq
//! always stays, so a restart never numbers below what was published. One
//! epoch per transaction keeps the journal writer's waits short.

use rusqlite::{Connection, TransactionBehavior, params};

use super::JournalError;
use super::writer::to_sql;
use crate::config::Retention;

/// What one compaction removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Compacted {
    /// Closed epochs whose rows were removed.
    pub epochs: u64,
    /// Input rows removed.
    pub inputs: u64,
    /// Event rows removed.
    pub events: u64,
}

/// When the rows of a game that finished at `finished_ms` may go (ms since the Unix epoch).
pub(super) type DueTime<'a> = &'a dyn Fn(&Connection, u64) -> Result<u64, JournalError>;

/// Compacts every finished game whose retention has passed at `now_ms`, midnight being local time.
pub(super) fn compact(
    conn: &mut Connection,
    retention: Retention,
    now_ms: u64,
) -> Result<Compacted, JournalError> {
    match retention {
        Retention::Never => Ok(Compacted::default()),
        Retention::After(span) => compact_with(conn, now_ms, &|_, finished| {
            Ok(finished.saturating_add(span.as_ms()))
        }),
        Retention::EndOfDay => compact_with(conn, now_ms, &local_midnight_after),
    }
}

/// The first local midnight after `ms`, by SQLite's `localtime` (the `TZ` of the process, else
/// `/etc/localtime`): no time-zone crate, and no unsafe `localtime_r` call of our own.
pub(super) fn local_midnight_after(conn: &Connection, ms: u64) -> Result<u64, JournalError> {
    let seconds: i64 = conn.query_row(
        "SELECT CAST(strftime('%s', ?1, 'unixepoch', 'localtime', 'start of day', '+1 day', 'utc') AS INTEGER)",
        [to_sql(ms / 1_000)],
        |row| row.get(0),
    )?;
    Ok(u64::try_from(seconds).unwrap_or(0).saturating_mul(1_000))
}

/// Compacts every finished game for which `due` is at or before `now_ms`.
pub(super) fn compact_with(
    conn: &mut Connection,
    now_ms: u64,
    due: DueTime<'_>,
) -> Result<Compacted, JournalError> {
    let mut done = Compacted::default();
    for candidate in candidates(conn)? {
        if due(conn, candidate.finished_ms)? > now_ms {
            continue;
        }
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let inputs = tx.execute(
            "DELETE FROM inputs WHERE board = ?1 AND epoch = ?2",
            params![candidate.board, candidate.epoch],
        )?;
        // An epoch closed before last_seq was recorded keeps its events: their bound is unknown.
        let events = match candidate.last_seq {
            Some(last) => tx.execute(
                "DELETE FROM events WHERE board = ?1 AND seq > ?2 AND seq <= ?3 \
                 AND seq < (SELECT MAX(seq) FROM events WHERE board = ?1)",
                params![candidate.board, candidate.previous_last_seq, last],
            )?,
            None => 0,
        };
        tx.commit()?;
        tracing::debug!(board = %candidate.board, epoch = candidate.epoch, inputs, events, "finished game compacted");
        done.epochs += 1;
        done.inputs += inputs as u64;
        done.events += events as u64;
    }
    Ok(done)
}

/// A closed epoch that archived a game and still has rows to remove.
struct Candidate {
    board: String,
    epoch: i64,
    last_seq: Option<i64>,
    previous_last_seq: i64,
    finished_ms: u64,
}

fn candidates(conn: &Connection) -> Result<Vec<Candidate>, JournalError> {
    let mut stmt = conn.prepare(
        "SELECT board, epoch, last_seq, finished_ms, previous FROM (
             SELECT e.board, e.epoch, e.last_seq, g.finished_ms,
                    COALESCE((SELECT MAX(p.last_seq) FROM epochs p
                              WHERE p.board = e.board AND p.epoch < e.epoch), 0) AS previous
             FROM epochs e JOIN games g ON g.id = e.game AND g.board = e.board
             WHERE e.closed_ms IS NOT NULL
         ) AS c
         WHERE EXISTS (SELECT 1 FROM inputs i WHERE i.board = c.board AND i.epoch = c.epoch)
            OR (c.last_seq IS NOT NULL AND EXISTS (
                SELECT 1 FROM events v WHERE v.board = c.board AND v.seq > c.previous
                  AND v.seq <= c.last_seq
                  AND v.seq < (SELECT MAX(m.seq) FROM events m WHERE m.board = c.board)))
         ORDER BY finished_ms",
    )?;
    let rows = stmt.query_map([], |row| {
        Ok(Candidate {
            board: row.get(0)?,
            epoch: row.get(1)?,
            last_seq: row.get(2)?,
            finished_ms: u64::try_from(row.get::<_, i64>(3)?).unwrap_or(0),
            previous_last_seq: row.get(4)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}
