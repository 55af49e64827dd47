//! The broadcast delay (anti-cheating): one time-ordered buffer that releases published messages to the public late.
//!
//! The view subscribes to the hub at start. Every message is held for the delay,
//! then released: the public board view becomes the last released `state`
//! and released messages fan out on the view's own bus, which public SSE
//! streams, the hall stream and the MQTT publisher follow, so every channel
//! shows a move at the same instant. Arbiters bypass all of this and read the hub directly.
//!
//! What was journaled before the view started is public at once (a restarted
//! daemon shows its recovered boards immediately); a board registered later is
//! shown once its first snapshot is as old as the delay.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::Notify;
use tokio::sync::broadcast::{self, error::RecvError};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::followers::BoardFollowers;
use super::hub::Hub;
use crate::message::{BoardView, Payload, Published, Topic};

/// How many released messages a slow public SSE client may fall behind before it re-reads the journal.
const BUS_CAPACITY: usize = 1024;
/// Page size when catching up from the journal after the view lagged.
const CATCH_UP_PAGE: usize = 500;
/// Analyses held per board until their position is public; older ones go first when full.
const BESIDE_CAPACITY: usize = 256;

enum Held {
    /// The state of a board the view first saw after it started.
    Snapshot(Arc<BoardView>),
    /// A published message.
    Message(Published),
}

struct Pending {
    due: Instant,
    board: Arc<str>,
    held: Held,
}

#[derive(Default)]
struct Buffer {
    /// Public view per board.
    states: HashMap<Arc<str>, Arc<BoardView>>,
    /// Public device message per board.
    devices: HashMap<Arc<str>, Payload>,
    /// Highest public seq per board, for boards the view has seen messages of.
    released_seq: HashMap<Arc<str>, u64>,
    /// Highest seq received per board, to drop duplicates after a catch-up.
    received_seq: HashMap<Arc<str>, u64>,
    /// Oldest first; `due` only grows because the delay is constant.
    pending: VecDeque<Pending>,
    /// Per board, messages about a position (analyses) waiting for that position's release.
    beside: HashMap<Arc<str>, VecDeque<Published>>,
}

impl Buffer {
    /// The highest seq of `board` the public sees: its public state's, or a later release.
    /// `None` while the board is not public at all.
    fn public_seq(&self, board: &str) -> Option<u64> {
        let state = self.states.get(board).map(|view| view.seq());
        let released = self.released_seq.get(board).copied();
        state.max(released)
    }
}

/// The delayed public view of every board; cheap to clone.
#[derive(Clone)]
pub struct DelayedView {
    buffer: Arc<Mutex<Buffer>>,
    bus: broadcast::Sender<Published>,
    /// The same released messages, per followed board.
    followers: Arc<BoardFollowers>,
    delay: Duration,
    hub: Hub,
    /// Wakes the task when a request, not the bus, added a held item.
    added: Arc<Notify>,
}

impl DelayedView {
    /// Snapshots the hub's boards as public and spawns the task feeding the buffer; needs a Tokio runtime.
    pub(crate) fn start(hub: Hub, delay: Duration, shutdown: CancellationToken) -> Self {
        let receiver = hub.subscribe();
        let mut buffer = Buffer::default();
        for board in hub.boards() {
            if let Some(view) = hub.view(&board) {
                buffer.states.insert(board.clone(), view);
            }
            if let Some(device) = hub.device(&board) {
                buffer.devices.insert(board, device);
            }
        }
        let (bus, _) = broadcast::channel(BUS_CAPACITY);
        let view = Self {
            buffer: Arc::new(Mutex::new(buffer)),
            bus,
            followers: Arc::default(),
            delay,
            hub,
            added: Arc::default(),
        };
        tokio::spawn(view.clone().run(receiver, shutdown));
        view
    }

    /// The public view of a board, if it is public yet.
    pub(crate) fn view(&self, board: &str) -> Option<Arc<BoardView>> {
        let mut buffer = self.lock();
        if let Some(state) = buffer.states.get(board) {
            return Some(state.clone());
        }
        self.discover(&mut buffer, board);
        None
    }

    /// The public device message of a board.
    pub(crate) fn device(&self, board: &str) -> Option<Payload> {
        self.lock().devices.get(board).cloned()
    }

