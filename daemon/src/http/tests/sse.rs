//! SSE: snapshot then live, `Last-Event-ID` resume without gaps or duplicates, lag recovery, shutdown.

use std::sync::Arc;

use serde_json::json;

use super::{Harness, SseReader, build_settings, json_of};
use crate::message::{Published, Topic};

async fn connect(harness: &Harness, last_event_id: Option<u64>) -> SseReader {
    let mut request = harness.client.get(harness.url("/boards/table-1/events"));
    if let Some(id) = last_event_id {
        request = request.header("last-event-id", id.to_string());
    }
    SseReader::new(request.send().await.unwrap())
}

async fn read_until(reader: &mut SseReader, last: u64) -> Vec<u64> {
    let mut seqs = Vec::new();
    while seqs.last().is_none_or(|s| *s < last) {
        let event = reader.next().await.expect("stream ended early");
        seqs.push(event.seq());
    }
    seqs
}

#[tokio::test]
async fn fresh_stream_starts_with_the_state_then_follows_live() {
    let harness = Harness::start(build_settings()).await;
    let mut reader = connect(&harness, None).await;
    let first = reader.next().await.unwrap();
    assert_eq!((first.event.as_deref(), first.seq()), (Some("state"), 1));
    let moved = harness.publish(
        Topic::Moves,
        json!({"number": 1, "color": "black", "point": "Q16"}),
    );
    let clock = harness.publish(Topic::Clock, json!({"black": {"main_ms": 5}}));
    let event = reader.next().await.unwrap();
    assert_eq!(
        (event.event.as_deref(), event.seq()),
        (Some("moves"), moved)
    );
    let data: serde_json::Value = serde_json::from_str(&event.data).unwrap();
    assert_eq!(data["point"], "Q16");
    assert_eq!(data["seq"], moved);
    let event = reader.next().await.unwrap();
    assert_eq!(
        (event.event.as_deref(), event.seq()),
        (Some("clock"), clock)
    );
    harness.stop().await;
}

#[tokio::test]
async fn resume_replays_what_was_missed_then_goes_live() {
    let harness = Harness::start(build_settings()).await;
    let seqs: Vec<u64> = (1..=3).map(|n| harness.play(n)).collect();
    let mut reader = connect(&harness, Some(3)).await;
    let live_first = harness.play(4);
    let got = read_until(&mut reader, live_first).await;
    let expected: Vec<u64> = (4..=live_first).collect();
    assert_eq!(
        got, expected,
        "journal {seqs:?} then live, in order, once each"
    );
    harness.stop().await;
}

#[tokio::test]
async fn resume_has_no_gap_or_duplicate_while_play_goes_on() {
    let harness = Arc::new(Harness::start(build_settings()).await);
    for n in 1..=20 {
        harness.play(n);
    }
    let publisher = {
        let harness = harness.clone();
        tokio::spawn(async move {
            for n in 21..=120 {
                harness.play(n);
                tokio::task::yield_now().await;
            }
        })
    };
    let mut reader = connect(&harness, Some(10)).await;
    publisher.await.unwrap();
    let last = harness.play(121);
    let got = read_until(&mut reader, last).await;
    assert_eq!(got, (11..=last).collect::<Vec<_>>());
    Arc::into_inner(harness)
        .expect("publisher done")
        .stop()
        .await;
}

#[tokio::test]
async fn a_client_that_falls_behind_the_bus_recovers_from_the_journal() {
    let harness = Harness::start(build_settings()).await;
    let mut reader = connect(&harness, None).await;
    assert_eq!(reader.next().await.unwrap().seq(), 1);
    // No await in this loop: the bus (capacity 64) overflows before the stream task runs.
    let mut last = 0;
    for n in 1..=200 {
        last = harness.play(n);
    }
    let got = read_until(&mut reader, last).await;
    assert_eq!(got, (2..=last).collect::<Vec<_>>());
    harness.stop().await;
}

#[tokio::test]
async fn other_boards_stay_out_of_the_stream() {
    let harness = Harness::start(build_settings()).await;
    let mut reader = connect(&harness, None).await;
    reader.next().await.unwrap();
    let payload = crate::message::Payload::json(&json!({"v": 1, "seq": 50})).unwrap();
    harness.hub.publish(Published {
        board: "table-2".into(),
        seq: 50,
        topic: Topic::Moves,
        at_ms: 0,
        payload,
        view: None,
    });
    let ours = harness.play(1);
    let got = read_until(&mut reader, ours).await;
    assert!(!got.contains(&50), "{got:?}");
    harness.stop().await;
}

#[tokio::test]
async fn bad_last_event_id_is_400_json() {
    let harness = Harness::start(build_settings()).await;
    let response = harness
        .client
        .get(harness.url("/boards/table-1/events"))
        .header("last-event-id", "yesterday")
        .send()
        .await
        .unwrap();
    let (status, body) = json_of(response).await;
    assert_eq!((status, body["error"].as_str()), (400, Some("bad_request")));
    let (status, _) = json_of(harness.get("/boards/table-1/events?last_event_id=-1").await).await;
    assert_eq!(status, 400);
    harness.stop().await;
}

#[tokio::test]
async fn query_parameter_resumes_like_the_header() {
    let harness = Harness::start(build_settings()).await;
    let last = harness.play(1);
    let response = harness
        .get(&format!(
            "/boards/table-1/events?last_event_id={}",
            last - 1
        ))
        .await;
    let mut reader = SseReader::new(response);
    assert_eq!(reader.next().await.unwrap().seq(), last);
    harness.stop().await;
}

#[tokio::test]
async fn shutdown_ends_open_streams() {
    let harness = Harness::start(build_settings()).await;
    let mut reader = connect(&harness, None).await;
    reader.next().await.unwrap();
    harness.shutdown.cancel();
    assert_eq!(reader.next().await, None);
    harness.stop().await;
}

#[tokio::test]
async fn journal_failure_during_resume_ends_with_an_error_event() {
    let harness = Harness::start(build_settings()).await;
    harness.play(1);
    *harness.archive.broken.lock().unwrap() = true;
    let mut reader = connect(&harness, Some(0)).await;
    let event = reader.next().await.unwrap();
    assert_eq!(event.event.as_deref(), Some("error"));
    assert_eq!(reader.next().await, None);
    harness.stop().await;
}
