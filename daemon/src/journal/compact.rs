//! Compaction of finished games: their inputs and events go, their SGF, summary and final state stay for ever.
//!
//! Only closed epochs are touched (an open game's inputs are its crash
//! recovery), and only events up to the epoch's recorded last seq, so SSE
//! resume of the game now on the board is unaffected. One epoch per
//! transaction keeps the journal writer's waits short.

use rusqlite::{Connection, params};

use super::JournalError;
use super::writer::to_sql;

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

/// Removes the inputs and events of every epoch closed before `closed_before_ms`.
pub(super) fn compact(
    conn: &mut Connection,
    closed_before_ms: u64,
) -> Result<Compacted, JournalError> {
    let due: Vec<(String, i64, Option<i64>)> = {
        let mut stmt = conn.prepare(
            "SELECT board, epoch, last_seq FROM epochs WHERE closed_ms IS NOT NULL AND closed_ms < ?1 \
             AND (EXISTS (SELECT 1 FROM inputs i WHERE i.board = epochs.board AND i.epoch = epochs.epoch) \
                  OR (last_seq IS NOT NULL AND EXISTS (SELECT 1 FROM events e WHERE e.board = epochs.board AND e.seq <= epochs.last_seq)))",
        )?;
        let rows = stmt.query_map([to_sql(closed_before_ms)], |row| {
            Ok((row.get(0)?, row.get(1)?, row.get(2)?))
        })?;
        rows.collect::<Result<_, _>>()?
    };
    let mut done = Compacted::default();
    for (board, epoch, last_seq) in due {
        let tx = conn.transaction()?;
        let inputs = tx.execute(
            "DELETE FROM inputs WHERE board = ?1 AND epoch = ?2",
            params![board, epoch],
        )?;
        // An epoch closed before last_seq was recorded keeps its events: their bound is unknown.
        let events = match last_seq {
            Some(last) => tx.execute(
                "DELETE FROM events WHERE board = ?1 AND seq <= ?2",
                params![board, last],
            )?,
            None => 0,
        };
        tx.commit()?;
        done.epochs += 1;
        done.inputs += inputs as u64;
        done.events += events as u64;
    }
    Ok(done)
}