    /// Released messages from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Published> {
        self.bus.subscribe()
    }

    /// Released messages of `board` from now on.
    pub fn subscribe_board(&self, board: &Arc<str>) -> broadcast::Receiver<Published> {
        self.followers.subscribe(board)
    }

    /// Highest seq of `board` the public may see; everything journaled before the view started counts.
    pub(crate) fn cutoff(&self, board: &str) -> u64 {
        self.lock()
            .released_seq
            .get(board)
            .copied()
            .unwrap_or(u64::MAX)
    }

    /// Highest seq of `board` released since the view started; `None` before its first.
    pub(crate) fn released(&self, board: &str) -> Option<u64> {
        self.lock().released_seq.get(board).copied()
    }

    /// Sends a message about a position (an analysis, `seq` the analysed state's) to the
    /// public the moment that state is released, never before: now if it already is, else
    /// held and sent by the release that lets it out. It is not journaled and changes no view.
    pub(crate) fn publish_beside(&self, message: Published) {
        let mut buffer = self.lock();
        if buffer
            .public_seq(&message.board)
            .is_some_and(|seq| seq >= message.seq)
        {
            // Under the lock, as `release` sends: the bus and `cutoff` agree.
            self.send_public(message);
            return;
        }
        let held = buffer.beside.entry(message.board.clone()).or_default();
        if held.len() >= BESIDE_CAPACITY {
            held.pop_front();
        }
        held.push_back(message);
    }

    fn send_public(&self, message: Published) {
        self.followers.send(&message);
        // No public subscriber is fine.
        let _ = self.bus.send(message);
    }

    /// Sends the held messages whose position the public now sees (under the lock, in order).
    fn release_beside(&self, buffer: &mut Buffer) {
        if buffer.beside.is_empty() {
            return;
        }
        let boards: Vec<Arc<str>> = buffer.beside.keys().cloned().collect();
        for board in boards {
            let Some(public) = buffer.public_seq(&board) else {
                continue;
            };
            let Some(held) = buffer.beside.get_mut(&board) else {
                continue;
            };
            while held.front().is_some_and(|m| m.seq <= public) {
                if let Some(message) = held.pop_front() {
                    self.send_public(message);
                }
            }
            if held.is_empty() {
                buffer.beside.remove(&board);
            }
        }
    }

    /// Messages held back right now.
    #[cfg(test)]
    pub(crate) fn held(&self) -> usize {
        self.lock().pending.len()
    }

    fn lock(&self) -> MutexGuard<'_, Buffer> {
        // A poisoned lock means a panic mid-update elsewhere; the buffer stays usable.
        self.buffer.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// First sight of a board registered after start: its current state goes public after the delay.
    fn discover(&self, buffer: &mut Buffer, board: &str) {
        let already = buffer
            .pending
            .iter()
            .any(|p| *p.board == *board && matches!(p.held, Held::Snapshot(_)));
        if let (false, Some(state)) = (already, self.hub.view(board)) {
            let due = Instant::now() + self.delay;
            buffer.pending.push_back(Pending {
                due,
                board: Arc::from(board),
                held: Held::Snapshot(state),
            });
            self.added.notify_one();
        }
    }

    async fn run(self, mut receiver: broadcast::Receiver<Published>, shutdown: CancellationToken) {
        loop {
            let next_due = self.lock().pending.front().map(|p| p.due);
            let wake = next_due.unwrap_or_else(|| Instant::now() + Duration::from_secs(3600));
            tokio::select! {
                () = shutdown.cancelled() => break,
                () = self.added.notified() => {}
                () = tokio::time::sleep_until(wake) => self.release(Instant::now()),
                received = receiver.recv() => match received {
                    Ok(message) => self.admit(message),
                    Err(RecvError::Lagged(missed)) => self.catch_up(missed).await,
                    Err(RecvError::Closed) => break,
                },
            }
        }
    }

    fn admit(&self, message: Published) {
        let mut buffer = self.lock();
        let last = buffer.received_seq.get(&message.board).copied();
        if last.is_some_and(|last| message.seq <= last) {
            return;
        }
        if !buffer.states.contains_key(&message.board) {
            self.discover(&mut buffer, &message.board);
        }
        buffer
            .received_seq
            .insert(message.board.clone(), message.seq);
        // Everything before the first message seen live was journaled before the view started.
        buffer
            .released_seq
            .entry(message.board.clone())
            .or_insert(message.seq.saturating_sub(1));
        let due = Instant::now() + self.delay;
        buffer.pending.push_back(Pending {
            due,
            board: message.board.clone(),
            held: Held::Message(message),
        });
        metrics::gauge!("goban_http_delay_held_messages").set(buffer.pending.len() as f64);
    }

    /// Releases every held item that is due; under the lock, so `cutoff` and the bus agree.
    pub(crate) fn release(&self, now: Instant) {
        let mut buffer = self.lock();
        while buffer.pending.front().is_some_and(|p| p.due <= now) {
            let Some(Pending { board, held, .. }) = buffer.pending.pop_front() else {
                break;
            };
            match held {
                Held::Snapshot(state) => {
                    buffer.states.entry(board).or_insert(state);
                }
                Held::Message(message) => {
                    match (message.topic, &message.view) {
                        (_, Some(view)) => {
                            buffer.states.insert(board.clone(), view.clone());
                        }
                        (Topic::Device, _) => {
                            buffer
                                .devices
                                .insert(board.clone(), message.payload.clone());
                        }
                        _ => {}
                    }
                    let seq = buffer.released_seq.entry(board).or_default();
                    *seq = (*seq).max(message.seq);
                    self.send_public(message);
                }
            }
        }
        self.release_beside(&mut buffer);
        metrics::gauge!("goban_http_delay_held_messages").set(buffer.pending.len() as f64);
    }

    /// The hub's bus overran the view: re-read what was missed from the journal, per board seen.
    async fn catch_up(&self, missed: u64) {
        tracing::warn!(
            missed,
            "broadcast delay fell behind the hub; catching up from the journal"
        );
        let boards: Vec<(Arc<str>, u64)> = self
            .lock()
            .received_seq
            .iter()
            .map(|(b, s)| (b.clone(), *s))
            .collect();
        for (board, after) in boards {
            let archive = self.hub.archive().clone();
            let fetched = tokio::task::spawn_blocking(move || {
                archive.events_since(&board, after, CATCH_UP_PAGE)
            })
            .await;
            match fetched {
                Ok(Ok(messages)) => messages.into_iter().for_each(|m| self.admit(m)),
                Ok(Err(error)) => {
                    tracing::error!(cause = %error, "journal read failed during catch-up")
                }
                Err(error) => {
                    tracing::error!(cause = %error, "journal read task failed during catch-up")
                }
            }
        }
    }
}

