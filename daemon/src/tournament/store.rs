//! The tournament's tables in the journal file: rounds, seats, confirmed results and the push outbox.
//!
//! The tables live in the journal's SQLite file (WAL lets this connection
//! sit beside the journal writer). A result and its pushes are written in
//! one transaction, and a push is marked done only after its target
//! accepted it, so a restart resumes exactly the pushes still owed and a
//! result already pushed with the same decision is never queued again.

use std::path::Path;

use goban_tournament::{Decision, Round, TableNo};
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite refused.
    #[error("tournament store: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The journal file's schema is newer than this daemon's, or could not be migrated.
    #[error("tournament store: {0}")]
    Schema(#[from] crate::journal::SchemaError),
    /// A stored JSON text did not parse.
    #[error("tournament store json: {0}")]
    Json(#[from] serde_json::Error),
}

/// A round as stored, with where it came from.
#[derive(Clone, Debug)]
pub struct StoredRound {
    /// The round.
    pub round: Round,
    /// `opengotha`, `csv` or `pairgoth:<tid>`.
    pub source: String,
    /// The OpenGotha document it came from, when uploaded.
    pub document: Option<String>,
}

/// One confirmed result as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredResult {
    /// Round.
    pub round: u32,
    /// Table.
    pub table: TableNo,
    /// Black's key.
    pub black: String,
    /// White's key.
    pub white: String,
    /// The decision.
    pub decision: Decision,
    /// Warnings of each side in that game (CN2002 24).
    pub warnings: [u32; 2],
    /// The board's game id, when played on a board.
    pub game: Option<String>,
    /// An arbiter's ruling (`POST /tournament/tables/{t}/result`): only another ruling replaces it.
    pub ruled: bool,
}

/// One push owed to a target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Push {
    /// Round.
    pub round: u32,
    /// Table.
    pub table: TableNo,
    /// `pairgoth`, `opengotha` or `mqtt`.
    pub target: String,
    /// The decision to push.
    pub decision: Decision,
}

/// The tournament store over its own connection to the journal file.
pub struct Store {
    conn: Connection,
}

