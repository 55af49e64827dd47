//! The SQLite journal: every referee input and every published message, committed before publication; finished games kept.

mod archive;
mod batch;
mod compact;
mod migrations;
mod packing;
mod queue;
mod recover;
mod refusals;
mod schema;
mod wal_folding;
mod writer;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use tokio::sync::{oneshot, watch};

use crate::config::{JournalConfig, Synchronous};
#[cfg(test)]
use compact::{compact_with, local_midnight_after};

pub use archive::SqliteArchive;
pub use batch::{Batch, CheckpointRecord, GameRecord, InputRecord};
pub use compact::Compacted;
pub use migrations::SchemaError;
pub(crate) use migrations::migrate as migrate_schema;
pub use recover::{Recovered, StoredCheckpoint};

/// Why the journal failed. Clone, so one failed group commit can answer every board in it.
#[derive(Clone, Debug, thiserror::Error)]
pub enum JournalError {
    /// SQLite refused (disk full, locked, corrupt file...).
    #[error("sqlite: {0}")]
    Sqlite(String),
    /// A stored JSON text did not parse, or a value did not serialize.
    #[error("json: {0}")]
    Json(String),
    /// The file's schema is newer than this daemon's, or a migration failed; the file is left as it was.
    #[error("{0}")]
    Schema(String),
    /// The writer thread is gone (shutdown).
    #[error("the journal is closed")]
    Closed,
}

impl From<rusqlite::Error> for JournalError {
    fn from(err: rusqlite::Error) -> Self {
        Self::Sqlite(err.to_string())
    }
}

impl From<SchemaError> for JournalError {
    fn from(err: SchemaError) -> Self {
        Self::Schema(err.to_string())
    }
}

impl From<serde_json::Error> for JournalError {
    fn from(err: serde_json::Error) -> Self {
        Self::Json(err.to_string())
    }
}

/// Whether the journal takes writes: `/health` (`journal`), MQTT `<prefix>/status` and the log say so.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum JournalStatus {
    /// The last commit that wrote something succeeded.
    #[default]
    Accepting,
    /// Commits fail (disk full, read-only file): new messages wait unpublished until one succeeds.
    Refusing {
        /// When the first refused commit failed, ms since the Unix epoch.
        since_ms: u64,
        /// SQLite's words for that first failure.
        cause: String,
    },
}

/// The answer to [`Journal::write_lazily`]: `Ok` once the batch is committed.
pub(crate) type Committed = oneshot::Receiver<Result<(), JournalError>>;

/// Cheap cloneable handle on the journal: writes go through one writer connection (a move
/// commits on its board's thread when it is free, the rest on the writer thread), reads use
/// their own connection.
#[derive(Clone)]
pub struct Journal {
    /// Closes the writer when the last handle is dropped.
    writer: Arc<OpenWriter>,
    path: PathBuf,
    thread: Arc<Mutex<Option<JoinHandle<()>>>>,
    status: watch::Receiver<JournalStatus>,
    /// Folds the WAL into the file off the writer thread; stops with the last handle.
    _wal_folding: Arc<wal_folding::WalFolding>,
}

/// The writer, shared by every handle on the journal: the last one dropped stops the writer
/// thread, once it has committed what waits.
struct OpenWriter(Arc<writer::Writer>);

impl std::ops::Deref for OpenWriter {
    type Target = writer::Writer;

    fn deref(&self) -> &writer::Writer {
        &self.0
    }
}

impl Drop for OpenWriter {
    fn drop(&mut self) {
        self.0.close();
    }
}

impl Journal {
    /// Open or create the journal file and start the writer thread.
    pub fn open(config: &JournalConfig) -> Result<Self, JournalError> {
        let conn = schema::open(&config.path, config.synchronous)?;
        Self::start(config, conn)
    }

    /// As [`Journal::open`], with the writer's file capped at `max_pages` pages: a full disk, for tests.
    #[cfg(test)]
    pub(crate) fn open_capped(
        config: &JournalConfig,
        max_pages: u32,
    ) -> Result<Self, JournalError> {
        let conn = schema::open(&config.path, config.synchronous)?;
        let _pages: i64 =
            conn.query_row(&format!("PRAGMA max_page_count = {max_pages}"), [], |row| {
                row.get(0)
            })?;
        Self::start(config, conn)
    }

