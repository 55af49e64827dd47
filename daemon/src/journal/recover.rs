//! Reading back what a board needs after a restart: last seq, open epoch, its latest checkpoint and the inputs after it.

use rusqlite::{Connection, OptionalExtension, params};

use super::JournalError;
use super::batch::InputRecord;

/// A board's journaled past.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recovered {
    /// The highest seq ever published for the board (0: none).
    pub last_seq: u64,
    /// The epoch to continue, if one is still open.
    pub open_epoch: Option<u64>,
    /// The highest epoch number used (0: none).
    pub last_epoch: u64,
    /// The open epoch's latest referee checkpoint, unpacked (`None`: none, or unreadable).
    pub checkpoint: Option<StoredCheckpoint>,
    /// The open epoch's inputs after the checkpoint (all of them without one), oldest first, to replay.
    pub inputs: Vec<InputRecord>,
    /// Number of games archived for this board (to number the next one).
    pub games: u64,
    /// The last `state` message published for the board, as published: its seq and JSON.
    pub last_state: Option<(u64, String)>,
}

/// A referee checkpoint as stored: the state after input `input_id` of its epoch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredCheckpoint {
    /// The id of the last input it includes.
    pub input_id: u64,
    /// That input's time, ms since the epoch.
    pub at_ms: u64,
    /// The referee's checkpoint format.
    pub format: u32,
    /// The referee's checkpoint bytes (JSON), unpacked.
    pub state: Vec<u8>,
}

/// Where the replay of the open epoch starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum From {
    /// After the epoch's latest checkpoint, if it has a readable one.
    Checkpoint,
    /// At the epoch's first input.
    Start,
}

pub(super) fn recover(
    conn: &Connection,
    board: &str,
    from: From,
) -> Result<Recovered, JournalError> {
    // Cached statements: one reader recovers many boards.
    let last_seq: i64 = conn
        .prepare_cached("SELECT COALESCE(MAX(seq), 0) FROM events WHERE board = ?1")?
        .query_row([board], |r| r.get(0))?;
    let last_epoch: i64 = conn
        .prepare_cached("SELECT COALESCE(MAX(epoch), 0) FROM epochs WHERE board = ?1")?
        .query_row([board], |r| r.get(0))?;
    let games: i64 = conn
        .prepare_cached("SELECT COUNT(*) FROM games WHERE board = ?1")?
        .query_row([board], |r| r.get(0))?;
    let open_epoch: Option<i64> = conn
        .prepare_cached(
            "SELECT epoch FROM epochs WHERE board = ?1 AND closed_ms IS NULL ORDER BY epoch DESC LIMIT 1",
        )?
        .query_row(
            [board],
            |r| r.get(0),
        )
        .optional()?;
    let last_state = conn
        .prepare_cached(
            "SELECT seq, payload, packing FROM events WHERE board = ?1 AND topic = 'state' \
             ORDER BY seq DESC LIMIT 1",
        )?
        .query_row([board], |row| {
            let seq = from_sql(row.get(0)?);
            let stored = match row.get_ref(1)? {
                rusqlite::types::ValueRef::Text(bytes) | rusqlite::types::ValueRef::Blob(bytes) => {
                    bytes.to_vec()
                }
                _ => Vec::new(),
            };
            Ok((seq, stored, row.get::<_, i64>(2)?))
        })
        .optional()?
        .and_then(|(seq, stored, packing)| {
            super::packing::Unpacker::new()
                .unpack(packing, &stored)
                .ok()
                .map(|json| (seq, json))
        });
    let mut inputs = Vec::new();
    let mut checkpoint = None;
    if let Some(epoch) = open_epoch {
        if from == From::Checkpoint {
            checkpoint = read_checkpoint(conn, board, epoch)?;
        }
        let after = checkpoint.as_ref().map_or(0, |c| c.input_id);
        let mut stmt = conn.prepare_cached(
            "SELECT at_ms, input FROM inputs WHERE board = ?1 AND epoch = ?2 AND id > ?3 ORDER BY id",
        )?;
        let rows = stmt.query_map(params![board, epoch, super::writer::to_sql(after)], |row| {
            Ok(InputRecord {
                at_ms: from_sql(row.get(0)?),
                json: row.get(1)?,
            })
        })?;
        for row in rows {
            inputs.push(row?);
        }
    }
    Ok(Recovered {
        last_seq: from_sql(last_seq),
        open_epoch: open_epoch.map(from_sql),
        last_epoch: from_sql(last_epoch),
        checkpoint,
        inputs,
        games: from_sql(games),
        last_state,
    })
}

/// The epoch's checkpoint, unpacked; `None` when there is none or it cannot be unpacked (then
/// the whole epoch is replayed: slower, never wrong).
fn read_checkpoint(
    conn: &Connection,
    board: &str,
    epoch: i64,
) -> Result<Option<StoredCheckpoint>, JournalError> {
    let row = conn
        .prepare_cached(
            "SELECT input_id, at_ms, format, packing, state FROM checkpoints \
             WHERE board = ?1 AND epoch = ?2",
        )?
        .query_row(params![board, epoch], |row| {
            let stored = match row.get_ref(4)? {
                rusqlite::types::ValueRef::Text(bytes) | rusqlite::types::ValueRef::Blob(bytes) => {
                    bytes.to_vec()
                }
                _ => Vec::new(),
            };
            Ok((
                from_sql(row.get(0)?),
                from_sql(row.get(1)?),
                row.get::<_, i64>(2)?,
                row.get::<_, i64>(3)?,
                stored,
            ))
        })
        .optional()?;
    let Some((input_id, at_ms, format, packing, stored)) = row else {
        return Ok(None);
    };
    match super::packing::Unpacker::new().unpack(packing, &stored) {
        Ok(json) => Ok(Some(StoredCheckpoint {
            input_id,
            at_ms,
            format: u32::try_from(format).unwrap_or(u32::MAX),
            state: json.into_bytes(),
        })),
        Err(err) => {
            tracing::warn!(
                cause = %err,
                epoch,
                "the board's checkpoint cannot be unpacked; its whole game is replayed instead"
            );
            Ok(None)
        }
    }
}

/// Stored integers are never negative; a negative one (hand-edited file) reads as 0.
pub(super) fn from_sql(value: i64) -> u64 {
    u64::try_from(value).unwrap_or(0)
}
