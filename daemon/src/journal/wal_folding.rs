//! Folds the write-ahead log back into the journal file on a thread of its own, off the commit path.
//!
//! SQLite's default is for the connection that commits to fold the WAL into
//! the database file (a checkpoint) once the WAL passes 1,000 pages, inside
//! that commit: with `synchronous=NORMAL` this is the only commit that waits
//! for the disk (two `fsync`s), and a move published by that commit waits
//! with it. The writer's connection therefore never checkpoints on its own
//! (`wal_autocheckpoint=0`), and this thread runs a PASSIVE checkpoint,
//! which never blocks the writer, every [`FOLD_EVERY`].
//!
//! A PASSIVE checkpoint folds the frames that were in the WAL when it
//! started; a hall commits hundreds of times a second, so by the time it
//! ends there are always newer frames, and SQLite starts the WAL over from
//! its beginning only when every frame is folded. Left at that, the WAL
//! never started over: it grew by every byte ever committed (9 MB a second
//! at 512 boards), each write landing on new blocks of the file. So the
//! writer finishes each fold between two of its commits ([`finish_fold`]):
//! it folds the few frames committed while this thread was folding, which
//! nothing can add to while it does, and its next commit starts the WAL over.
//! The WAL file then stays the size of about one interval of writes.
//!
//! What the writer folds is what was committed while this thread's last
//! pass ran, and a pass over ten seconds of frames is slow: it first pushes
//! them to the disk (SQLite syncs the WAL before folding it). Measured at 512
//! boards, one pass left the writer 6 to 24 ms of folding, during which no
//! move was published. So this thread folds again and again
//! ([`fold_until_few_left`]), each pass taking what came during the one
//! before, until a pass finds fewer than [`FEW_FRAMES`] new frames; only then
//! is the writer told to finish.
//!
//! The thread keeps the usual priority. At `SCHED_IDLE` the hall's journal
//! tail was smaller, but beside a writer that never paused its passes got no
//! processor time while in progress, and the WAL seldom started over: under
//! a full load the disk would fill.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

use rusqlite::Connection;

/// How often the WAL is folded into the database file.
pub(crate) const FOLD_EVERY: Duration = Duration::from_secs(10);

/// A fold is handed to the writer once one pass of this thread folds fewer new frames than
/// this (256 pages, 1 MB: about a tenth of a second of a 512-board hall's commits).
const FEW_FRAMES: i64 = 256;

/// Most passes of one fold: a writer committing faster than a pass folds never leaves few
/// frames, and the fold is then handed over as it is.
const MOST_PASSES: usize = 8;

/// Raised by the folding thread after each fold; taken by the writer, which then finishes it.
#[derive(Clone, Debug, Default)]
pub(crate) struct FoldSignal(Arc<AtomicBool>);

impl FoldSignal {
    fn raise(&self) {
        self.0.store(true, Ordering::Release);
    }

    /// Whether a fold ended that the writer has not finished yet.
    pub(crate) fn is_raised(&self) -> bool {
        self.0.load(Ordering::Acquire)
    }

    /// Whether a fold ended since the last call.
    fn take(&self) -> bool {
        self.0.swap(false, Ordering::AcqRel)
    }
}

/// The writer's part of a fold, called on the writer's connection between two commits: when
/// the folding thread has folded since the last call, folds what was committed meanwhile.
/// Nothing is committed while it runs, so it folds every frame (unless a reader still needs
/// one), and the next commit starts the WAL over. Its cost is two `fsync`s once an interval.
pub(crate) fn finish_fold(conn: &Connection, signal: &FoldSignal) {
    if !signal.take() {
        return;
    }
    let started = std::time::Instant::now();
    match fold(conn) {
        Ok((frames, folded)) => {
            tracing::debug!(
                frames,
                folded,
                took_us = started.elapsed().as_micros(),
                "WAL fold finished"
            );
        }
        // A full disk or a read-only file: the writer reports it; the next fold tries again.
        Err(err) => tracing::debug!(cause = %err, "the writer could not finish the WAL fold"),
    }
}

