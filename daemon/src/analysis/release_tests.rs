//! The broadcast delay releases an analysis with its position, never before, in virtual time: on the public bus, to the board's followers, and so into the store REST reads.

use std::sync::Arc;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use super::store::PublicAnalysis;
use super::tests_support::build_position;
use crate::message::{Payload, Published, Topic};
use crate::publish::delay::{DelayedView, Feed};
use crate::publish::doubles::{IdleBoard, MemoryArchive};
use crate::publish::hub::Hub;

const DELAY: Duration = Duration::from_secs(60);
const BOARD: &str = "t-1";

fn build_hub() -> Hub {
    let hub = Hub::new(64, Arc::new(MemoryArchive::default()));
    hub.register(
        BOARD,
        build_position(BOARD, 1, 0).view,
        Arc::new(IdleBoard),
        1,
    );
    hub
}

/// The state of move `moves` at `seq`, live on the hub.
fn play(hub: &Hub, seq: u64, moves: u32) {
    let view = build_position(BOARD, seq, moves).view;
    hub.publish(Published {
        board: BOARD.into(),
        seq,
        topic: Topic::State,
        at_ms: 0,
        payload: view.live.clone(),
        view: Some(view),
    });
}

fn build_analysis(seq: u64, moves: u32) -> Published {
    let analysis = super::Analysis {
        v: 1,
        position_seq: seq,
        board: BOARD.into(),
        game: Some(format!("g-{BOARD}")),
        move_number: moves,
        to_move: goban_rules::Color::Black,
        score_lead: Some(f64::from(moves)),
        winrate: None,
        candidates: Vec::new(),
        engine: super::EngineInfo {
            name: "test".into(),
            budget: "1s per position".into(),
        },
        analysed_ms: 0,
    };
    Published {
        board: BOARD.into(),
        seq,
        topic: Topic::Analysis,
        at_ms: 0,
        payload: Payload::json(&analysis).expect("serializes"),
        view: None,
    }
}

async fn settle() {
    for _ in 0..20 {
        tokio::task::yield_now().await;
    }
}

fn drain(receiver: &mut tokio::sync::broadcast::Receiver<Published>) -> Vec<(Topic, u64)> {
    std::iter::from_fn(|| receiver.try_recv().ok())
        .map(|m| (m.topic, m.seq))
        .collect()
}

#[tokio::test(start_paused = true)]
async fn an_analysis_waits_for_its_position_on_every_public_channel() {
    let hub = build_hub();
    let shutdown = CancellationToken::new();
    let view = DelayedView::start(hub.clone(), DELAY, shutdown.clone());
    let feed = Feed::Delayed(view.clone());
    let store = PublicAnalysis::follow(&feed, shutdown.clone());
    let mut public = view.subscribe();
    let mut followers = view.subscribe_board(&Arc::from(BOARD));
    let mut live = hub.subscribe();

    play(&hub, 2, 1);
    settle().await;
    // The engine was quick: the analysis of seq 2 is ready long before seq 2 is public.
    feed.publish_beside(build_analysis(2, 1));
    settle().await;
    assert_eq!(drain(&mut public), [], "nothing public during the delay");
    assert_eq!(drain(&mut followers), []);
    assert!(store.page(BOARD).latest.is_none(), "REST shows nothing yet");
    assert_eq!(
        drain(&mut live),
        [(Topic::State, 2)],
        "the live hub (arbiters) never carries analyses under a delay"
    );

    tokio::time::advance(DELAY / 2).await;
    play(&hub, 3, 2);
    settle().await;
    tokio::time::advance(DELAY / 2).await;
    settle().await;
    assert_eq!(
        drain(&mut public),
        [(Topic::State, 2), (Topic::Analysis, 2)],
        "released right after its state, not with the next one"
    );
    assert_eq!(
        drain(&mut followers),
        [(Topic::State, 2), (Topic::Analysis, 2)]
    );
    let page = store.page(BOARD);
    assert_eq!(page.latest.map(|a| a.position_seq), Some(2));
    assert_eq!(page.history.len(), 1);

    // A slow engine: its position is public already, so its analysis goes out at once.
    tokio::time::advance(DELAY).await;
    settle().await;
    assert_eq!(drain(&mut public), [(Topic::State, 3)]);
    feed.publish_beside(build_analysis(3, 2));
    assert_eq!(drain(&mut public), [(Topic::Analysis, 3)]);
    settle().await;
    let page = store.page(BOARD);
    assert_eq!(
        page.history
            .iter()
            .map(|p| p.move_number)
            .collect::<Vec<_>>(),
        [1, 2]
    );
    shutdown.cancel();
}

#[tokio::test]
async fn without_a_delay_an_analysis_goes_out_at_once() {
    let hub = build_hub();
    let feed = Feed::Live(hub.clone());
    let mut public = feed.subscribe();
    play(&hub, 2, 1);
    feed.publish_beside(build_analysis(2, 1));
    assert_eq!(
        drain(&mut public),
        [(Topic::State, 2), (Topic::Analysis, 2)]
    );
    assert_eq!(
        hub.published_seq(BOARD),
        Some(2),
        "an analysis is not a journaled seq"
    );
}
