//! The MQTT publisher: forwards every hub message to the broker per api.md, buffering (bounded) while it is away, refilling from the journal what it missed when it fell behind the bus, and republishing retained state on reconnect.

mod behind;
mod connection;
mod queue;
mod refill;
mod topics;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use rumqttc::{AsyncClient, QoS};
use tokio::sync::{broadcast, watch};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use behind::{AfterFailure, Behind};
pub use connection::{MqttSettings, MqttSetupError, session_client_id};
use queue::Outbox;
use refill::Progress;
pub use topics::{board_topic, delivery, status_topic};

use crate::journal::JournalStatus;
use crate::message::{Payload, Published, Topic};
use crate::publish::delay::Feed;

/// Largest MQTT packet the daemon sends and its embedded broker accepts.
///
/// The live state no longer carries the move list (about 2 KB on 19x19), but
/// a state with many alerts, their evidence and the audit, or a tournament's
/// standings, can pass rumqttc's 10 KiB default, which would make the publish
/// fail; 1 MiB leaves room for any of them.
pub const MAX_PACKET_BYTES: usize = 1 << 20;

/// Counters of the publisher, readable while it runs.
#[derive(Debug, Default)]
pub struct MqttCounters {
    /// Messages handed to the broker connection.
    pub sent: AtomicU64,
    /// Messages dropped because the buffer was full while the broker was away.
    pub dropped: AtomicU64,
    /// Messages read back from the journal after the publisher fell behind the bus.
    pub refilled: AtomicU64,
}

/// A running publisher; [`MqttPublisher::finish`] flushes it and says `offline`.
pub struct MqttPublisher {
    finish: CancellationToken,
    task: JoinHandle<()>,
    /// Live counters.
    pub counters: Arc<MqttCounters>,
}

struct Sender {
    client: AsyncClient,
    settings: MqttSettings,
    feed: Feed,
    outbox: Outbox,
    /// The last seq queued per board: what a refill starts after, and what the bus repeats.
    progress: Progress,
    /// Fell behind the bus and not caught up from the journal yet: the bus is not read meanwhile.
    behind: Option<Behind>,
    retained: BTreeMap<(Arc<str>, Topic), Published>,
    /// Boards whose retained messages went out since the last connect; a board recovered
    /// after it (the daemon answers while it recovers) is announced when it is ready.
    announced: BTreeSet<Arc<str>>,
    /// A board was left unannounced while behind the bus: announce it once caught up.
    announce_when_caught_up: bool,
    counters: Arc<MqttCounters>,
}

impl MqttPublisher {
    /// Connect (in the background) and start forwarding everything `feed` releases (the hub, or the broadcast delay).
    pub fn spawn(settings: MqttSettings, feed: Feed) -> Result<Self, MqttSetupError> {
        let options = connection::options(&settings)?;
        let (client, mut events) = AsyncClient::new(options, 256);
        events.set_network_options(connection::network());
        let (connected_tx, connected) = watch::channel(false);
        let stop_loop = CancellationToken::new();
        let driver = tokio::spawn(connection::drive(
            events,
            connected_tx,
            settings.max_backoff,
            stop_loop.clone(),
        ));
        let counters = Arc::new(MqttCounters::default());
        let finish = CancellationToken::new();
        let bus = feed.subscribe();
        let journal = feed.hub().archive().journal_status();
        let sender = Sender {
            client,
            outbox: Outbox::new(settings.buffer),
            progress: Progress::default(),
            behind: None,
            settings,
            feed,
            retained: BTreeMap::new(),
            announced: BTreeSet::new(),
            announce_when_caught_up: false,
            counters: counters.clone(),
        };
        let task =
            tokio::spawn(sender.run(bus, connected, journal, finish.clone(), driver, stop_loop));
        Ok(Self {
            finish,
            task,
            counters,
        })
    }

    /// Deliver what is queued (ignoring the broadcast delay), publish `offline`, disconnect; at most `grace`.
    pub async fn finish(self, grace: Duration) {
        self.finish.cancel();
        if tokio::time::timeout(grace, self.task).await.is_err() {
            tracing::warn!("MQTT publisher did not finish in time");
        }
    }
}

/// `<prefix>/status` while connected: `online`, or `journal_refusing` while the journal refuses
/// writes (nothing new is published then); the last will and a clean stop say `offline`.
fn status_word(journal: &JournalStatus) -> &'static str {
    match journal {
        JournalStatus::Accepting => "online",
        JournalStatus::Refusing { .. } => "journal_refusing",
    }
}

