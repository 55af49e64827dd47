//! The journal's writer: gathers batches from every board into one transaction (group commit), then acknowledges them.
//!
//! A batch that may wait (a clock reading, a device report: nothing a
//! viewer is waiting for) is held for up to the lazy window until another
//! commit takes it along; every other request commits at once, with every
//! held batch before it. Requests are committed in the order they arrived.
//! A batch sent to follow its board's batch that may wait is refused,
//! unwritten, when that one was refused in an earlier commit ([`Refusals`]).
//!
//! A request that must be committed at once (a move, a flush) is committed
//! on the caller's thread when the connection is free ([`Writer::hand`]),
//! taking along everything queued before it: a move then waits for no other
//! thread to wake, neither to take the batch nor to hand back the answer.
//! When the connection is busy (another board's commit, a WAL fold) the
//! request is queued, and whoever holds the connection next takes it. The
//! writer thread ([`Writer::run`]) commits what is due that nobody takes
//! (held batches whose window ended, requests that found the connection
//! busy) and finishes the WAL folds, which wait for the disk and never run
//! on a board's thread.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError, TryLockError};
use std::time::{Duration, Instant};

use rusqlite::{Connection, Transaction, TransactionBehavior, params};
use tokio::sync::watch;

use super::batch::{Batch, CheckpointRecord};
use super::packing::{self, Packer};
use super::queue::{MAX_REQUESTS, Queue, Request};
use super::refusals::Refusals;
use super::wal_folding::{FoldSignal, finish_fold};
use super::{JournalError, JournalStatus};

/// How often the writer thread looks for a WAL fold to finish when nothing else wakes it.
const FOLD_LOOK_EVERY: Duration = Duration::from_millis(50);

/// How long requests wait for company.
pub(crate) struct Windows {
    /// The first request of a commit.
    pub(crate) commit: Duration,
    /// A batch that may wait, for a commit to go along with.
    pub(crate) lazy: Duration,
}

/// The journal's write side, shared by every handle, the boards that commit on their own
/// thread and the writer thread.
pub(crate) struct Writer {
    queue: Mutex<Queue>,
    /// Rung when the queue has news for the writer thread (something due, a new deadline, the end).
    news: Condvar,
    /// The connection and what goes with it; held for a commit or a fold.
    core: Mutex<Core>,
    windows: Windows,
    /// Whether a board may commit on its own thread: not when commits wait for company (a
    /// commit window) or for the disk (`synchronous = "full"`, an `fsync` each).
    boards_commit: bool,
    status: watch::Sender<JournalStatus>,
    /// Transactions committed or tried.
    commits: AtomicU64,
    folded: FoldSignal,
}

/// What only the holder of the connection touches.
struct Core {
    conn: Connection,
    packer: Packer,
    refusals: Refusals,
}

impl Writer {
    /// `waits_for_disk`: every commit `fsync`s (`synchronous = "full"`), so none runs on a
    /// board's thread.
    pub(crate) fn new(
        conn: Connection,
        windows: Windows,
        waits_for_disk: bool,
        status: watch::Sender<JournalStatus>,
        folded: FoldSignal,
    ) -> Self {
        Self {
            queue: Mutex::new(Queue::new()),
            news: Condvar::new(),
            core: Mutex::new(Core {
                conn,
                packer: Packer::new(),
                refusals: Refusals::default(),
            }),
            boards_commit: windows.commit.is_zero() && !waits_for_disk,
            windows,
            status,
            commits: AtomicU64::new(0),
            folded,
        }
    }

    /// Transactions committed or tried so far.
    #[cfg(test)]
    pub(crate) fn commits(&self) -> u64 {
        self.commits.load(Ordering::Relaxed)
    }

