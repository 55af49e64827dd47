//! Moves committed on their board's thread when the writer's connection is free, and in order when it is not.

use super::tests::build_batch;
use super::*;
use crate::config::Span;

fn open_without_commit_window(dir: &tempfile::TempDir) -> Journal {
    Journal::open(&JournalConfig {
        path: dir.path().join("journal.sqlite"),
        commit_window: Span(std::time::Duration::ZERO),
        ..JournalConfig::default()
    })
    .expect("open")
}

#[tokio::test]
async fn a_move_on_a_free_connection_is_committed_before_the_call_returns_with_what_waited() {
    let dir = tempfile::tempdir().expect("tempdir");
    let journal = open_without_commit_window(&dir);
    let mut first = build_batch("t1", 1, &["{\"n\":1}"], &[1]);
    first.open_epoch = true;
    let mut waiting = journal.write_lazily(first).expect("hand over");
    let mut own = journal
        .write_after(build_batch("t1", 1, &["{\"n\":2}"], &[2]))
        .expect("write");
    // No other thread had to run: both answers are here already, from one commit.
    assert!(matches!(own.try_recv(), Ok(Ok(()))));
    assert!(matches!(waiting.try_recv(), Ok(Ok(()))));
    assert_eq!(journal.commits(), 1);
    let recovered = journal.recover("t1").expect("recover");
    let inputs: Vec<_> = recovered.inputs.iter().map(|i| i.json.as_str()).collect();
    assert_eq!(inputs, ["{\"n\":1}", "{\"n\":2}"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn boards_committing_on_their_own_threads_keep_each_boards_order() {
    let dir = tempfile::tempdir().expect("tempdir");
    let journal = open_without_commit_window(&dir);
    let boards = ["a", "b", "c", "d", "e", "f"];
    let mut tasks = Vec::new();
    for board in boards {
        let journal = journal.clone();
        tasks.push(tokio::spawn(async move {
            for seq in 1..=200u64 {
                // Every other batch may wait, as clock readings do between moves.
                let mut batch = build_batch(board, 1, &[&format!("{{\"n\":{seq}}}")], &[seq]);
                batch.open_epoch = seq == 1;
                if seq % 2 == 1 {
                    let _answer = journal.write_lazily(batch).expect("hand over");
                } else {
                    journal
                        .write_after(batch)
                        .expect("write")
                        .await
                        .expect("answer")
                        .expect("committed");
                }
            }
        }));
    }
    for task in tasks {
        task.await.expect("join");
    }
    journal.flush().await.expect("flush");
    for board in boards {
        // Inputs come back in the order they were committed.
        let recovered = journal.recover(board).expect("recover");
        let inputs: Vec<_> = recovered.inputs.iter().map(|i| i.json.clone()).collect();
        let sent: Vec<_> = (1..=200).map(|n| format!("{{\"n\":{n}}}")).collect();
        assert_eq!(inputs, sent, "board {board}");
    }
}