impl Sender {
    async fn run(
        mut self,
        mut bus: broadcast::Receiver<Published>,
        mut connected: watch::Receiver<bool>,
        mut journal: watch::Receiver<JournalStatus>,
        finish: CancellationToken,
        driver: JoinHandle<rumqttc::EventLoop>,
        stop_loop: CancellationToken,
    ) {
        let mut online = false;
        let mut journal_open = true;
        let mut settled = self.feed.hub().settled();
        loop {
            // At once, or after a failed journal read's wait.
            let refill_due = self.behind.as_ref().and_then(Behind::due);
            tokio::select! {
                () = finish.cancelled() => break,
                received = bus.recv(), if self.behind.is_none() => match received {
                    Ok(message) => self.take(message),
                    Err(broadcast::error::RecvError::Lagged(missed)) => self.fall_behind(missed),
                    // The hub lives as long as the feed this task holds: never closed.
                    Err(broadcast::error::RecvError::Closed) => {}
                },
                // Behind the bus: the next slice from the journal, once the outbox is nearly drained.
                () = behind::until(refill_due), if self.behind.is_some() && self.outbox.has_room_for_refill() => {
                    self.refill().await;
                }
                changed = connected.changed() => {
                    if changed.is_err() { break; }
                    online = *connected.borrow_and_update();
                    if online {
                        // Cloned, so the writer thread never waits on our read of the status.
                        let status = journal.borrow_and_update().clone();
                        self.announce(&status);
                    }
                }
                // `<prefix>/status` says `journal_refusing` while the journal refuses writes.
                changed = journal.changed(), if journal_open => match changed {
                    Ok(()) if online => self.publish_status(status_word(&journal.borrow_and_update())),
                    Ok(()) => {}
                    Err(_) => journal_open = false,
                },
                // The hub lives as long as the feed this task holds, so this never ends.
                Ok(()) = settled.changed(), if online => self.announce_boards(),
                // The client's queue was full: try again shortly.
                () = tokio::time::sleep(Duration::from_millis(20)), if online && !self.outbox.is_empty() => {}
            }
            if online {
                if self.behind.is_none() && std::mem::take(&mut self.announce_when_caught_up) {
                    self.announce_boards();
                }
                self.send_ready();
            }
        }
        if self.behind.is_some() {
            self.refill().await;
        }
        // Still behind: the bus holds no stretch that follows on from what was queued.
        while self.behind.is_none() {
            let Ok(message) = bus.try_recv() else { break };
            self.take(message);
        }
        self.send_ready();
        let _ = self.client.try_publish(
            status_topic(&self.settings.prefix),
            QoS::AtLeastOnce,
            true,
            "offline",
        );
        stop_loop.cancel();
        if let Ok(events) = driver.await {
            connection::flush(&self.client, events, Duration::from_millis(700)).await;
        }
        tracing::info!(dropped = self.outbox.dropped(), "MQTT publisher stopped");
    }

    /// Queue a message unless a refill already queued it. The broker needs its bytes only: a
    /// state's view is let go, as the outbox may hold thousands of messages.
    fn take(&mut self, mut message: Published) {
        // An analysis carries the seq of the state it is about and is not journaled: it is
        // neither a repeat of that state nor something a refill could bring back.
        if message.topic == Topic::Analysis || self.progress.admit(&message) {
            message.view = None;
            self.outbox.push(message);
            self.counters
                .dropped
                .store(self.outbox.dropped(), Ordering::Relaxed);
        }
    }

    /// The bus went on without us (`missed` messages): stop reading it and refill from the
    /// journal until every board is caught up.
    fn fall_behind(&mut self, missed: u64) {
        match &mut self.behind {
            Some(behind) => behind.missed += missed,
            None => {
                tracing::warn!(
                    missed,
                    "MQTT publisher fell behind the bus; refilling from the journal"
                );
                self.behind = Some(Behind::new(missed));
            }
        }
    }

    /// One refill: the messages after the last one queued of every board with a gap, from the
    /// journal, a slice at a time. When every board is caught up the bus is read again (what it
    /// still holds of them is skipped). A failed journal read is tried again after a wait
    /// ([`Behind::read_failed`]); when the attempts are used up, what the bus said was missed is
    /// counted as dropped, with an error logged.
    async fn refill(&mut self) {
        let gaps = self.progress.gaps(&self.feed);
        let archive = self.feed.hub().archive().clone();
        let budget = self.outbox.refill_budget();
        let read = tokio::task::spawn_blocking(move || refill::read(&*archive, gaps, budget)).await;
        let Some(behind) = self.behind.as_mut() else {
            return;
        };
        let (messages, failure, complete) = match read {
            Ok(refill) => {
                let failure = (!refill.failed.is_empty()).then(|| {
                    let boards: Vec<String> = refill
                        .failed
                        .iter()
                        .map(|(board, error)| format!("{board}: {error}"))
                        .collect();
                    boards.join("; ")
                });
                (refill.messages, failure, refill.complete)
            }
            Err(error) => (
                Vec::new(),
                Some(format!("the read task failed: {error}")),
                false,
            ),
        };
        let read_back = messages.len() as u64;
        behind.refilled += read_back;
        let give_up = match &failure {
            None => {
                behind.read_ok();
                false
            }
            Some(cause) => match behind.read_failed(tokio::time::Instant::now()) {
                AfterFailure::RetryIn(wait) => {
                    tracing::warn!(%cause, retry_in_ms = wait.as_millis() as u64, "MQTT refill: journal read failed; reading it again");
                    false
                }
                AfterFailure::GiveUp => {
                    tracing::error!(%cause, missed = behind.missed, "MQTT refill: journal read failed again and again; the missed messages of these boards are not published");
                    true
                }
            },
        };
        let done = give_up || (complete && failure.is_none());
        let summary = done.then(|| (behind.missed, behind.refilled, behind.since.elapsed()));
        for message in messages {
            self.take(message);
        }
        self.counters
            .refilled
            .fetch_add(read_back, Ordering::Relaxed);
        metrics::counter!("goban_mqtt_refilled_total").increment(read_back);
        if let Some((missed, refilled, took)) = summary {
            self.behind = None;
            if give_up {
                // The bus says how many were missed in all, not whose: counted in full.
                self.outbox.count_dropped(missed);
            }
            tracing::info!(
                missed,
                refilled,
                took_ms = took.as_millis() as u64,
                "MQTT publisher caught up from the journal"
            );
        }
        self.counters
            .dropped
            .store(self.outbox.dropped(), Ordering::Relaxed);
    }

