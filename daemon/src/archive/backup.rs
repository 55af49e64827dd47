//! `goban-bridge backup`: a consistent copy of the journal taken while the daemon runs (SQLite `VACUUM INTO`, a read transaction under WAL).

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};

/// Why a backup was not made.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// Never overwrite: an old backup may be the only good one.
    #[error("{0} exists already; choose a new file name")]
    Exists(PathBuf),
    /// SQLite refused.
    #[error("backup of {journal} failed: {source}")]
    Sqlite {
        /// The journal.
        journal: PathBuf,
        /// SQLite's reason.
        source: rusqlite::Error,
    },
}

/// Copies the journal at `journal` to the new file `out`; the size of the copy in bytes.
///
/// `VACUUM INTO` reads one snapshot of the database, so the copy is
/// consistent even while the daemon commits (WAL readers never block the
/// writer), and it is compacted on the way.
pub fn backup(journal: &Path, out: &Path) -> Result<u64, BackupError> {
    if out.exists() {
        return Err(BackupError::Exists(out.to_path_buf()));
    }
    let fail = |source| BackupError::Sqlite {
        journal: journal.to_path_buf(),
        source,
    };
    let conn =
        Connection::open_with_flags(journal, OpenFlags::SQLITE_OPEN_READ_ONLY).map_err(fail)?;
    conn.busy_timeout(std::time::Duration::from_secs(10))
        .map_err(fail)?;
    conn.execute("VACUUM INTO ?1", [out.to_string_lossy()])
        .map_err(fail)?;
    Ok(std::fs::metadata(out).map(|m| m.len()).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_backup_is_a_readable_copy_and_never_overwrites() {
        let dir = tempfile::tempdir().expect("dir");
        let journal = dir.path().join("j.sqlite");
        let conn = Connection::open(&journal).expect("open");
        let _: String = conn
            .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
            .expect("wal");
        conn.execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (42);")
            .expect("fill");
        let out = dir.path().join("copy.sqlite");
        assert!(backup(&journal, &out).expect("backup") > 0);
        let copy = Connection::open(&out).expect("open copy");
        let x: i64 = copy
            .query_row("SELECT x FROM t", [], |r| r.get(0))
            .expect("row");
        assert_eq!(x, 42);
        assert!(matches!(
            backup(&journal, &out),
            Err(BackupError::Exists(_))
        ));
    }
}
