use std::sync::Arc;

use goban_referee::{Referee, RefereeConfig};

use super::*;
use crate::message::{BoardView, Payload, Topic};
use crate::publish::doubles::{IdleBoard, MemoryArchive};
use crate::publish::hub::Hub;

fn build_message(board: &str, seq: u64) -> Published {
    Published {
        board: board.into(),
        seq,
        topic: Topic::Moves,
        at_ms: seq,
        payload: Payload::json(&serde_json::json!({"seq": seq})).unwrap(),
        view: None,
    }
}

fn register(hub: &Hub, board: &str, last_seq: u64) {
    let state = Referee::new(RefereeConfig::default()).unwrap().state();
    hub.register(
        board,
        BoardView::build(state, None),
        Arc::new(IdleBoard),
        last_seq,
    );
}

fn seqs(messages: &[Published], board: &str) -> Vec<u64> {
    messages
        .iter()
        .filter(|m| &*m.board == board)
        .map(|m| m.seq)
        .collect()
}

#[test]
fn a_message_already_refilled_is_not_news() {
    let mut progress = Progress::default();
    assert!(progress.admit(&build_message("t1", 5)));
    assert!(progress.admit(&build_message("t1", 6)));
    assert!(!progress.admit(&build_message("t1", 6)));
    assert!(!progress.admit(&build_message("t1", 3)));
    assert!(progress.admit(&build_message("t2", 1)), "boards apart");
}

#[test]
fn a_gap_starts_after_the_last_queued_else_at_the_registration() {
    let hub = Hub::new(8, Arc::new(MemoryArchive::default()));
    register(&hub, "t1", 40);
    register(&hub, "t2", 7);
    register(&hub, "t3", 0);
    register(&hub, "t4", 3);
    hub.publish(build_message("t1", 60));
    hub.publish(build_message("t2", 9));
    hub.publish(build_message("t3", 1));
    let mut progress = Progress::default();
    progress.admit(&build_message("t1", 52));
    progress.admit(&build_message("t3", 1));
    let gaps = progress.gaps(&Feed::Live(hub));
    let stretches: Vec<(&str, u64, u64)> =
        gaps.iter().map(|g| (&*g.board, g.after, g.until)).collect();
    assert_eq!(
        stretches,
        [("t1", 52, 60), ("t2", 7, 9)],
        "t3 has nothing missing, t4 published nothing"
    );
}

#[test]
fn a_refill_reads_every_page_in_seq_order() {
    let archive = MemoryArchive::default();
    // Interleaved, as the boards' commits are.
    for seq in 1..=1_203 {
        archive.keep(build_message("t1", seq));
        archive.keep(build_message("t2", seq));
    }
    let gaps = vec![
        Gap {
            board: "t1".into(),
            after: 100,
            until: u64::MAX,
        },
        Gap {
            board: "t2".into(),
            after: 0,
            until: 1_001,
        },
    ];
    let refill = read(&archive, gaps, usize::MAX);
    assert!(refill.failed.is_empty());
    assert_eq!(
        seqs(&refill.messages, "t1"),
        (101..=1_203).collect::<Vec<_>>()
    );
    assert_eq!(
        seqs(&refill.messages, "t2"),
        (1..=1_001).collect::<Vec<_>>(),
        "not past what the feed released"
    );
}

#[test]
fn a_refill_reads_no_more_than_its_budget_and_the_next_goes_on_from_there() {
    let archive = MemoryArchive::default();
    for seq in 1..=900 {
        archive.keep(build_message("t1", seq));
        archive.keep(build_message("t2", seq));
    }
    let gap = |board: &str, after| Gap {
        board: board.into(),
        after,
        until: u64::MAX,
    };
    let first = read(&archive, vec![gap("t1", 0), gap("t2", 0)], 700);
    assert!(!first.complete);
    assert_eq!(seqs(&first.messages, "t1"), (1..=700).collect::<Vec<_>>());
    assert!(
        seqs(&first.messages, "t2").is_empty(),
        "t2 waits for the next refill"
    );
    let second = read(&archive, vec![gap("t1", 700), gap("t2", 0)], 1_100);
    assert!(second.complete, "exactly the room that was needed");
    assert_eq!(
        seqs(&second.messages, "t1"),
        (701..=900).collect::<Vec<_>>()
    );
    assert_eq!(seqs(&second.messages, "t2"), (1..=900).collect::<Vec<_>>());
}

#[test]
fn a_board_whose_journal_read_fails_is_named_and_the_others_are_read() {
    let archive = MemoryArchive::failing_for(vec!["t1"]);
    archive.keep(build_message("t2", 3));
    let gap = |board: &str| Gap {
        board: board.into(),
        after: 0,
        until: u64::MAX,
    };
    let refill = read(&archive, vec![gap("t1"), gap("t2")], usize::MAX);
    let failed: Vec<&str> = refill.failed.iter().map(|(b, _)| &**b).collect();
    assert_eq!(failed, ["t1"]);
    assert_eq!(seqs(&refill.messages, "t2"), [3]);
}

#[tokio::test(start_paused = true)]
async fn behind_a_broadcast_delay_a_gap_stops_at_what_it_released() {
    let hub = Hub::new(64, Arc::new(MemoryArchive::default()));
    register(&hub, "t1", 0);
    let delay = std::time::Duration::from_secs(30);
    let view = crate::publish::delay::DelayedView::start(
        hub.clone(),
        delay,
        tokio_util::sync::CancellationToken::new(),
    );
    let feed = Feed::Delayed(view);
    let settle = || async {
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
    };
    hub.publish(build_message("t1", 1));
    hub.publish(build_message("t1", 2));
    settle().await;
    let progress = Progress::default();
    assert_eq!(
        progress.gaps(&feed),
        [],
        "nothing released yet: nothing to refill"
    );
    tokio::time::advance(delay + std::time::Duration::from_secs(1)).await;
    settle().await;
    hub.publish(build_message("t1", 3));
    settle().await;
    let expected = Gap {
        board: "t1".into(),
        after: 0,
        until: 2,
    };
    assert_eq!(progress.gaps(&feed), [expected], "seq 3 is still held");
}
