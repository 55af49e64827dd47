//! Folds the write-ahead log back into the journal file on a thread of its own, off the commit path.
//!
//! SQLite's default is for the connection that commits to fold the WAL into
//! the database file (a checkpoint) once the WAL passes 1,000 pages, inside
//! that commit: with `synchronous=NORMAL` this is the only commit that waits
//! for the disk (two `fsync`s), and a move published by that commit waits
//! with it. The writer's connection therefore never checkpoints
//! (`wal_autocheckpoint=0`), and this thread runs a PASSIVE checkpoint,
//! which never blocks the writer, every [`FOLD_EVERY`]. When it has folded
//! everything, the writer's next commit starts the WAL over from its
//! beginning (one small `fsync` of the WAL header, about 0.5 ms here), so
//! the WAL file stays the size of about one interval of writes: at 512
//! boards, about 3 MB in 10 s, near SQLite's own 1,000-page threshold.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

use rusqlite::Connection;

/// How often the WAL is folded into the database file.
pub(crate) const FOLD_EVERY: Duration = Duration::from_secs(10);

/// Stops the folding thread when dropped (with the last handle on the journal).
pub(crate) struct WalFolding {
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl WalFolding {
    /// Start folding the WAL of the journal at `path` every `every` ([`FOLD_EVERY`]).
    pub(crate) fn start(path: &Path, every: Duration) -> std::io::Result<Self> {
        let (stop, stopped) = std::sync::mpsc::channel();
        let path = path.to_path_buf();
        let thread = std::thread::Builder::new()
            .name("journal-wal".into())
            .spawn(move || run(&path, every, &stopped))?;
        Ok(Self {
            stop: Some(stop),
            thread: Some(thread),
        })
    }
}

impl Drop for WalFolding {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn run(path: &PathBuf, every: Duration, stopped: &Receiver<()>) {
    let mut conn = None;
    // Nothing is ever sent: the sender dropped is the stop.
    while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(every) {
        if conn.is_none() {
            conn = Connection::open(path)
                .inspect_err(
                    |err| tracing::debug!(cause = %err, "cannot open the journal to fold its WAL"),
                )
                .ok();
        }
        let Some(open) = &conn else { continue };
        if let Err(err) = fold(open) {
            // A full disk or a read-only file: the writer reports it; the WAL is folded later.
            tracing::debug!(cause = %err, "the journal's WAL was not folded");
            conn = None;
        }
    }
    // The last connection to close folds what is left (SQLite's own rule).
}

/// One PASSIVE checkpoint: folds the frames no reader still needs, waiting for nobody.
pub(crate) fn fold(conn: &Connection) -> rusqlite::Result<(i64, i64)> {
    conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |row| {
        Ok((row.get::<_, i64>(1)?, row.get::<_, i64>(2)?))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wal_pages(conn: &Connection) -> (i64, i64) {
        // With nothing to fold, a checkpoint reports the WAL's frames and how many are folded.
        fold(conn).expect("checkpoint")
    }

    #[test]
    fn the_wal_is_folded_by_the_thread_and_not_by_the_writer() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("j.sqlite");
        let writer = Connection::open(&path).expect("open");
        let _mode: String = writer
            .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
            .expect("wal");
        writer
            .execute_batch("PRAGMA wal_autocheckpoint=0; CREATE TABLE t(x BLOB);")
            .expect("schema");
        // About 1,200 pages: past SQLite's default threshold of 1,000, which would have folded.
        for _ in 0..1_200 {
            writer
                .execute("INSERT INTO t VALUES (zeroblob(4000))", [])
                .expect("insert");
        }
        let reader = Connection::open(&path).expect("reader");
        let before: i64 = reader
            .query_row("PRAGMA page_count", [], |r| r.get(0))
            .expect("pages");
        let file_pages = std::fs::metadata(&path).expect("meta").len() / 4096;
        assert!(
            file_pages < 10,
            "the writer folded the WAL itself: the file has {file_pages} pages of {before}"
        );
        let every = Duration::from_millis(100);
        let folding = WalFolding::start(&path, every).expect("start");
        std::thread::sleep(every * 10);
        drop(folding);
        let file_pages = std::fs::metadata(&path).expect("meta").len() / 4096;
        assert!(
            file_pages >= 1_200,
            "the thread did not fold the WAL: {file_pages} pages in the file"
        );
        let (frames, folded) = wal_pages(&reader);
        assert_eq!(frames, folded, "frames left unfolded");
    }
}