    /// The retained `<prefix>/status`.
    fn publish_status(&self, word: &'static str) {
        let _ = self.client.try_publish(
            status_topic(&self.settings.prefix),
            QoS::AtLeastOnce,
            true,
            word,
        );
    }

    /// After every (re)connect: `online` (or `journal_refusing`), then the last retained state and device
    /// message of each board that has nothing newer waiting, so that, with the backlog sent next, every
    /// board's seqs go out in order.
    fn announce(&mut self, journal: &JournalStatus) {
        self.publish_status(status_word(journal));
        self.announced.clear();
        self.announce_boards();
    }

    /// The retained messages of every ready board not announced since the last connect.
    fn announce_boards(&mut self) {
        for board in self.feed.hub().boards() {
            if self.announced.contains(&board) {
                continue;
            }
            let never_sent = [Topic::State, Topic::Device]
                .iter()
                .any(|topic| !self.retained.contains_key(&(board.clone(), *topic)));
            if never_sent && self.behind.is_some() {
                // The feed's current message may be newer than what the journal still has to
                // give: announced once the refill has caught up, so seqs go out in order.
                self.announce_when_caught_up = true;
                continue;
            }
            // Read before the check below: a message published in between then counts as news.
            let payloads: Vec<(Topic, Payload)> = [Topic::State, Topic::Device]
                .into_iter()
                .filter_map(|topic| self.announcement(&board, topic).map(|p| (topic, p)))
                .collect();
            self.announced.insert(board.clone());
            if never_sent && self.news_on_the_bus(&board) {
                // The board published since it was registered, and all of it comes through the
                // bus in seq order: its current state sent now would go out before older
                // messages still on their way (issue 39.6). They are its announcement.
                continue;
            }
            for (topic, payload) in payloads {
                let (qos, retain) = delivery(topic);
                let _ = self.client.try_publish(
                    board_topic(&self.settings.prefix, &board, topic),
                    qos,
                    retain,
                    payload.bytes(),
                );
            }
        }
    }

    /// What announces `board` on `topic`: the last message sent there, or, never sent, the
    /// feed's current one (unless the backlog carries it).
    fn announcement(&self, board: &Arc<str>, topic: Topic) -> Option<Payload> {
        if let Some(sent) = self.retained.get(&(board.clone(), topic)) {
            return Some(sent.payload.clone());
        }
        if self.outbox.holds(board) {
            return None;
        }
        let cached = if topic == Topic::State {
            self.feed.view(board).map(|v| v.live.clone())
        } else {
            self.feed.device(board)
        };
        cached.filter(|payload| !payload.is_empty())
    }

    /// Whether `board` published messages since it was registered: the publisher subscribed to
    /// the bus before any board was registered, so they all reach it, in order.
    fn news_on_the_bus(&self, board: &str) -> bool {
        let hub = self.feed.hub();
        match (hub.registered_seq(board), hub.published_seq(board)) {
            (Some(registered), Some(published)) => published > registered,
            _ => false,
        }
    }

    fn send_ready(&mut self) {
        while let Some(message) = self.outbox.pop() {
            let (qos, retain) = delivery(message.topic);
            let topic = board_topic(&self.settings.prefix, &message.board, message.topic);
            if self
                .client
                .try_publish(topic, qos, retain, message.payload.bytes())
                .is_err()
            {
                // The client's own queue is full (broker slow or away): keep it for later.
                self.outbox.push_front(message);
                break;
            }
            self.counters.sent.fetch_add(1, Ordering::Relaxed);
            metrics::counter!("goban_mqtt_published_total").increment(1);
            if matches!(message.topic, Topic::State | Topic::Device) {
                self.retained
                    .insert((message.board.clone(), message.topic), message);
            }
        }
    }
}
