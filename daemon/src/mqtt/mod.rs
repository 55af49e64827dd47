//! The MQTT publisher: forwards every hub message to the broker per api.md, buffering (bounded) while it is away and republishing retained state on reconnect.

mod connection;
mod queue;
mod topics;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use rumqttc::{AsyncClient, QoS};
use tokio::sync::{broadcast, watch};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

pub use connection::{MqttSettings, MqttSetupError};
use queue::Outbox;
pub use topics::{board_topic, delivery, status_topic};

use crate::delay::Feed;
use crate::hub::{Published, Topic};
use crate::journal::JournalStatus;

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
    retained: BTreeMap<(Arc<str>, Topic), Published>,
    /// Boards whose retained messages went out since the last connect; a board recovered
    /// after it (the daemon answers while it recovers) is announced when it is ready.
    announced: BTreeSet<Arc<str>>,
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
            settings,
            feed,
            retained: BTreeMap::new(),
            announced: BTreeSet::new(),
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
            tokio::select! {
                () = finish.cancelled() => break,
                received = bus.recv() => self.take(received),
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
                self.send_ready();
            }
        }
        while let Ok(message) = bus.try_recv() {
            self.outbox.push(message);
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

    fn take(&mut self, received: Result<Published, broadcast::error::RecvError>) {
        match received {
            Ok(message) => self.outbox.push(message),
            Err(broadcast::error::RecvError::Lagged(missed)) => {
                tracing::warn!(missed, "MQTT publisher fell behind the bus");
                self.outbox.count_dropped(missed);
            }
            Err(broadcast::error::RecvError::Closed) => {}
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
            self.announced.insert(board.clone());
            for topic in [Topic::State, Topic::Device] {
                let payload = match self.retained.get(&(board.clone(), topic)) {
                    Some(sent) => sent.payload.clone(),
                    // Never sent: the backlog carries it, or the feed's current one is the oldest news.
                    None if self.outbox.holds(&board) => continue,
                    None => {
                        let cached = if topic == Topic::State {
                            self.feed.view(&board).map(|v| v.live.clone())
                        } else {
                            self.feed.device(&board)
                        };
                        match cached {
                            Some(payload) if !payload.is_empty() => payload,
                            _ => continue,
                        }
                    }
                };
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
