//! One finished game as the journal keeps it (`games` table), read into types: summary, final state's alerts and warnings, SGF, and the round and table the tournament desk seated it at.

use std::path::Path;

use rusqlite::{Connection, OpenFlags};
use serde::{Deserialize, Serialize};

/// The summary row the runtime writes when a game finishes (journal `games.summary`).
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
pub struct GameSummary {
    /// Game id, e.g. `2026-11-30-table-1-1`.
    #[serde(default)]
    pub game: String,
    /// Board id.
    #[serde(default)]
    pub board: String,
    /// Black's name.
    #[serde(default)]
    pub black: Option<String>,
    /// White's name.
    #[serde(default)]
    pub white: Option<String>,
    /// Ruleset id.
    #[serde(default)]
    pub ruleset: Option<String>,
    /// Moves played.
    #[serde(default)]
    pub moves: Option<u64>,
    /// Result, SGF `RE` form.
    #[serde(default)]
    pub result: Option<String>,
    /// When it finished, RFC 3339.
    #[serde(default)]
    pub finished_at: Option<String>,
    /// Tournament round: the desk's seat of the game (`tournament_seats`).
    #[serde(default)]
    pub round: Option<u32>,
    /// Tournament table: the desk's seat of the game.
    #[serde(default)]
    pub table: Option<u32>,
}

/// Per-colour warnings of the final state (CN2002 24).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
pub struct Warnings {
    /// Black's.
    #[serde(default)]
    pub black: u32,
    /// White's.
    #[serde(default)]
    pub white: u32,
}

/// The parts of the final board state the index needs.
#[derive(Debug, Default, Deserialize)]
struct FinalState {
    #[serde(default)]
    infractions: Vec<serde::de::IgnoredAny>,
    #[serde(default)]
    warnings: Warnings,
}

/// A finished game ready to be written out.
#[derive(Clone, Debug, PartialEq)]
pub struct ArchivedGame {
    /// The summary.
    pub summary: GameSummary,
    /// How many alerts the referee raised in the game.
    pub alerts: usize,
    /// Warnings at the end.
    pub warnings: Warnings,
    /// The SGF record.
    pub sgf: String,
}

impl ArchivedGame {
    /// Builds one from the journal's JSON columns; unreadable JSON keeps the game with empty fields.
    pub fn from_columns(id: &str, summary: &str, state: &str, sgf: String) -> Self {
        let mut summary: GameSummary = serde_json::from_str(summary).unwrap_or_default();
        if summary.game.is_empty() {
            summary.game = id.to_owned();
        }
        let state: FinalState = serde_json::from_str(state).unwrap_or_default();
        Self {
            summary,
            alerts: state.infractions.len(),
            warnings: state.warnings,
            sgf,
        }
    }
}

/// Every finished game of the journal at `path`, oldest first, read through a read-only connection.
pub fn read_games(path: &Path) -> rusqlite::Result<Vec<ArchivedGame>> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    let mut stmt =
        conn.prepare("SELECT id, summary, state, sgf FROM games ORDER BY finished_ms ASC, id ASC")?;
    let rows = stmt.query_map([], |row| {
        let id: String = row.get(0)?;
        let summary: String = row.get(1)?;
        let state: String = row.get(2)?;
        Ok(ArchivedGame::from_columns(
            &id,
            &summary,
            &state,
            row.get(3)?,
        ))
    })?;
    let mut games: Vec<ArchivedGame> = rows.collect::<rusqlite::Result<_>>()?;
    apply_seats(&mut games, &seated_games(&conn)?);
    Ok(games)
}

/// Where the tournament desk seated each game: (board, game id) → (round, table).
pub type Seats = std::collections::HashMap<(String, String), (u32, u32)>;

/// Gives each game the round and table the desk seated it at, unless it has them.
pub fn apply_seats(games: &mut [ArchivedGame], seats: &Seats) {
    for game in games {
        let seat = seats.get(&(game.summary.board.clone(), game.summary.game.clone()));
        if let Some(&(round, table)) = seat {
            game.summary.round.get_or_insert(round);
            game.summary.table.get_or_insert(table);
        }
    }
}

/// Round and table of every game the tournament desk seated, by (board, game id):
/// the desk's `tournament_seats` (absent from a journal older than the desk).
pub fn seated_games(conn: &Connection) -> rusqlite::Result<Seats> {
    let exists: bool = conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tournament_seats')",
        [],
        |row| row.get(0),
    )?;
    if !exists {
        return Ok(Seats::new());
    }
    let mut stmt = conn.prepare(
        "SELECT board, game, round, table_no FROM tournament_seats WHERE game IS NOT NULL",
    )?;
    let rows = stmt.query_map([], |row| {
        Ok(((row.get(0)?, row.get(1)?), (row.get(2)?, row.get(3)?)))
    })?;
    rows.collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_the_desk_seated_has_its_round_and_table() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("journal.sqlite");
        let mut conn = Connection::open(&path).expect("open");
        crate::journal::migrate_schema(&mut conn).expect("schema");
        conn.execute_batch(
            "INSERT INTO games (id, board, finished_ms, summary, state, sgf) VALUES
               ('g1', 'table-3', 1, '{\"game\": \"g1\", \"board\": \"table-3\"}', '{}', '(;)'),
               ('g2', 'table-4', 2, '{\"game\": \"g2\", \"board\": \"table-4\"}', '{}', '(;)');
             INSERT INTO tournament_seats (round, table_no, board, game) VALUES (7, 1, 'table-3', 'g1');",
        )
        .expect("rows");
        drop(conn);
        let games = read_games(&path).expect("read");
        let seat = |i: usize| (games[i].summary.round, games[i].summary.table);
        assert_eq!(seat(0), (Some(7), Some(1)));
        assert_eq!(seat(1), (None, None), "a game outside a round");
    }
}