/// Stops the folding thread when dropped (with the last handle on the journal).
pub(crate) struct WalFolding {
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl WalFolding {
    /// Start folding the WAL of the journal at `path` every `every` ([`FOLD_EVERY`]), raising
    /// `signal` after each fold.
    pub(crate) fn start(path: &Path, every: Duration, signal: FoldSignal) -> std::io::Result<Self> {
        let (stop, stopped) = std::sync::mpsc::channel();
        let path = path.to_path_buf();
        let thread = std::thread::Builder::new()
            .name("journal-wal".into())
            .spawn(move || run(&path, every, &stopped, &signal))?;
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

fn run(path: &PathBuf, every: Duration, stopped: &Receiver<()>, signal: &FoldSignal) {
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
        match fold_until_few_left(open, FEW_FRAMES) {
            Ok(passes) => {
                tracing::debug!(
                    passes = passes.passes,
                    frames = passes.frames,
                    last_pass_folded = passes.last_pass_folded,
                    took_us = passes.took.as_micros(),
                    "WAL folded by its thread"
                );
                signal.raise();
                let wal = std::fs::metadata(wal_path(path)).map_or(0, |m| m.len());
                crate::telemetry::journal_wal(wal);
            }
            Err(err) => {
                // A full disk or a read-only file: the writer reports it; the WAL is folded later.
                tracing::debug!(cause = %err, "the journal's WAL was not folded");
                conn = None;
            }
        }
    }
    // The last connection to close folds what is left (SQLite's own rule).
}

/// The WAL file of the journal at `path` (SQLite's name: the path with `-wal` appended).
fn wal_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push("-wal");
    PathBuf::from(name)
}

/// What [`fold_until_few_left`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Passes {
    /// How many PASSIVE checkpoints it ran.
    pub(crate) passes: usize,
    /// The frames in the WAL at its last pass.
    pub(crate) frames: i64,
    /// The frames its last pass folded that the pass before had not.
    pub(crate) last_pass_folded: i64,
    /// How long all the passes took.
    pub(crate) took: Duration,
}

