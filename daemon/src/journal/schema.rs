//! The journal's SQLite connection settings (WAL, synchronous level), its schema brought up to date on open.

use rusqlite::Connection;

use super::JournalError;
use super::migrations;
use crate::config::Synchronous;

/// Open (creating if needed) a journal connection with WAL and the chosen durability.
///
/// The tables are those of [`migrations`] (`epochs`, `inputs`, `events`,
/// `games`, `tournament_*`); a file from a newer daemon is refused untouched.
pub(crate) fn open(
    path: &std::path::Path,
    synchronous: Synchronous,
) -> Result<Connection, JournalError> {
    let mut conn = Connection::open(path)?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    // First, so a file from a newer daemon is refused before even its journal mode is changed.
    migrations::migrate(&mut conn)?;
    // journal_mode answers with a row, so it is queried rather than executed.
    let _mode: String = conn.query_row("PRAGMA journal_mode=WAL", [], |row| row.get(0))?;
    let level = match synchronous {
        Synchronous::Normal => "NORMAL",
        Synchronous::Full => "FULL",
    };
    conn.execute_batch(&format!(
        "PRAGMA synchronous={level}; PRAGMA foreign_keys=ON;"
    ))?;
    Ok(conn)
}