    /// Queues `request` for the writer thread (or the next board to commit); refused once no
    /// handle is left.
    fn submit(&self, request: Request) -> Result<(), JournalError> {
        let mut queue = self.lock_queue();
        if !queue.is_open() {
            return Err(JournalError::Closed);
        }
        if queue.push(request, self.windows.lazy, Instant::now()) {
            self.news.notify_one();
        }
        Ok(())
    }

    /// Takes `request`: one that must be committed at once is committed, with everything
    /// queued before it, on the caller's thread when the connection is free; any other, or one
    /// that finds the connection busy (or commits that wait for company or the disk), is queued.
    pub(crate) fn hand(&self, request: Request) -> Result<(), JournalError> {
        if request.may_wait() || !self.boards_commit {
            return self.submit(request);
        }
        let mut core = match self.core.try_lock() {
            Ok(core) => core,
            Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
            Err(TryLockError::WouldBlock) => return self.submit(request),
        };
        let pending = {
            let mut queue = self.lock_queue();
            if !queue.is_open() {
                return Err(JournalError::Closed);
            }
            queue.push(request, self.windows.lazy, Instant::now());
            queue.take()
        };
        self.commit_now(&mut core, pending);
        let more = self.lock_queue().is_due(Instant::now()) || self.folded.is_raised();
        drop(core);
        if more {
            self.news.notify_one();
        }
        Ok(())
    }

    /// No handle is left: the writer thread commits what waits and stops.
    pub(crate) fn close(&self) {
        self.lock_queue().close();
        self.news.notify_one();
    }

    /// The writer thread: commits what is due that no board took, finishes WAL folds, and
    /// stops once closed with nothing left.
    pub(crate) fn run(&self) {
        loop {
            let closing = self.wait_for_work();
            let mut core = self.core.lock().unwrap_or_else(PoisonError::into_inner);
            let pending = {
                let mut queue = self.lock_queue();
                // A board may have taken what was due meanwhile.
                if queue.is_due(Instant::now()) {
                    queue.take()
                } else {
                    Vec::new()
                }
            };
            self.commit_now(&mut core, pending);
            finish_fold(&core.conn, &self.folded);
            drop(core);
            if closing && self.lock_queue().len() == 0 {
                break;
            }
        }
        tracing::debug!("journal writer stopped");
    }

    /// Waits until something is due, a fold is to be finished or the journal closes (then
    /// `true`); with a commit window, lets an urgent request wait that long for company.
    fn wait_for_work(&self) -> bool {
        let mut queue = self.lock_queue();
        loop {
            let now = Instant::now();
            if !queue.is_open() {
                return true;
            }
            if queue.is_due(now) || self.folded.is_raised() {
                break;
            }
            let wait = queue
                .due_in(now)
                .map_or(FOLD_LOOK_EVERY, |due| due.min(FOLD_LOOK_EVERY));
            queue = self
                .news
                .wait_timeout(queue, wait)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        if queue.is_urgent() && !self.windows.commit.is_zero() {
            let deadline = Instant::now() + self.windows.commit;
            while queue.len() < MAX_REQUESTS && queue.is_open() {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    break;
                }
                queue = self
                    .news
                    .wait_timeout(queue, left)
                    .unwrap_or_else(PoisonError::into_inner)
                    .0;
            }
        }
        !queue.is_open()
    }