    /// A new journal at `config.path` with room for only `spare_pages` pages beyond its empty
    /// schema: it fills after a few batches, for tests of a full disk.
    #[cfg(test)]
    pub(crate) async fn open_nearly_full(config: &JournalConfig, spare_pages: u32) -> Self {
        Self::open(config)
            .expect("create")
            .close()
            .await
            .expect("close");
        let conn = rusqlite::Connection::open(&config.path).expect("open");
        let pages: u32 = conn
            .query_row("PRAGMA page_count", [], |r| r.get(0))
            .expect("page_count");
        Self::open_capped(config, pages + spare_pages).expect("open capped")
    }

    fn start(config: &JournalConfig, conn: rusqlite::Connection) -> Result<Self, JournalError> {
        // The writer never folds the WAL inside a commit; `wal_folding` does, on its own thread.
        conn.execute_batch("PRAGMA wal_autocheckpoint=0;")?;
        let folded = wal_folding::FoldSignal::default();
        let wal_folding =
            wal_folding::WalFolding::start(&config.path, wal_folding::FOLD_EVERY, folded.clone())
                .map_err(|err| {
                JournalError::Sqlite(format!("cannot start the WAL folding thread: {err}"))
            })?;
        let (status_tx, status) = watch::channel(JournalStatus::Accepting);
        let windows = writer::Windows {
            commit: config.commit_window.0,
            lazy: config.lazy_window.0,
        };
        let waits_for_disk = matches!(config.synchronous, Synchronous::Full);
        let writer = Arc::new(writer::Writer::new(
            conn,
            windows,
            waits_for_disk,
            status_tx,
            folded,
        ));
        let running = Arc::clone(&writer);
        let thread = std::thread::Builder::new()
            .name("journal-writer".into())
            .spawn(move || running.run())
            .map_err(|err| {
                JournalError::Sqlite(format!("cannot start the writer thread: {err}"))
            })?;
        Ok(Self {
            writer: Arc::new(OpenWriter(writer)),
            path: config.path.clone(),
            thread: Arc::new(Mutex::new(Some(thread))),
            status,
            _wal_folding: Arc::new(wal_folding),
        })
    }

    /// Transactions committed (or tried) so far: how many commits a sequence of writes took.
    #[cfg(test)]
    pub(crate) fn commits(&self) -> u64 {
        self.writer.commits()
    }

    /// Whether the last commit failed (disk full, read-only file): for `/health` and MQTT `status`.
    /// Cleared by the next commit that succeeds.
    pub fn is_refusing(&self) -> bool {
        matches!(*self.status.borrow(), JournalStatus::Refusing { .. })
    }

    /// The journal's status now and each change of it.
    pub fn status(&self) -> watch::Receiver<JournalStatus> {
        self.status.clone()
    }

    /// The journal file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Commit `batch`; returns once it is durable at the configured level. Commits on the
    /// caller's thread when the writer's connection is free (a few hundred microseconds).
    pub async fn write(&self, batch: Batch) -> Result<(), JournalError> {
        let done = self.send(|ack| queue::Request::Write(Box::new(batch), ack))?;
        done.await.map_err(|_| JournalError::Closed)?
    }

    /// Hand `batch` to the writer to commit when another commit takes it along (within the
    /// writer's lazy window); the answer says when it is committed. For batches nobody is
    /// waiting for: a clock reading, a device report.
    pub(crate) fn write_lazily(&self, batch: Batch) -> Result<Committed, JournalError> {
        self.send(|ack| queue::Request::WriteLazily(Box::new(batch), ack))
    }

    /// Commit `batch` at once, behind this board's batch handed over with
    /// [`Journal::write_lazily`] and not yet answered for: one commit takes both if that one
    /// still waits. If that one went out alone and was refused, this one is refused too,
    /// unwritten, so the board's batches are never stored out of order.
    /// Commits on the caller's thread when the writer's connection is free, as [`Journal::write`].
    pub(crate) fn write_after(&self, batch: Batch) -> Result<Committed, JournalError> {
        self.send(|ack| queue::Request::WriteAfter(Box::new(batch), ack))
    }

