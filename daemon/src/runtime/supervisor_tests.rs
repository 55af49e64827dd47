//! The supervisor's commit on a full journal: nothing published unjournaled, nothing lost, order kept once space returns.

use std::sync::Arc;

use super::*;
use crate::config::{JournalConfig, Span, Synchronous};
use crate::hub::{Payload, Published, Topic};
use crate::journal::{Batch, InputRecord};

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
        if commit(Some(build_sealed(seq)), &wiring).await {
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
    assert!(!commit(None, &wiring).await);
    assert!(published(&mut bus).is_empty());
    assert!(wiring.journal.is_refusing());

    // Space returns (the same file, without the cap): the waiting moves go out, in order.
    wiring.journal = Journal::open(&config).expect("reopen");
    assert!(commit(None, &wiring).await);
    assert_eq!(
        published(&mut bus),
        ((accepted + 1)..=seq).collect::<Vec<_>>()
    );
    assert_eq!(wiring.unjournaled.len(), 0);
    let recovered = wiring.journal.recover("t1").expect("recover");
    assert_eq!(
        (recovered.last_seq, recovered.inputs.len() as u64),
        (seq, seq)
    );
}
