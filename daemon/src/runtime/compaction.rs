//! The journal's scheduled compaction: every ten minutes, the finished games past their `[journal] retention` lose their inputs and events.

use std::time::Duration;

use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::clock::HostClock;
use crate::config::Retention;
use crate::journal::Journal;

/// How often compaction looks for finished games past their retention; the first look is one
/// period after the start, so a restart recovers its boards first.
pub(crate) const COMPACT_EVERY: Duration = Duration::from_secs(600);

/// Runs compaction every `every` until `cancel`; nothing with `retention = "never"`.
pub(crate) fn spawn(
    journal: Journal,
    retention: Retention,
    every: Duration,
    clock: HostClock,
    cancel: CancellationToken,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        if retention == Retention::Never {
            return;
        }
        let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                () = cancel.cancelled() => break,
                _ = tick.tick() => run_once(&journal, retention, clock.now_ms()).await,
            }
        }
    })
}

async fn run_once(journal: &Journal, retention: Retention, now_ms: u64) {
    let journal = journal.clone();
    // SQLite work: off the async workers.
    match tokio::task::spawn_blocking(move || journal.compact(retention, now_ms)).await {
        Ok(Ok(done)) if done.epochs > 0 => tracing::info!(
            games = done.epochs,
            inputs = done.inputs,
            events = done.events,
            %retention,
            "finished games compacted: their SGF, summary and final state stay"
        ),
        Ok(Ok(_)) => {}
        // A full disk refuses deletes too; the next period tries again.
        Ok(Err(err)) => {
            tracing::warn!(cause = %err, "journal compaction failed; tried again later")
        }
        Err(err) => tracing::warn!(cause = %err, "journal compaction task failed"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{JournalConfig, Span};
    use crate::journal::{Batch, GameRecord, InputRecord};
    use crate::message::{Payload, Published, Topic};

    const T0: u64 = 1_796_029_200_000;

    fn build_batch(epoch: u64, seq: u64) -> Batch {
        let mut batch = Batch::new("t1", epoch);
        batch.open_epoch = true;
        batch.inputs.push(InputRecord {
            at_ms: T0,
            json: "{}".into(),
        });
        batch.events.push(Published {
            board: "t1".into(),
            seq,
            topic: Topic::Moves,
            at_ms: T0,
            payload: Payload::json(&serde_json::json!({"v": 1, "seq": seq})).expect("json"),
            view: None,
        });
        batch
    }

    #[tokio::test(start_paused = true)]
    async fn a_finished_game_is_compacted_at_the_first_run_after_its_retention() {
        let dir = tempfile::tempdir().expect("tempdir");
        let journal = Journal::open(&JournalConfig {
            path: dir.path().join("journal.sqlite"),
            ..JournalConfig::default()
        })
        .expect("journal");
        // Game 1 finished at T0 and its board started game 2.
        let mut finished = build_batch(1, 1);
        finished.game = Some(GameRecord {
            id: "g1".into(),
            finished_ms: T0,
            summary: Payload::json(&serde_json::json!({"game": "g1"})).expect("json"),
            state: Payload::json(&serde_json::json!({"phase": "finished"})).expect("json"),
            sgf: "(;)".into(),
        });
        finished.close_epoch = true;
        journal.write(finished).await.expect("write");
        journal.write(build_batch(2, 2)).await.expect("write");

        let retention = Retention::After(Span(Duration::from_secs(25 * 60)));
        let cancel = CancellationToken::new();
        let every = Duration::from_secs(600);
        let task = spawn(
            journal.clone(),
            retention,
            every,
            HostClock::anchored(T0),
            cancel.clone(),
        );
        let archive = journal.archive().expect("archive");
        let seqs = || -> Vec<u64> {
            let events = archive.events_since("t1", 0, 10).expect("events");
            events.iter().map(|e| e.seq).collect()
        };
        // Runs at 10 and 20 minutes: too early for a 25-minute retention.
        for _ in 0..2 {
            tokio::time::sleep(every).await;
            tokio::task::yield_now().await;
            assert_eq!(seqs(), vec![1, 2]);
        }
        // The run at 30 minutes compacts it (spawn_blocking: give it real time to finish, as
        // much as a loaded machine needs).
        tokio::time::sleep(every).await;
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        while std::time::Instant::now() < deadline {
            if seqs() == vec![2] {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
            tokio::task::yield_now().await;
        }
        assert_eq!(seqs(), vec![2]);
        assert_eq!(journal.recover("t1").expect("recover").inputs.len(), 1);
        cancel.cancel();
        task.await.expect("stops");
    }
}
