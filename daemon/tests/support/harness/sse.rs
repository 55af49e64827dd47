//! A Server-Sent Events client over reqwest that records `id`, `event` and `data` of every event.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::StreamExt;
use serde_json::Value;
use tokio::task::JoinHandle;

/// One SSE event.
#[derive(Clone, Debug, Default)]
pub(crate) struct SseEvent {
    pub(crate) id: Option<u64>,
    pub(crate) event: String,
    pub(crate) data: Value,
}

/// A live `GET .../events` stream.
pub(crate) struct SseClient {
    events: Arc<Mutex<Vec<SseEvent>>>,
    task: JoinHandle<()>,
}

impl SseClient {
    /// Opens `url`, resuming after `last_event_id` if given; panics if the answer is not 200.
    pub(crate) async fn open(url: &str, last_event_id: Option<u64>) -> Self {
        let client = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(5))
            .build()
            .expect("client");
        let mut req = client.get(url).header("Accept", "text/event-stream");
        if let Some(id) = last_event_id {
            req = req.header("Last-Event-ID", id.to_string());
        }
        let resp = tokio::time::timeout(Duration::from_secs(5), req.send())
            .await
            .expect("SSE answer in 5 s")
            .expect("SSE GET");
        assert_eq!(resp.status(), 200, "SSE {url}");
        let events = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&events);
        let task = tokio::spawn(async move {
            let mut stream = resp.bytes_stream();
            let mut buf = String::new();
            while let Some(Ok(chunk)) = stream.next().await {
                buf.push_str(&String::from_utf8_lossy(&chunk));
                while let Some(end) = buf.find("\n\n") {
                    let block: String = buf.drain(..end + 2).collect();
                    if let Some(event) = parse_block(&block) {
                        sink.lock().expect("events").push(event);
                    }
                }
            }
        });
        Self { events, task }
    }

    /// Every event so far.
    pub(crate) fn events(&self) -> Vec<SseEvent> {
        self.events.lock().expect("events").clone()
    }
}

impl Drop for SseClient {
    fn drop(&mut self) {
        self.task.abort();
    }
}

fn parse_block(block: &str) -> Option<SseEvent> {
    let mut event = SseEvent {
        event: "message".into(),
        ..SseEvent::default()
    };
    let mut data = String::new();
    for line in block.lines() {
        if let Some(v) = line.strip_prefix("id:") {
            event.id = v.trim().parse().ok();
        } else if let Some(v) = line.strip_prefix("event:") {
            event.event = v.trim().to_string();
        } else if let Some(v) = line.strip_prefix("data:") {
            data.push_str(v.strip_prefix(' ').unwrap_or(v));
        }
    }
    if data.is_empty() {
        return None;
    }
    event.data = serde_json::from_str(&data).unwrap_or(Value::String(data));
    Some(event)
}
