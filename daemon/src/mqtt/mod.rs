//! The MQTT publisher: forwards every hub message to the broker per api.md, buffering (bounded) while it is away and republishing retained state on reconnect.

mod connection;
mod queue;
mod topics;

use std::collections::BTreeMap;
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

use crate::hub::{Hub, Published, Topic};

/// Largest MQTT packet the daemon sends and its embedded broker accepts.
///
/// The retained board state carries every move of the game: a long 19x19
/// game is tens of kilobytes, far past rumqttc's 10 KiB default, which would
/// make every state publish fail once a game passes about forty moves.
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
    hub: Hub,
    outbox: Outbox,
    retained: BTreeMap<(String, &'static str), Published>,
    counters: Arc<MqttCounters>,
}

impl MqttPublisher {
    /// Connect (in the background) and start forwarding everything published on `hub`.
    pub fn spawn(settings: MqttSettings, hub: Hub) -> Result<Self, MqttSetupError> {
        let options = connection::options(&settings)?;
        let (client, events) = AsyncClient::new(options, 256);
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
        let bus = hub.subscribe();
        let sender = Sender {
            client,
            outbox: Outbox::new(settings.buffer),
            settings,
            hub,
            retained: BTreeMap::new(),
            counters: counters.clone(),
        };
        let task = tokio::spawn(sender.run(bus, connected, finish.clone(), driver, stop_loop));
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

impl Sender {
    async fn run(
        mut self,
        mut bus: broadcast::Receiver<Published>,
        mut connected: watch::Receiver<bool>,
        finish: CancellationToken,
        driver: JoinHandle<rumqttc::EventLoop>,
        stop_loop: CancellationToken,
    ) {
        let mut online = false;
        loop {
            let wake = self.outbox.next_ready_ms(self.settings.delay_ms);
            tokio::select! {
                () = finish.cancelled() => break,
                received = bus.recv() => self.take(received),
                changed = connected.changed() => {
                    if changed.is_err() { break; }
                    online = *connected.borrow_and_update();
                    if online { self.announce(); }
                }
                () = sleep_until_ms(wake), if online => {}
            }
            if online {
                self.send_ready(crate::runtime::supervisor::now_ms(), self.settings.delay_ms);
            }
        }
        while let Ok(message) = bus.try_recv() {
            self.outbox.push(message);
        }
        self.send_ready(u64::MAX, 0);
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

    /// After every (re)connect: `online`, then the last retained state and device message of each board.
    fn announce(&mut self) {
        let _ = self.client.try_publish(
            status_topic(&self.settings.prefix),
            QoS::AtLeastOnce,
            true,
            "online",
        );
        for board in self.hub.boards() {
            for (topic, name) in [(Topic::State, "state"), (Topic::Device, "device")] {
                let payload = match self.retained.get(&(board.clone(), name)) {
                    Some(sent) => sent.payload.clone(),
                    None if self.settings.delay_ms == 0 => {
                        let cached = if topic == Topic::State {
                            self.hub.state(&board)
                        } else {
                            self.hub.device(&board)
                        };
                        match cached {
                            Some(value) if !value.is_null() => value,
                            _ => continue,
                        }
                    }
                    None => continue,
                };
                let (qos, retain) = delivery(topic);
                let _ = self.client.try_publish(
                    board_topic(&self.settings.prefix, &board, topic),
                    qos,
                    retain,
                    payload.to_string(),
                );
            }
        }
    }

    fn send_ready(&mut self, now_ms: u64, delay_ms: u64) {
        while let Some(message) = self.outbox.pop_ready(now_ms, delay_ms) {
            let (qos, retain) = delivery(message.topic);
            let topic = board_topic(&self.settings.prefix, &message.board, message.topic);
            if self
                .client
                .try_publish(topic, qos, retain, message.payload.to_string())
                .is_err()
            {
                // The client's own queue is full (broker slow or away): keep it for later.
                self.outbox.push_front(message);
                break;
            }
            self.counters.sent.fetch_add(1, Ordering::Relaxed);
            metrics::counter!("goban_mqtt_published_total").increment(1);
            match message.topic {
                Topic::State => drop(
                    self.retained
                        .insert((message.board.clone(), "state"), message),
                ),
                Topic::Device => drop(
                    self.retained
                        .insert((message.board.clone(), "device"), message),
                ),
                _ => {}
            }
        }
    }
}

async fn sleep_until_ms(at_ms: Option<u64>) {
    match at_ms {
        Some(at) => {
            let now = crate::runtime::supervisor::now_ms();
            tokio::time::sleep(Duration::from_millis(at.saturating_sub(now).max(1))).await;
        }
        None => std::future::pending().await,
    }
}
