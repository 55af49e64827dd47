//! Batches that may wait: committed with the next commit of any board, or alone within the window.

use super::*;
use crate::config::Span;
use crate::message::{Payload, Published, Topic};

fn build_batch(seq: u64) -> Batch {
    let mut batch = Batch::new("t1", 1);
    batch.open_epoch = seq == 1;
    batch.inputs.push(InputRecord {
        at_ms: seq,
        json: format!("{{\"n\":{seq}}}"),
    });
    batch.events.push(Published {
        board: "t1".into(),
        seq,
        topic: Topic::Clock,
        at_ms: seq,
        payload: Payload::json(&serde_json::json!({"seq": seq})).expect("json"),
        view: None,
    });
    batch
}

#[tokio::test]
async fn a_batch_that_may_wait_goes_with_the_next_commit_or_alone_within_its_window() {
    let dir = tempfile::tempdir().expect("tempdir");
    let journal = Journal::open(&JournalConfig {
        path: dir.path().join("journal.sqlite"),
        commit_window: Span(std::time::Duration::ZERO),
        ..JournalConfig::default()
    })
    .expect("open");

    let mut waiting = journal.write_lazily(build_batch(1)).expect("hand over");
    journal.write(build_batch(2)).await.expect("write");
    // Answered in the same commit as the batch after it (or before): its answer is already here.
    assert!(matches!(waiting.try_recv(), Ok(Ok(()))));

    let alone = journal.write_lazily(build_batch(3)).expect("hand over");
    let answer = tokio::time::timeout(std::time::Duration::from_secs(10), alone).await;
    assert!(
        matches!(answer, Ok(Ok(Ok(())))),
        "a batch without company was not committed: {answer:?}"
    );

    let recovered = journal.recover("t1").expect("recover");
    let inputs: Vec<_> = recovered.inputs.iter().map(|i| i.json.as_str()).collect();
    assert_eq!(inputs, ["{\"n\":1}", "{\"n\":2}", "{\"n\":3}"]);
    assert_eq!(recovered.last_seq, 3);
}

#[tokio::test]
async fn hurrying_commits_what_waits_at_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let journal = Journal::open(&JournalConfig {
        path: dir.path().join("journal.sqlite"),
        // Without the hurry the batch would wait an hour.
        lazy_window: Span(std::time::Duration::from_secs(3_600)),
        ..JournalConfig::default()
    })
    .expect("open");
    let waiting = journal.write_lazily(build_batch(1)).expect("hand over");
    journal.hurry();
    let answer = tokio::time::timeout(std::time::Duration::from_secs(10), waiting).await;
    assert!(
        matches!(answer, Ok(Ok(Ok(())))),
        "the hurried batch was not committed: {answer:?}"
    );
}

/// A batch of board t1 with one event and no input: a few bytes, which fit where a big one did not.
fn build_small_batch(seq: u64) -> Batch {
    let mut batch = build_batch(seq);
    batch.inputs.clear();
    batch
}

#[tokio::test]
async fn a_batch_sent_after_a_refused_one_is_refused_with_it_until_a_commit_of_its_board_succeeds()
{
    let dir = tempfile::tempdir().expect("tempdir");
    let config = JournalConfig {
        path: dir.path().join("journal.sqlite"),
        commit_window: Span(std::time::Duration::ZERO),
        lazy_window: Span(std::time::Duration::from_millis(1)),
        ..JournalConfig::default()
    };
    let journal = Journal::open_nearly_full(&config, 8).await;
    // Batches that may wait, 3 KB each, each committed alone, until the full disk refuses one.
    let mut seq = 0;
    loop {
        seq += 1;
        assert!(seq < 500, "the capped journal never filled up");
        let mut batch = build_batch(seq);
        batch.inputs[0].json = format!("{{\"pad\":\"{}\"}}", "x".repeat(3_000));
        let answer = journal.write_lazily(batch).expect("hand over").await;
        if matches!(answer, Ok(Err(_))) {
            break;
        }
    }
    // The next batch of that board, sent to follow it, is refused unwritten...
    let after = journal
        .write_after(build_small_batch(seq + 1))
        .expect("send");
    assert!(matches!(after.await, Ok(Err(JournalError::Sqlite(_)))));
    // ...though the journal had room for it, as a plain write shows.
    journal
        .write(build_small_batch(seq + 1))
        .await
        .expect("a small batch fits");
    // A commit of the board succeeded: what follows it is written again.
    let after = journal
        .write_after(build_small_batch(seq + 2))
        .expect("send");
    assert!(matches!(after.await, Ok(Ok(()))));
}
