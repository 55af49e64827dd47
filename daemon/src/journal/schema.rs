//! The journal's SQLite schema and connection settings (WAL, synchronous level).

use rusqlite::Connection;

use crate::config::Synchronous;

/// Tables of the journal. `inputs` is the referee's input log per board epoch
/// (an epoch is one referee lifetime, closed when its game is archived);
/// `events` is everything published, numbered by the per-board `seq`;
/// `games` keeps finished games with their final state and SGF.
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS epochs (
    board TEXT NOT NULL,
    epoch INTEGER NOT NULL,
    opened_ms INTEGER NOT NULL,
    closed_ms INTEGER,
    PRIMARY KEY (board, epoch)
);
CREATE TABLE IF NOT EXISTS inputs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    board TEXT NOT NULL,
    epoch INTEGER NOT NULL,
    at_ms INTEGER NOT NULL,
    input TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS inputs_by_epoch ON inputs (board, epoch, id);
CREATE TABLE IF NOT EXISTS events (
    board TEXT NOT NULL,
    seq INTEGER NOT NULL,
    topic TEXT NOT NULL,
    at_ms INTEGER NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (board, seq)
);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    board TEXT NOT NULL,
    finished_ms INTEGER NOT NULL,
    summary TEXT NOT NULL,
    state TEXT NOT NULL,
    sgf TEXT NOT NULL
);
";

/// Open (creating if needed) a journal connection with WAL and the chosen durability.
pub(crate) fn open(
    path: &std::path::Path,
    synchronous: Synchronous,
) -> rusqlite::Result<Connection> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    // journal_mode answers with a row, so it is queried rather than executed.
    let _mode: String = conn.query_row("PRAGMA journal_mode=WAL", [], |row| row.get(0))?;
    let level = match synchronous {
        Synchronous::Normal => "NORMAL",
        Synchronous::Full => "FULL",
    };
    conn.execute_batch(&format!(
        "PRAGMA synchronous={level}; PRAGMA foreign_keys=ON;"
    ))?;
    conn.execute_batch(SCHEMA)?;
    Ok(conn)
}
