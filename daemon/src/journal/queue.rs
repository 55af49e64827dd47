//! The requests handed to the journal and not yet taken by a commit, in the order they came, and when they are due.

use std::time::{Duration, Instant};

use tokio::sync::oneshot;

use super::JournalError;
use super::batch::Batch;

/// A request to the writer.
pub(crate) enum Request {
    /// Write this batch; answer once it is committed.
    Write(Box<Batch>, oneshot::Sender<Result<(), JournalError>>),
    /// Write this batch when another commit takes it along, within the lazy window.
    WriteLazily(Box<Batch>, oneshot::Sender<Result<(), JournalError>>),
    /// Write this batch at once, behind its board's batch handed over with `WriteLazily`;
    /// refused unwritten if that one was refused in an earlier commit.
    WriteAfter(Box<Batch>, oneshot::Sender<Result<(), JournalError>>),
    /// Answer once everything sent before is committed (held batches included, at once).
    Flush(oneshot::Sender<Result<(), JournalError>>),
}

impl Request {
    /// A batch nobody waits for, held until another commit takes it along.
    pub(super) fn may_wait(&self) -> bool {
        matches!(self, Self::WriteLazily(..))
    }

    pub(super) fn batch(&self) -> Option<&Batch> {
        match self {
            Self::Write(batch, _) | Self::WriteLazily(batch, _) | Self::WriteAfter(batch, _) => {
                Some(batch)
            }
            Self::Flush(_) => None,
        }
    }

    pub(super) fn into_ack(self) -> oneshot::Sender<Result<(), JournalError>> {
        match self {
            Self::Write(_, ack)
            | Self::WriteLazily(_, ack)
            | Self::WriteAfter(_, ack)
            | Self::Flush(ack) => ack,
        }
    }
}

/// Most requests a commit takes once the queue holds this many, due or not.
pub(super) const MAX_REQUESTS: usize = 256;

/// What waits for a commit.
pub(super) struct Queue {
    requests: Vec<Request>,
    /// A request that must be committed at once is among them.
    urgent: bool,
    /// When the oldest batch that may wait must be committed even without company.
    held_until: Option<Instant>,
    /// Whether a handle on the journal is left; once none is, what waits is committed and the
    /// writer stops.
    open: bool,
}

impl Queue {
    pub(super) fn new() -> Self {
        Self {
            requests: Vec::new(),
            urgent: false,
            held_until: None,
            open: true,
        }
    }

    /// Adds `request` behind the others; a batch that may wait is held for up to `lazy`.
    /// Whether the writer must hear of it: it made something due or set a new deadline.
    pub(super) fn push(&mut self, request: Request, lazy: Duration, now: Instant) -> bool {
        let news = if request.may_wait() {
            let first = self.held_until.is_none();
            self.held_until.get_or_insert(now + lazy);
            first
        } else {
            let first = !self.urgent;
            self.urgent = true;
            first
        };
        self.requests.push(request);
        news || self.requests.len() == MAX_REQUESTS
    }

    /// Whether what waits must be committed now.
    pub(super) fn is_due(&self, now: Instant) -> bool {
        !self.requests.is_empty()
            && (self.urgent
                || !self.open
                || self.requests.len() >= MAX_REQUESTS
                || self.held_until.is_some_and(|at| now >= at))
    }

    /// Holds a request that must be committed at once.
    pub(super) fn is_urgent(&self) -> bool {
        self.urgent
    }

    /// How long until what waits is due; `None` when nothing waits.
    pub(super) fn due_in(&self, now: Instant) -> Option<Duration> {
        self.held_until.map(|at| at.saturating_duration_since(now))
    }

    /// Everything that waits, in order.
    pub(super) fn take(&mut self) -> Vec<Request> {
        self.urgent = false;
        self.held_until = None;
        std::mem::take(&mut self.requests)
    }

    pub(super) fn len(&self) -> usize {
        self.requests.len()
    }

    pub(super) fn is_open(&self) -> bool {
        self.open
    }

    /// No handle is left: what waits is due, and nothing more is taken.
    pub(super) fn close(&mut self) {
        self.open = false;
    }
}