impl Store {
    /// Opens the journal file, its schema (the tournament tables included) brought up to date.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        let mut conn = Connection::open(path)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        crate::journal::migrate_schema(&mut conn)?;
        let _mode: String = conn.query_row("PRAGMA journal_mode=WAL", [], |row| row.get(0))?;
        conn.execute_batch("PRAGMA synchronous=FULL;")?;
        Ok(Self { conn })
    }

    /// Stores round `round` and its seating (table → board), replacing an earlier load of it.
    pub fn save_round(
        &mut self,
        stored: &StoredRound,
        seats: &[(TableNo, String)],
        now_ms: u64,
    ) -> Result<(), StoreError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let number = stored.round.number;
        tx.execute(
            "INSERT OR REPLACE INTO tournament_rounds (round, source, loaded_ms, round_json, document)
             VALUES (?1, ?2, MAX(?3, (SELECT COALESCE(MAX(loaded_ms), -1) + 1 FROM tournament_rounds)), ?4, ?5)",
            params![number, stored.source, now_ms as i64, serde_json::to_string(&stored.round)?, stored.document],
        )?;
        tx.execute(
            "DELETE FROM tournament_seats WHERE round = ?1",
            params![number],
        )?;
        for (table, board) in seats {
            tx.execute(
                "INSERT INTO tournament_seats (round, table_no, board) VALUES (?1, ?2, ?3)",
                params![number, table.0, board],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// The round loaded last (the current round), whatever its number.
    pub fn latest_round(&self) -> Result<Option<StoredRound>, StoreError> {
        self.one_round(
            "SELECT round_json, source, document FROM tournament_rounds ORDER BY loaded_ms DESC, round DESC LIMIT 1",
            [],
        )
    }

    /// The (round, table) whose seat on `board` started `game`, in any round.
    pub fn seat_of_game(
        &self,
        board: &str,
        game: &str,
    ) -> Result<Option<(u32, TableNo)>, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT round, table_no FROM tournament_seats WHERE board = ?1 AND game = ?2",
                params![board, game],
                |r| Ok((r.get(0)?, TableNo(r.get(1)?))),
            )
            .optional()?)
    }

    /// Seats of rounds other than `round` whose game started on a board and has no result yet.
    pub fn live_seats_elsewhere(
        &self,
        round: u32,
    ) -> Result<Vec<(u32, TableNo, String)>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT s.round, s.table_no, s.board FROM tournament_seats s
             LEFT JOIN tournament_results r ON r.round = s.round AND r.table_no = s.table_no
             WHERE s.round != ?1 AND s.game IS NOT NULL AND r.round IS NULL
             ORDER BY s.round, s.table_no",
        )?;
        let rows = stmt.query_map(params![round], |r| {
            Ok((r.get(0)?, TableNo(r.get(1)?), r.get(2)?))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Round `number`, if it was loaded.
    pub fn round(&self, number: u32) -> Result<Option<StoredRound>, StoreError> {
        self.one_round(
            "SELECT round_json, source, document FROM tournament_rounds WHERE round = ?1",
            params![number],
        )
    }

    /// The round `sql` selects as (round_json, source, document), if any.
    fn one_round(
        &self,
        sql: &str,
        args: impl rusqlite::Params,
    ) -> Result<Option<StoredRound>, StoreError> {
        let row = self
            .conn
            .query_row(sql, args, |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, Option<String>>(2)?,
                ))
            })
            .optional()?;
        row.map(|(json, source, document)| {
            Ok(StoredRound {
                round: serde_json::from_str(&json)?,
                source,
                document,
            })
        })
        .transpose()
    }

    /// Where the desk seated each started game, for the archive's round and table.
    pub fn seated_games(&self) -> Result<crate::archive::Seats, StoreError> {
        Ok(crate::archive::seated_games(&self.conn)?)
    }

    /// The numbers of every round loaded.
    pub fn round_numbers(&self) -> Result<Vec<u32>, StoreError> {
        let mut stmt = self
            .conn
            .prepare("SELECT round FROM tournament_rounds ORDER BY round")?;
        let rows = stmt.query_map([], |r| r.get::<_, u32>(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Every round's OpenGotha document, newest last (for the export).
    pub fn documents(&self) -> Result<Vec<String>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT document FROM tournament_rounds WHERE document IS NOT NULL ORDER BY loaded_ms",
        )?;
        let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The seats of round `round`: (table, board, game).
    pub fn seats(&self, round: u32) -> Result<Vec<(TableNo, String, Option<String>)>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT table_no, board, game FROM tournament_seats WHERE round = ?1 ORDER BY table_no",
        )?;
        let rows = stmt.query_map(params![round], |r| {
            Ok((TableNo(r.get(0)?), r.get(1)?, r.get(2)?))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Moves `table` of `round` to `board` (the game id is forgotten until it starts again).
    pub fn reseat(&mut self, round: u32, table: TableNo, board: &str) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE tournament_seats SET board = ?3, game = NULL WHERE round = ?1 AND table_no = ?2",
            params![round, table.0, board],
        )?;
        Ok(())
    }

    /// Records the board's game id for a started table.
    pub fn set_game(&mut self, round: u32, table: TableNo, game: &str) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE tournament_seats SET game = ?3 WHERE round = ?1 AND table_no = ?2",
            params![round, table.0, game],
        )?;
        Ok(())
    }

    /// Records a confirmed result and queues it for every target whose last
    /// push was not this same decision. Returns the pushes queued (none when
    /// the same decision was already recorded: nothing goes out twice).
    pub fn record_result(
        &mut self,
        result: &StoredResult,
        targets: &[&str],
        now_ms: u64,
    ) -> Result<Vec<Push>, StoreError> {
        let decision = serde_json::to_string(&result.decision)?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute(
            "INSERT OR REPLACE INTO tournament_results (round, table_no, black, white, decision, warnings_black, warnings_white, game, confirmed_ms, ruled)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![result.round, result.table.0, result.black, result.white, decision,
                    result.warnings[0], result.warnings[1], result.game, now_ms as i64, result.ruled],
        )?;
        let mut queued = Vec::new();
        for target in targets {
            let last: Option<String> = tx
                .query_row(
                    "SELECT decision FROM tournament_pushes WHERE round = ?1 AND table_no = ?2 AND target = ?3",
                    params![result.round, result.table.0, target],
                    |r| r.get(0),
                )
                .optional()?;
            if last.as_deref() == Some(decision.as_str()) {
                continue;
            }
            tx.execute(
                "INSERT OR REPLACE INTO tournament_pushes (round, table_no, target, decision, pushed_ms, attempts, last_error)
                 VALUES (?1, ?2, ?3, ?4, NULL, 0, NULL)",
                params![result.round, result.table.0, target, decision],
            )?;
            queued.push(Push {
                round: result.round,
                table: result.table,
                target: (*target).to_owned(),
                decision: result.decision,
            });
        }
        tx.commit()?;
        Ok(queued)
    }

    /// Every confirmed result, all rounds.
    pub fn results(&self) -> Result<Vec<StoredResult>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT round, table_no, black, white, decision, warnings_black, warnings_white, game, ruled
             FROM tournament_results ORDER BY round, table_no",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok(StoredResult {
                round: r.get(0)?,
                table: TableNo(r.get(1)?),
                black: r.get(2)?,
                white: r.get(3)?,
                decision: decision_at(r, 4)?,
                warnings: [r.get(5)?, r.get(6)?],
                game: r.get(7)?,
                ruled: r.get(8)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Pushes still owed, oldest round first.
    pub fn pending_pushes(&self) -> Result<Vec<Push>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT round, table_no, target, decision FROM tournament_pushes
             WHERE pushed_ms IS NULL ORDER BY round, table_no, target",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok(Push {
                round: r.get(0)?,
                table: TableNo(r.get(1)?),
                target: r.get(2)?,
                decision: decision_at(r, 3)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Marks `push` done, unless a newer decision replaced it meanwhile.
    pub fn mark_pushed(&mut self, push: &Push, now_ms: u64) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE tournament_pushes SET pushed_ms = ?5, attempts = attempts + 1, last_error = NULL
             WHERE round = ?1 AND table_no = ?2 AND target = ?3 AND decision = ?4",
            params![push.round, push.table.0, push.target, serde_json::to_string(&push.decision)?, now_ms as i64],
        )?;
        Ok(())
    }

    /// Records a failed attempt; answers the error of the attempt before, if it failed.
    pub fn mark_failed(&mut self, push: &Push, error: &str) -> Result<Option<String>, StoreError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let before: Option<String> = tx
            .query_row(
                "SELECT last_error FROM tournament_pushes WHERE round = ?1 AND table_no = ?2 AND target = ?3",
                params![push.round, push.table.0, push.target],
                |r| r.get(0),
            )
            .optional()?
            .flatten();
        tx.execute(
            "UPDATE tournament_pushes SET attempts = attempts + 1, last_error = ?4
             WHERE round = ?1 AND table_no = ?2 AND target = ?3",
            params![push.round, push.table.0, push.target, error],
        )?;
        tx.commit()?;
        Ok(before)
    }
}

/// The decision stored as JSON in column `i`; a text that does not parse is a conversion error.
fn decision_at(r: &rusqlite::Row<'_>, i: usize) -> rusqlite::Result<Decision> {
    let text: String = r.get(i)?;
    serde_json::from_str(&text).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Text, Box::new(e))
    })
}
