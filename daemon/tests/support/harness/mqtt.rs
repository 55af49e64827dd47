//! A real MQTT subscriber (rumqttc) that records every message and resubscribes after each reconnect.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rumqttc::{AsyncClient, Event, MqttOptions, Packet, QoS};
use serde_json::Value;
use tokio::task::JoinHandle;

use super::wait_for;

/// One received message.
#[derive(Clone, Debug)]
pub(crate) struct Message {
    pub(crate) topic: String,
    pub(crate) retain: bool,
    pub(crate) text: String,
}

impl Message {
    /// The payload as JSON (Null if it is not JSON, e.g. `online`).
    pub(crate) fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or(Value::Null)
    }
}

/// A subscription to `filter` at QoS 1.
pub(crate) struct Subscriber {
    messages: Arc<Mutex<Vec<Message>>>,
    task: JoinHandle<()>,
}

impl Subscriber {
    /// Connects to 127.0.0.1:`port`; `persistent` keeps the session (clean_session = false) so the
    /// broker queues QoS 1 messages while this client is away.
    pub(crate) async fn start(port: u16, client_id: &str, filter: &str, persistent: bool) -> Self {
        Self::start_as(port, client_id, filter, persistent, None).await
    }

    /// As [`Subscriber::start`], logged in with a user name and password.
    pub(crate) async fn start_as(
        port: u16,
        client_id: &str,
        filter: &str,
        persistent: bool,
        login: Option<(&str, &str)>,
    ) -> Self {
        let mut options = MqttOptions::new(client_id, "127.0.0.1", port);
        if let Some((user, password)) = login {
            options.set_credentials(user, password);
        }
        options.set_keep_alive(Duration::from_secs(5));
        options.set_clean_session(!persistent);
        let (client, mut events) = AsyncClient::new(options, 100);
        let messages = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&messages);
        let filter = filter.to_string();
        let subscribed = Arc::new(Mutex::new(false));
        let flag = Arc::clone(&subscribed);
        let task = tokio::spawn(async move {
            loop {
                match events.poll().await {
                    Ok(Event::Incoming(Packet::ConnAck(_))) => {
                        let _ = client.try_subscribe(filter.clone(), QoS::AtLeastOnce);
                    }
                    Ok(Event::Incoming(Packet::SubAck(_))) => *flag.lock().expect("flag") = true,
                    Ok(Event::Incoming(Packet::Publish(p))) => {
                        sink.lock().expect("messages").push(Message {
                            topic: p.topic.clone(),
                            retain: p.retain,
                            text: String::from_utf8_lossy(&p.payload).into_owned(),
                        })
                    }
                    Ok(_) => {}
                    Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
                }
            }
        });
        wait_for("the MQTT subscription", Duration::from_secs(10), || {
            let done = *subscribed.lock().expect("flag");
            async move { done.then_some(()) }
        })
        .await;
        Self { messages, task }
    }

    /// Every message so far whose topic ends with `suffix`.
    pub(crate) fn on(&self, suffix: &str) -> Vec<Message> {
        self.messages
            .lock()
            .expect("messages")
            .iter()
            .filter(|m| m.topic.ends_with(suffix))
            .cloned()
            .collect()
    }

    /// The points of the move events on `*/moves` topics starting with `prefix` (`""`: all),
    /// in seq order: QoS 1 may deliver twice, a consumer drops duplicates by seq (api.md).
    pub(crate) fn move_points(&self, prefix: &str) -> Vec<String> {
        let by_seq: std::collections::BTreeMap<u64, String> = self
            .on("/moves")
            .iter()
            .filter(|m| m.topic.starts_with(prefix))
            .filter_map(|m| {
                let event = m.json();
                Some((event["seq"].as_u64()?, event["point"].as_str()?.to_string()))
            })
            .collect();
        by_seq.into_values().collect()
    }

    /// Waits (10 s at most) until `count` messages ended with `suffix`.
    pub(crate) async fn wait_count(&self, suffix: &str, count: usize) -> Vec<Message> {
        wait_for(
            &format!("{count} MQTT messages on */{suffix}"),
            Duration::from_secs(10),
            || {
                let got = self.on(suffix);
                async move { (got.len() >= count).then_some(got) }
            },
        )
        .await
    }
}

impl Drop for Subscriber {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The retained message of `topic` on the broker at `port`, if any (a fresh clean subscription,
/// 15 s at most: a loaded machine delivers late).
pub(crate) async fn retained(port: u16, topic: &str) -> Option<Message> {
    let sub = Subscriber::start(port, &super::unique("gbe2e-ret"), topic, false).await;
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    while std::time::Instant::now() < deadline {
        if let Some(m) = sub.on("").into_iter().find(|m| m.retain) {
            return Some(m);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    None
}
