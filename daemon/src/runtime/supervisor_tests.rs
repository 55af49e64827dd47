//! The supervisor's commit on a full journal: nothing published unjournaled, nothing lost, order kept once space returns.

use std::sync::Arc;

use super::*;
use crate::config::{JournalConfig, Span, Synchronous};
use crate::journal::{Batch, InputRecord};
use crate::message::{Payload, Published, Topic};

fn build_config(dir: &tempfile::TempDir) -> JournalConfig {
    JournalConfig {
        path: dir.path().join("journal.sqlite"),
        synchronous: Synchronous::Full,
        commit_window: Span(std::time::Duration::from_millis(1)),
        ..JournalConfig::default()
    }
}

fn build_wiring(journal: Journal) -> Wiring {
    let archive = Arc::new(journal.archive().expect("archive"));
    let (_, events) = mpsc::channel(1);
    let (_, requests) = mpsc::channel(1);
    Wiring {
        events,
        requests,
        links: BTreeMap::new(),
        journal,
        hub: Hub::new(4096, archive),
        clock: HostClock::system(),
        unjournaled: Unjournaled::default(),
        in_flight: None,
    }
}

/// One move-sized batch with a 3 KB input, so a few pages fill up fast.
fn build_sealed(seq: u64) -> Sealed {
    let mut batch = Batch::new("t1", 1);
    batch.open_epoch = seq == 1;
    batch.inputs.push(InputRecord {
        at_ms: seq,
        json: format!("{{\"pad\":\"{}\"}}", "x".repeat(3_000)),
    });
    batch.events.push(Published {
        board: "t1".into(),
        seq,
        topic: Topic::Moves,
        at_ms: seq,
        payload: Payload::json(&serde_json::json!({"v": 1, "seq": seq})).expect("json"),
        view: None,
    });
    Sealed {
        batch,
        commands: Vec::new(),
    }
}

fn published(bus: &mut tokio::sync::broadcast::Receiver<Published>) -> Vec<u64> {
    std::iter::from_fn(|| bus.try_recv().ok())
        .map(|message| message.seq)
        .collect()
}

/// Space returns (the same file, without the cap): every waiting batch, `first..=last`, goes
/// out in order and a restart would replay every input.
async fn space_returns(
    wiring: &mut Wiring,
    config: &JournalConfig,
    bus: &mut tokio::sync::broadcast::Receiver<Published>,
    first: u64,
    last: u64,
) {
    wiring.journal = Journal::open(config).expect("reopen");
    assert!(commit(None, wiring).await);
    assert_eq!(published(bus), (first..=last).collect::<Vec<_>>());
    assert_eq!(wiring.unjournaled.len(), 0);
    let recovered = wiring.journal.recover("t1").expect("recover");
    assert_eq!(
        (recovered.last_seq, recovered.inputs.len() as u64),
        (last, last)
    );
}

#[tokio::test]
async fn refused_batches_wait_unpublished_and_go_out_in_order_once_the_journal_accepts() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = build_config(&dir);
    let full = Journal::open_nearly_full(&config, 8).await;
    let mut wiring = build_wiring(full);
    let mut bus = wiring.hub.subscribe();

    // Play until the disk is full, then three more moves.
    let mut seq = 0;
    let mut accepted = 0;
    let mut refused = 0;
    while refused < 4 && seq < 500 {
        seq += 1;
        if commit(Some(build_sealed(seq)), &mut wiring).await {
            assert_eq!(refused, 0, "a batch went through behind a refused one");
            accepted = seq;
        } else {
            refused += 1;
        }
    }
    assert_eq!(refused, 4, "the capped journal never filled up");
    assert_eq!(published(&mut bus), (1..=accepted).collect::<Vec<_>>());
    assert_eq!(wiring.unjournaled.len(), 4);
    // A retry while still full changes nothing.
    assert!(!commit(None, &mut wiring).await);
    assert!(published(&mut bus).is_empty());
    assert!(wiring.journal.is_refusing());

    space_returns(&mut wiring, &config, &mut bus, accepted + 1, seq).await;
}

#[tokio::test]
async fn a_commit_takes_the_batch_out_along_and_publishes_it_first() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut config = build_config(&dir);
    // The batch out would wait an hour for company: only the move's commit can take it.
    config.lazy_window = Span(std::time::Duration::from_secs(3_600));
    let mut wiring = build_wiring(Journal::open(&config).expect("open"));
    let mut bus = wiring.hub.subscribe();

    commit_lazily(Some(build_sealed(1)), &mut wiring).await;
    assert!(wiring.in_flight.is_some(), "the batch was not handed over");
    assert!(published(&mut bus).is_empty(), "published before committed");
    let before = wiring.journal.commits();
    assert!(commit(Some(build_sealed(2)), &mut wiring).await);
    assert_eq!(published(&mut bus), [1, 2]);
    assert!(wiring.in_flight.is_none());
    assert_eq!(
        wiring.journal.commits() - before,
        1,
        "the move did not share the waiting batch's commit"
    );
}

#[tokio::test]
async fn a_refused_batch_that_may_wait_goes_out_first_once_the_journal_accepts() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = build_config(&dir);
    let full = Journal::open_nearly_full(&config, 8).await;
    let mut wiring = build_wiring(full);
    let mut bus = wiring.hub.subscribe();

    // Hand batches over one at a time until the journal refuses one.
    let mut seq = 0;
    let accepted = loop {
        seq += 1;
        assert!(seq < 500, "the capped journal never filled up");
        commit_lazily(Some(build_sealed(seq)), &mut wiring).await;
        let mut in_flight = wiring.in_flight.take().expect("handed over");
        let answer = in_flight.answer_now(&wiring.journal).await;
        let refused = answer.is_err();
        land(in_flight.into_sealed(), answer, &wiring);
        if refused {
            break seq - 1;
        }
    };
    assert_eq!(published(&mut bus), (1..=accepted).collect::<Vec<_>>());
    assert_eq!(wiring.unjournaled.len(), 1);
    // A move after it waits behind it.
    seq += 1;
    assert!(!commit(Some(build_sealed(seq)), &mut wiring).await);
    assert!(published(&mut bus).is_empty());
    assert_eq!(wiring.unjournaled.len(), 2);

    space_returns(&mut wiring, &config, &mut bus, accepted + 1, seq).await;
}
