//! Broadcast delay: the buffer in virtual time, and over HTTP the public lagging while arbiters see live play.

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::{
    BOARD, FakeArchive, FakeControl, Harness, SseReader, TOKEN, build_settings, build_state,
    build_view, json_of,
};
use crate::message::{Published, Topic};
use crate::publish::delay::DelayedView;
use crate::publish::hub::Hub;

const DELAY: Duration = Duration::from_secs(30);

fn build_hub() -> Hub {
    let hub = Hub::new(64, Arc::new(FakeArchive::default()));
    hub.register(
        BOARD,
        build_view(build_state(1, 0)),
        Arc::new(FakeControl::default()),
        1,
    );
    hub
}

fn publish(hub: &Hub, seq: u64, topic: Topic) {
    let view = build_view(build_state(seq, u32::try_from(seq).unwrap()));
    hub.publish(Published {
        board: BOARD.into(),
        seq,
        topic,
        at_ms: 0,
        payload: view.live.clone(),
        view: (topic == Topic::State).then_some(view),
    });
}

/// Lets the view's task take what the hub sent.
async fn settle() {
    for _ in 0..10 {
        tokio::task::yield_now().await;
    }
}

#[tokio::test(start_paused = true)]
async fn view_releases_each_message_after_the_delay() {
    let hub = build_hub();
    let view = DelayedView::start(hub.clone(), DELAY, CancellationToken::new());
    let mut released = view.subscribe();
    let mut followers = view.subscribe_board(&Arc::from(BOARD));
    let mut elsewhere = view.subscribe_board(&Arc::from("table-2"));
    let mut live_followers = hub.subscribe_board(&Arc::from(BOARD));
    assert_eq!(
        view.view(BOARD).unwrap().seq(),
        1,
        "what existed at start is public"
    );
    assert_eq!(
        view.cutoff(BOARD),
        u64::MAX,
        "nothing seen live yet: the whole journal is public"
    );

    publish(&hub, 2, Topic::Moves);
    publish(&hub, 3, Topic::State);
    settle().await;
    assert_eq!(view.held(), 2);
    assert_eq!(view.cutoff(BOARD), 1);
    assert_eq!(view.view(BOARD).unwrap().seq(), 1);
    assert_eq!(
        live_followers.try_recv().unwrap().seq,
        2,
        "the hub's own followers: live"
    );
    assert!(
        followers.try_recv().is_err(),
        "the board's public followers: not yet"
    );

    tokio::time::advance(DELAY - Duration::from_millis(1)).await;
    settle().await;
    assert_eq!(view.view(BOARD).unwrap().seq(), 1, "not yet");
    assert!(followers.try_recv().is_err());
    tokio::time::advance(Duration::from_millis(1)).await;
    settle().await;
    assert_eq!(view.view(BOARD).unwrap().seq(), 3);
    assert_eq!(view.cutoff(BOARD), 3);
    assert_eq!(view.held(), 0);
    assert_eq!(released.recv().await.unwrap().seq, 2);
    assert_eq!(released.recv().await.unwrap().seq, 3);
    assert_eq!(followers.try_recv().unwrap().seq, 2);
    assert_eq!(followers.try_recv().unwrap().seq, 3);
    assert!(
        elsewhere.try_recv().is_err(),
        "another board's followers hear nothing"
    );
}

#[tokio::test(start_paused = true)]
async fn view_keeps_each_message_its_own_delay() {
    let hub = build_hub();
    let view = DelayedView::start(hub.clone(), DELAY, CancellationToken::new());
    publish(&hub, 2, Topic::State);
    settle().await;
    tokio::time::advance(Duration::from_secs(20)).await;
    publish(&hub, 3, Topic::State);
    settle().await;
    tokio::time::advance(Duration::from_secs(10)).await;
    settle().await;
    assert_eq!(
        view.view(BOARD).unwrap().seq(),
        2,
        "first message is 30 s old, second only 10 s"
    );
    tokio::time::advance(Duration::from_secs(20)).await;
    settle().await;
    assert_eq!(view.view(BOARD).unwrap().seq(), 3);
}

#[tokio::test(start_paused = true)]
async fn a_board_registered_later_goes_public_after_the_delay() {
    let hub = build_hub();
    let view = DelayedView::start(hub.clone(), DELAY, CancellationToken::new());
    let mut late = build_state(7, 9);
    late["board"] = json!("table-2");
    hub.register(
        "table-2",
        build_view(late),
        Arc::new(FakeControl::default()),
        7,
    );
    assert!(
        view.view("table-2").is_none(),
        "live state of a new board is not public at once"
    );
    tokio::time::advance(DELAY).await;
    settle().await;
    assert_eq!(view.view("table-2").unwrap().seq(), 7);
}