    /// Commit every batch handed over so far now, without waiting for the answer.
    pub(crate) fn hurry(&self) {
        let (ack, _) = oneshot::channel();
        // A closed journal answers the batches' own acknowledgements with `Closed`.
        let _ = self.writer.hand(queue::Request::Flush(ack));
    }

    /// Wait until everything written before is committed.
    pub async fn flush(&self) -> Result<(), JournalError> {
        let done = self.send(queue::Request::Flush)?;
        done.await.map_err(|_| JournalError::Closed)?
    }

    /// Send the writer the request `request` makes of an acknowledgement; its answer to come.
    fn send(
        &self,
        request: impl FnOnce(oneshot::Sender<Result<(), JournalError>>) -> queue::Request,
    ) -> Result<Committed, JournalError> {
        let (ack, done) = oneshot::channel();
        self.writer.hand(request(ack))?;
        Ok(done)
    }

    /// What a board needs to resume: its last seq, its open epoch and that epoch's inputs.
    pub fn recover(&self, board: &str) -> Result<Recovered, JournalError> {
        self.recovery_reader()?.recover(board)
    }

    /// A read connection to recover many boards with, one after the other (one per recovery thread).
    pub fn recovery_reader(&self) -> Result<RecoveryReader, JournalError> {
        let conn = self.reader()?;
        // Recovery reads each open game's inputs once, scattered over the whole file: mapped,
        // they are not copied page by page through read(2) into a cache that never hits.
        let _mapped: i64 = conn.query_row(
            &format!("PRAGMA mmap_size = {RECOVERY_MMAP_BYTES}"),
            [],
            |row| row.get(0),
        )?;
        Ok(RecoveryReader(conn))
    }

    /// Removes the inputs and events of the finished games whose `retention` has passed at
    /// `now_ms` and whose board has started another game; their SGF, summary and final state
    /// (`games`) are kept. Blocking: call from a blocking task.
    pub fn compact(
        &self,
        retention: crate::config::Retention,
        now_ms: u64,
    ) -> Result<Compacted, JournalError> {
        let mut conn = self.reader()?;
        compact::compact(&mut conn, retention, now_ms)
    }

    /// The read side for publishers (SSE resume, finished games).
    pub fn archive(&self) -> Result<SqliteArchive, JournalError> {
        Ok(SqliteArchive::new(self.reader()?, self.status()))
    }

    /// Flush, then stop the writer thread once every handle is dropped.
    pub async fn close(self) -> Result<(), JournalError> {
        self.flush().await?;
        let handle = self.thread.lock().unwrap_or_else(|e| e.into_inner()).take();
        drop(self.writer);
        if let Some(handle) = handle {
            // Other clones may still hold the writer; the thread then ends with the process.
            if handle.is_finished() {
                let _ = handle.join();
            }
        }
        Ok(())
    }

    fn reader(&self) -> Result<rusqlite::Connection, JournalError> {
        // Readers never write; NORMAL is enough for them.
        schema::open(&self.path, Synchronous::Normal)
    }
}

/// How much of the journal file a recovery reader maps (SQLite caps it at its own limit).
const RECOVERY_MMAP_BYTES: u64 = 1 << 31;

/// One read connection that rebuilds boards: opened once, not once per board. Blocking.
pub struct RecoveryReader(rusqlite::Connection);

impl RecoveryReader {
    /// What a board needs to resume: its last seq, its open epoch, that epoch's latest
    /// checkpoint and the inputs after it.
    pub fn recover(&self, board: &str) -> Result<Recovered, JournalError> {
        recover::recover(&self.0, board, recover::From::Checkpoint)
    }

    /// As [`RecoveryReader::recover`], ignoring the checkpoint: every input of the open epoch
    /// (when its checkpoint was refused).
    pub fn recover_in_full(&self, board: &str) -> Result<Recovered, JournalError> {
        recover::recover(&self.0, board, recover::From::Start)
    }
}

#[cfg(test)]
mod checkpoint_tests;
#[cfg(test)]
mod compaction_tests;
#[cfg(test)]
mod lazy_tests;
#[cfg(test)]
mod leading_tests;
#[cfg(test)]
mod tests;
