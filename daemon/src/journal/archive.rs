//! The journal's read side: events since a seq (SSE resume, MQTT refill) and finished games (`/games`).
//!
//! It knows nothing of its readers: the publish side offers these reads to
//! HTTP and MQTT as the hub's `Archive`.

use std::sync::Mutex;

use rusqlite::types::ValueRef;
use rusqlite::{Connection, OptionalExtension, params};
use tokio::sync::watch;

use super::packing::Unpacker;
use super::recover::from_sql;
use super::writer::to_sql;
use super::{JournalError, JournalStatus};
use crate::message::{Payload, Published, Topic};

/// The journal's reads over their own SQLite connection (WAL lets it read while the writer commits).
pub struct SqliteArchive {
    conn: Mutex<Connection>,
    status: watch::Receiver<JournalStatus>,
}

impl SqliteArchive {
    pub(super) fn new(conn: Connection, status: watch::Receiver<JournalStatus>) -> Self {
        Self {
            conn: Mutex::new(conn),
            status,
        }
    }

    fn with<T>(
        &self,
        read: impl FnOnce(&Connection) -> rusqlite::Result<T>,
    ) -> Result<T, JournalError> {
        // A poisoned lock means a panic mid-read; the connection itself is still fine.
        let conn = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        read(&conn).map_err(|err| {
            tracing::error!(cause = %err, "journal read failed");
            JournalError::from(err)
        })
    }

    /// Messages of `board` with `seq > after`, oldest first, at most `limit`; a row that does
    /// not unpack is skipped (and logged), never served altered.
    pub fn events_since(
        &self,
        board: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Published>, JournalError> {
        let board: std::sync::Arc<str> = board.into();
        self.with(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT seq, topic, at_ms, payload, packing FROM events WHERE board = ?1 AND seq > ?2 ORDER BY seq LIMIT ?3",
            )?;
            let limit = i64::try_from(limit).unwrap_or(i64::MAX);
            let mut unpacker = Unpacker::new();
            let rows = stmt.query_map(params![&*board, to_sql(after), limit], |row| {
                let seq = from_sql(row.get(0)?);
                let topic: String = row.get(1)?;
                let stored = match row.get_ref(3)? {
                    ValueRef::Text(bytes) | ValueRef::Blob(bytes) => bytes,
                    _ => &[],
                };
                let payload = unpacker.unpack(row.get(4)?, stored).map_err(|err| {
                    // Only this daemon writes the rows; one it cannot read is skipped, never served altered.
                    tracing::error!(cause = %err, seq, "journaled message unreadable; skipped");
                });
                Ok((seq, topic, from_sql(row.get(2)?), payload))
            })?;
            let mut out = Vec::new();
            for row in rows {
                let (seq, topic, at_ms, payload) = row?;
                let Some(topic) = Topic::from_name(&topic) else { continue };
                let Ok(payload) = payload else { continue };
                out.push(Published {
                    board: board.clone(),
                    seq,
                    topic,
                    at_ms,
                    payload: Payload::from_text(payload),
                    view: None,
                });
            }
            Ok(out)
        })
    }

    /// Summaries of finished games, newest first.
    pub fn games(&self) -> Result<Vec<serde_json::Value>, JournalError> {
        self.with(|conn| {
            let mut stmt = conn
                .prepare_cached("SELECT summary FROM games ORDER BY finished_ms DESC, id DESC")?;
            let rows = stmt.query_map([], |row| row.get::<_, String>(0))?;
            rows.map(|row| row.map(|text| parse_json(&text))).collect()
        })
    }

    /// One finished game's final state, if it exists.
    pub fn game(&self, id: &str) -> Result<Option<serde_json::Value>, JournalError> {
        self.with(|conn| {
            conn.query_row("SELECT state FROM games WHERE id = ?1", [id], |row| {
                row.get::<_, String>(0)
            })
            .optional()
            .map(|found| found.map(|text| parse_json(&text)))
        })
    }

    /// Whether the journal takes writes, now and each change.
    pub fn status(&self) -> watch::Receiver<JournalStatus> {
        self.status.clone()
    }

    /// One finished game's SGF, if it exists.
    pub fn game_sgf(&self, id: &str) -> Result<Option<String>, JournalError> {
        self.with(|conn| {
            conn.query_row("SELECT sgf FROM games WHERE id = ?1", [id], |row| {
                row.get(0)
            })
            .optional()
        })
    }
}

fn parse_json(text: &str) -> serde_json::Value {
    // Only this daemon writes these columns; an unreadable one is shown as null, never a crash.
    serde_json::from_str(text).unwrap_or(serde_json::Value::Null)
}