    fn lock_queue(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Commits `pending` on the connection held in `core`, once its turned-away followers are
    /// answered.
    fn commit_now(&self, core: &mut Core, mut pending: Vec<Request>) {
        turn_away_followers_of_refused(&mut pending, &core.refusals);
        if pending.is_empty() {
            return;
        }
        // Only a commit that wrote something says whether the disk takes writes.
        let writes = pending.iter().any(|request| request.batch().is_some());
        let (batches, rows) = pending
            .iter()
            .filter_map(Request::batch)
            .fold((0, 0), |(b, r), batch| {
                (b + 1, r + batch.inputs.len() + batch.events.len())
            });
        // Counted before the answers go out: whoever is answered sees its commit counted.
        self.commits.fetch_add(1, Ordering::Relaxed);
        let started = Instant::now();
        let Core {
            conn,
            packer,
            refusals,
        } = core;
        let committed = commit(
            conn,
            packer,
            pending,
            writes.then_some(&self.status),
            refusals,
        );
        crate::telemetry::journal_commit(started.elapsed(), batches, rows, committed);
    }
}

/// Answers, unwritten, each batch that follows its board's batch refused in an earlier commit.
fn turn_away_followers_of_refused(pending: &mut Vec<Request>, refusals: &Refusals) {
    let refused = |request: &Request| match request {
        Request::WriteAfter(batch, _) => refusals.of(&batch.board).cloned(),
        _ => None,
    };
    if !pending.iter().any(|request| refused(request).is_some()) {
        return;
    }
    for request in std::mem::take(pending) {
        match refused(&request) {
            Some(err) => {
                let _ = request.into_ack().send(Err(err));
            }
            None => pending.push(request),
        }
    }
}

/// Logs the change between accepting and refusing once each way, never once per failed commit.
fn report(status: &watch::Sender<JournalStatus>, failure: Option<JournalError>) {
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
    status.send_if_modified(|current| match (&*current, failure) {
        (JournalStatus::Accepting, None) => false,
        (JournalStatus::Accepting, Some(err)) => {
            tracing::error!(
                cause = %err,
                "the journal refuses writes (disk full or read-only?): new messages wait unpublished, \
                 the daemon keeps serving what it has and retries every second"
            );
            *current = JournalStatus::Refusing {
                since_ms: now_ms,
                cause: err.to_string(),
            };
            true
        }
        (JournalStatus::Refusing { .. }, Some(err)) => {
            tracing::debug!(cause = %err, "the journal still refuses writes");
            false
        }
        (JournalStatus::Refusing { since_ms, .. }, None) => {
            tracing::warn!(
                refused_for_ms = now_ms.saturating_sub(*since_ms),
                "the journal accepts writes again; the messages that waited are published"
            );
            *current = JournalStatus::Accepting;
            true
        }
    });
}

/// Commits `pending` as one transaction; `status`, when it wrote something, is updated before
/// anyone is answered, so whoever hears of a refused batch finds the journal `refusing`.
/// Whether the transaction committed.
fn commit(
    conn: &mut Connection,
    packer: &mut Packer,
    pending: Vec<Request>,
    status: Option<&watch::Sender<JournalStatus>>,
    refusals: &mut Refusals,
) -> bool {
    let outcome = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(JournalError::from)
        .and_then(|tx| {
            for batch in pending.iter().filter_map(Request::batch) {
                write_batch(&tx, packer, batch)?;
            }
            tx.commit().map_err(JournalError::from)
        });
    if let Err(err) = &outcome {
        tracing::debug!(cause = %err, batches = pending.len(), "journal commit failed; nothing of it is published");
    }
    if let Some(status) = status {
        report(status, outcome.clone().err());
    }
    let boards = pending.iter().filter_map(Request::batch);
    refusals.record(boards.map(|batch| batch.board.as_str()), &outcome);
    let committed = outcome.is_ok();
    for request in pending {
        // A board that stopped waiting is not the journal's problem.
        let _ = request.into_ack().send(outcome.clone());
    }
    committed
}

fn write_batch(
    tx: &Transaction<'_>,
    packer: &mut Packer,
    batch: &Batch,
) -> Result<(), JournalError> {
    let board = batch.board.as_str();
    let epoch = i64::try_from(batch.epoch).unwrap_or(i64::MAX);
    if batch.open_epoch {
        let opened = batch.inputs.first().map_or(0, |input| input.at_ms);
        tx.execute(
            "INSERT OR IGNORE INTO epochs (board, epoch, opened_ms) VALUES (?1, ?2, ?3)",
            params![board, epoch, to_sql(opened)],
        )?;
    }
    let mut insert_input = tx.prepare_cached(
        "INSERT INTO inputs (board, epoch, at_ms, input) VALUES (?1, ?2, ?3, ?4)",
    )?;
    for input in &batch.inputs {
        insert_input.execute(params![board, epoch, to_sql(input.at_ms), input.json])?;
    }
    if let Some(checkpoint) = &batch.checkpoint
        && !batch.inputs.is_empty()
    {
        // The id of the batch's last input, just inserted on this connection.
        write_checkpoint(tx, packer, board, epoch, tx.last_insert_rowid(), checkpoint)?;
    }
    let mut insert_event = tx.prepare_cached(
        "INSERT INTO events (board, seq, topic, at_ms, payload, packing) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    for event in &batch.events {
        let (seq, topic, at) = (to_sql(event.seq), event.topic.name(), to_sql(event.at_ms));
        let json = event.payload.as_str();
        // The published bytes, packed; stored as text only if the compressor refused.
        match packer.pack(json.as_bytes()) {
            Some(packed) => {
                insert_event.execute(params![board, seq, topic, at, packed, Packer::PACKING])?
            }
            None => insert_event.execute(params![board, seq, topic, at, json, packing::PLAIN])?,
        };
    }
    if let Some(game) = &batch.game {
        // Retention compacts only epochs that archived a game (an abandoned one keeps its rows).
        tx.execute(
            "UPDATE epochs SET game = ?3 WHERE board = ?1 AND epoch = ?2",
            params![board, epoch, game.id],
        )?;
        tx.execute(
            "INSERT OR REPLACE INTO games (id, board, finished_ms, summary, state, sgf) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                game.id,
                board,
                to_sql(game.finished_ms),
                game.summary.as_str(),
                game.state.as_str(),
                game.sgf
            ],
        )?;
    }
    if batch.close_epoch {
        let closed = batch.events.last().map_or(0, |event| event.at_ms);
        // The epoch's last seq bounds its events for compaction; a batch without events leaves the board's highest.
        let last_seq = match batch.events.last() {
            Some(event) => Some(to_sql(event.seq)),
            None => tx.query_row(
                "SELECT MAX(seq) FROM events WHERE board = ?1",
                [board],
                |row| row.get::<_, Option<i64>>(0),
            )?,
        };
        tx.execute(
            "UPDATE epochs SET closed_ms = ?3, last_seq = ?4 WHERE board = ?1 AND epoch = ?2",
            params![board, epoch, to_sql(closed).max(1), last_seq],
        )?;
        // A closed epoch is never replayed again.
        tx.prepare_cached("DELETE FROM checkpoints WHERE board = ?1 AND epoch = ?2")?
            .execute(params![board, epoch])?;
    }
    Ok(())
}

/// Replaces the epoch's checkpoint: only the latest is ever read, so the table holds one row
/// per open game and a checkpoint costs its own bytes, never a history.
fn write_checkpoint(
    tx: &Transaction<'_>,
    packer: &mut Packer,
    board: &str,
    epoch: i64,
    input_id: i64,
    checkpoint: &CheckpointRecord,
) -> Result<(), JournalError> {
    let mut replace = tx.prepare_cached(
        "INSERT OR REPLACE INTO checkpoints (board, epoch, input_id, at_ms, format, packing, state) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    let at = to_sql(checkpoint.at_ms);
    let format = i64::from(checkpoint.format);
    match packer.pack(&checkpoint.state) {
        Some(packed) => replace.execute(params![
            board,
            epoch,
            input_id,
            at,
            format,
            Packer::PACKING,
            packed
        ])?,
        None => replace.execute(params![
            board,
            epoch,
            input_id,
            at,
            format,
            packing::PLAIN,
            &checkpoint.state[..]
        ])?,
    };
    Ok(())
}

/// SQLite integers are i64; our times and seqs stay far below 2^63.
pub(crate) fn to_sql(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}