fn build_delayed_settings() -> crate::http::HttpSettings {
    crate::http::HttpSettings {
        broadcast_delay: Duration::from_secs(3600),
        ..build_settings()
    }
}

/// Jumps the runtime's clock past the delay, then waits (boundedly) for the public view to show `seq`.
async fn pass_the_delay(harness: &Harness, seq: u64) {
    tokio::time::pause();
    tokio::time::advance(Duration::from_secs(3601)).await;
    tokio::time::resume();
    for _ in 0..200 {
        let (_, body) = json_of(harness.get("/boards/table-1").await).await;
        if body["seq"] == seq {
            return;
        }
        tokio::task::yield_now().await;
    }
    panic!("public state never reached seq {seq}");
}

#[tokio::test]
async fn public_lags_while_arbiters_see_live() {
    let harness = Harness::start(build_delayed_settings()).await;
    let seq = harness.play(1);
    let (_, public) = json_of(harness.get("/boards/table-1").await).await;
    assert_eq!(
        public["seq"], 1,
        "the public still sees the state before the move"
    );
    let (_, live) = json_of(harness.get_as_arbiter("/boards/table-1").await).await;
    assert_eq!(live["seq"], seq);
    let (_, list) = json_of(harness.get("/boards").await).await;
    assert_eq!(list[0]["move_number"], 0);
    let public_sgf = harness
        .get("/boards/table-1/sgf")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        public_sgf.starts_with("(;FF[4]") && !public_sgf.contains(";B[dr]"),
        "public SGF is rebuilt from the delayed state: {public_sgf}"
    );
    let live_sgf = harness
        .get_as_arbiter("/boards/table-1/sgf")
        .await
        .text()
        .await
        .unwrap();
    // Move 1 of the built states is Black's D2.
    assert!(live_sgf.contains(";B[dr]"), "{live_sgf}");
    pass_the_delay(&harness, seq).await;
    let (_, list) = json_of(harness.get("/boards").await).await;
    assert_eq!(list[0]["move_number"], 1);
    harness.stop().await;
}

#[tokio::test]
async fn public_sse_resume_respects_the_delay() {
    let harness = Harness::start(build_delayed_settings()).await;
    let first = harness.play(1);
    let last = harness.play(2);
    let response = harness
        .client
        .get(harness.url("/boards/table-1/events"))
        .header("last-event-id", "0")
        .send()
        .await
        .unwrap();
    let mut public = SseReader::new(response);
    let request = harness
        .client
        .get(harness.url("/boards/table-1/events"))
        .bearer_auth(TOKEN)
        .header("last-event-id", "0");
    let mut arbiter = SseReader::new(request.send().await.unwrap());
    let mut live = Vec::new();
    while live.last() != Some(&last) {
        live.push(arbiter.next().await.unwrap().seq());
    }
    assert_eq!(
        live,
        (first - 1..=last).collect::<Vec<_>>(),
        "arbiters resume live at once"
    );
    pass_the_delay(&harness, last).await;
    let mut delayed = Vec::new();
    while delayed.last() != Some(&last) {
        delayed.push(public.next().await.unwrap().seq());
    }
    assert_eq!(
        delayed, live,
        "the public gets the same events, once each, after the delay"
    );
    harness.stop().await;
}

#[tokio::test]
async fn public_does_not_see_a_game_finish_early() {
    let harness = Harness::start(build_delayed_settings()).await;
    let mut finished = build_state(0, 80);
    finished["phase"] = json!("finished");
    finished["result"] = json!("B+R");
    let seq = harness.publish(Topic::State, finished.clone());
    harness
        .archive
        .games
        .lock()
        .unwrap()
        .push((finished, "(;RE[B+R])".to_owned()));
    let (_, public) = json_of(harness.get("/games").await).await;
    assert_eq!(public["games"].as_array().map(Vec::len), Some(0));
    let (status, _) = json_of(harness.get("/games/2026-11-30-table-1-1/sgf").await).await;
    assert_eq!(status, 404);
    let (_, live) = json_of(harness.get_as_arbiter("/games").await).await;
    assert_eq!(live["games"].as_array().map(Vec::len), Some(1));
    pass_the_delay(&harness, seq).await;
    let (_, public) = json_of(harness.get("/games").await).await;
    assert_eq!(public["games"].as_array().map(Vec::len), Some(1));
    harness.stop().await;
}

#[tokio::test]
async fn fresh_public_stream_starts_from_the_delayed_state() {
    let harness = Harness::start(build_delayed_settings()).await;
    let live = harness.play(1);
    let response = harness.get("/boards/table-1/events").await;
    let mut public = SseReader::new(response);
    let first = public.next().await.unwrap();
    assert_eq!(
        (first.event.as_deref(), first.seq()),
        (Some("state"), 1),
        "not the live state {live}"
    );
    harness.stop().await;
}