/// Folds until a pass folds fewer than `few` new frames (or [`MOST_PASSES`] passes ran), so
/// that what is left for the writer is only what was committed during one short pass.
pub(crate) fn fold_until_few_left(conn: &Connection, few: i64) -> rusqlite::Result<Passes> {
    let started = std::time::Instant::now();
    let mut passes = Passes {
        passes: 0,
        frames: 0,
        last_pass_folded: 0,
        took: Duration::ZERO,
    };
    let mut folded_before = 0;
    while passes.passes < MOST_PASSES {
        let (frames, folded) = fold(conn)?;
        passes.passes += 1;
        passes.frames = frames;
        // Fewer folded than before: the writer started the WAL over since, so it is all new.
        passes.last_pass_folded = if folded >= folded_before {
            folded - folded_before
        } else {
            folded
        };
        folded_before = folded;
        if passes.passes > 1 && passes.last_pass_folded < few {
            break;
        }
    }
    passes.took = started.elapsed();
    Ok(passes)
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

    /// A new journal file in a temporary directory (kept while the first is alive), its path,
    /// and a writer's connection to it ([`wal_writer`]).
    fn new_journal() -> (tempfile::TempDir, PathBuf, Connection) {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("j.sqlite");
        let writer = wal_writer(&path);
        (dir, path, writer)
    }

    /// A writer's connection as the journal opens it: WAL, `synchronous=NORMAL`, never folding.
    fn wal_writer(path: &Path) -> Connection {
        let writer = Connection::open(path).expect("open");
        let _mode: String = writer
            .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
            .expect("wal");
        writer
            .execute_batch(
                "PRAGMA synchronous=NORMAL; PRAGMA wal_autocheckpoint=0; CREATE TABLE t(x BLOB);",
            )
            .expect("schema");
        writer
    }

    /// Commits `n` transactions of one 4 KB page each.
    fn commit_pages(writer: &Connection, n: usize) {
        for _ in 0..n {
            writer
                .execute("INSERT INTO t VALUES (zeroblob(4000))", [])
                .expect("insert");
        }
    }

    #[test]
    fn the_wal_is_folded_by_the_thread_and_not_by_the_writer() {
        let (_dir, path, writer) = new_journal();
        // About 1,200 pages: past SQLite's default threshold of 1,000, which would have folded.
        commit_pages(&writer, 1_200);
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
        let folding = WalFolding::start(&path, every, FoldSignal::default()).expect("start");
        // Waits for the fold, with a deadline a loaded machine cannot reach by being slow.
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        let file_pages = || std::fs::metadata(&path).expect("meta").len() / 4096;
        while file_pages() < 1_200 && std::time::Instant::now() < deadline {
            std::thread::sleep(every);
        }
        drop(folding);
        let file_pages = file_pages();
        assert!(
            file_pages >= 1_200,
            "the thread did not fold the WAL: {file_pages} pages in the file"
        );
        let (frames, folded) = wal_pages(&reader);
        assert_eq!(frames, folded, "frames left unfolded");
    }

    #[test]
    fn the_thread_folds_again_until_a_pass_finds_few_new_frames() {
        let (_dir, path, writer) = new_journal();
        // An interval's backlog: a thousand pages waiting to be folded.
        commit_pages(&writer, 1_000);
        // A hall that keeps committing, a page every 200 µs, while the thread folds.
        let stop = Arc::new(AtomicBool::new(false));
        let committing = {
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                while !stop.load(Ordering::Acquire) {
                    commit_pages(&writer, 1);
                    std::thread::sleep(Duration::from_micros(200));
                }
            })
        };
        let few = 32;
        let folder = Connection::open(&path).expect("folder");
        let passes = fold_until_few_left(&folder, few).expect("fold");
        stop.store(true, Ordering::Release);
        committing.join().expect("writer");
        assert!(passes.passes >= 2, "one pass only: {passes:?}");
        assert!(
            passes.last_pass_folded < few || passes.passes == MOST_PASSES,
            "stopped while its last pass still found many new frames: {passes:?}"
        );
        assert!(
            passes.frames >= 1_000,
            "the backlog was not in the WAL: {passes:?}"
        );
    }

    /// The WAL header's checkpoint sequence number and first salt (bytes 12 to 20): SQLite
    /// changes both each time a writer starts the WAL over from its beginning, and never else.
    fn wal_generation(wal: &Path) -> Option<[u8; 8]> {
        use std::io::Read;
        let mut header = [0_u8; 20];
        std::fs::File::open(wal)
            .ok()?
            .read_exact(&mut header)
            .ok()?;
        header[12..].try_into().ok()
    }

    #[test]
    fn the_writer_finishing_a_fold_makes_its_next_commit_start_the_wal_over() {
        let (_dir, path, writer) = new_journal();
        let wal = wal_path(&path);
        commit_pages(&writer, 10);
        // A fold that cannot take every frame, as when commits keep coming while it runs: a
        // reader's snapshot holds the frames committed after it out of this fold.
        let reader = Connection::open(&path).expect("reader");
        reader
            .execute_batch("BEGIN; SELECT COUNT(*) FROM t;")
            .expect("snapshot");
        commit_pages(&writer, 10);
        let (frames, folded) = fold(&Connection::open(&path).expect("folder")).expect("fold");
        assert!(
            folded < frames,
            "the fold took every frame: {folded} of {frames}"
        );
        reader.execute_batch("COMMIT").expect("end snapshot");
        let before = wal_generation(&wal);
        commit_pages(&writer, 1);
        assert_eq!(
            wal_generation(&wal),
            before,
            "the WAL started over with frames left unfolded"
        );
        // The folding thread's signal: the writer folds the rest between two commits.
        let signal = FoldSignal::default();
        signal.raise();
        finish_fold(&writer, &signal);
        assert!(!signal.is_raised(), "the fold was not taken");
        commit_pages(&writer, 1);
        assert_ne!(
            wal_generation(&wal),
            before,
            "the commit after the writer's fold did not start the WAL over"
        );
    }

    #[test]
    fn a_writer_that_commits_all_the_time_still_sees_the_wal_start_over() {
        let (_dir, path, writer) = new_journal();
        let wal = wal_path(&path);
        let signal = FoldSignal::default();
        let folding =
            WalFolding::start(&path, Duration::from_millis(20), signal.clone()).expect("start");
        // Commits back to back, as a busy hall does, until the WAL has started over a few times.
        // A WAL that never starts over keeps its first header and grows by every commit: the
        // deadline (generous, so a loaded machine that keeps the folding thread from its
        // processor for a while still passes) is only reached then.
        const STARTS_OVER: usize = 3;
        let deadline = std::time::Instant::now() + Duration::from_secs(120);
        let (mut commits, mut started_over) = (0_u64, 0_usize);
        commit_pages(&writer, 1);
        let mut generation = wal_generation(&wal);
        while started_over < STARTS_OVER && std::time::Instant::now() < deadline {
            commit_pages(&writer, 1);
            commits += 1;
            finish_fold(&writer, &signal);
            let now = wal_generation(&wal);
            started_over += usize::from(now != generation);
            generation = now;
        }
        drop(folding);
        let wal_bytes = std::fs::metadata(&wal).map_or(0, |m| m.len());
        assert!(
            started_over >= STARTS_OVER,
            "the WAL started over {started_over} times in {commits} commits; it holds {wal_bytes} \
             bytes"
        );
    }
}