/// Where a reader takes boards and events from: the hub (live) or the delayed view.
#[derive(Clone)]
pub enum Feed {
    /// Arbiters, or no delay configured.
    Live(Hub),
    /// The public when a delay is configured.
    Delayed(DelayedView),
}

impl Feed {
    /// What the public sees: the hub when `delay` is zero, else a delayed view started now (needs a Tokio runtime).
    pub fn public(hub: Hub, delay: Duration, shutdown: &CancellationToken) -> Self {
        if delay.is_zero() {
            Self::Live(hub)
        } else {
            Self::Delayed(DelayedView::start(hub, delay, shutdown.child_token()))
        }
    }

    /// The board as this feed shows it.
    pub(crate) fn view(&self, board: &str) -> Option<Arc<BoardView>> {
        match self {
            Self::Live(hub) => hub.view(board),
            Self::Delayed(view) => view.view(board),
        }
    }

    /// The last device message as this feed shows it.
    pub(crate) fn device(&self, board: &str) -> Option<Payload> {
        match self {
            Self::Live(hub) => hub.device(board),
            Self::Delayed(view) => view.device(board),
        }
    }

    /// The hub behind the feed.
    pub(crate) fn hub(&self) -> &Hub {
        match self {
            Self::Live(hub) => hub,
            Self::Delayed(view) => &view.hub,
        }
    }

    /// Messages from now on, as this feed releases them.
    pub fn subscribe(&self) -> broadcast::Receiver<Published> {
        match self {
            Self::Live(hub) => hub.subscribe(),
            Self::Delayed(view) => view.subscribe(),
        }
    }

    /// Messages of `board` from now on, as this feed releases them.
    pub fn subscribe_board(&self, board: &Arc<str>) -> broadcast::Receiver<Published> {
        match self {
            Self::Live(hub) => hub.subscribe_board(board),
            Self::Delayed(view) => view.subscribe_board(board),
        }
    }

    /// Highest seq of `board` this feed may show from the journal.
    pub(crate) fn cutoff(&self, board: &str) -> u64 {
        match self {
            Self::Live(_) => u64::MAX,
            Self::Delayed(view) => view.cutoff(board),
        }
    }

    /// Highest seq of `board` this feed has let out since it started (live: the hub's last
    /// published); `None` for a board it has released nothing of.
    pub(crate) fn released(&self, board: &str) -> Option<u64> {
        match self {
            Self::Live(hub) => hub.published_seq(board),
            Self::Delayed(view) => view.released(board),
        }
    }

    /// Sends a message about a position (an analysis) to this feed's readers once the
    /// position it is about is public here: at once live, after the delay's release else.
    pub(crate) fn publish_beside(&self, message: Published) {
        match self {
            Self::Live(hub) => hub.publish_beside(message),
            Self::Delayed(view) => view.publish_beside(message),
        }
    }

    /// Whether this feed lags live play.
    pub(crate) fn is_delayed(&self) -> bool {
        matches!(self, Self::Delayed(_))
    }
}
