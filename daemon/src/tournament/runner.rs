//! The desk's two tasks: watch the boards for finished games, and push each confirmed result to its targets until accepted.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use goban_tournament::pairgoth::ResultBody;
use goban_tournament::{Decision, TableNo, opengotha};
use tokio::sync::broadcast::error::RecvError;
use tokio_util::sync::CancellationToken;

use super::announce::Announce;
use super::boards;
use super::desk::{Desk, now_ms};
use super::store::Push;
use super::views::ResultView;

/// Watches every board state published on `bus` (subscribed before the
/// boards start, so no state is missed); a seated game that finished is recorded.
pub async fn watch(
    desk: Arc<Desk>,
    mut bus: tokio::sync::broadcast::Receiver<crate::message::Published>,
    shutdown: CancellationToken,
) {
    // Results confirmed while the daemon was down are in the recovered states.
    resync(&desk);
    loop {
        let message = tokio::select! {
            () = shutdown.cancelled() => break,
            message = bus.recv() => message,
        };
        match message {
            Ok(message) => {
                if let Some(state) = boards::state_of(&message)
                    && let Err(error) = desk.handle_state(&state)
                {
                    tracing::warn!(board = %state.board, cause = %error, "tournament: result not recorded");
                }
            }
            Err(RecvError::Lagged(missed)) => {
                tracing::warn!(missed, "tournament watcher lagged; re-reading the boards");
                resync(&desk);
            }
            Err(RecvError::Closed) => break,
        }
    }
}

fn resync(desk: &Desk) {
    for board in desk.hub().boards() {
        if let Some(state) = boards::current(desk.hub(), &board)
            && let Err(error) = desk.handle_state(&state)
        {
            tracing::warn!(board = %board, cause = %error, "tournament: result not recorded");
        }
    }
}

/// A push a target refused twice the same way: not tried again until its
/// decision changes, the daemon restarts, or [`HELD_RETRIES`] retry waits pass.
type Held = HashMap<(u32, TableNo, String), (Decision, Instant)>;

/// A held push is tried again, quietly, after this many `retry` waits.
const HELD_RETRIES: u32 = 60;

/// Why a push failed, and whether waiting may help.
struct PushError {
    message: String,
    transient: bool,
}

impl PushError {
    fn lasting(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            transient: false,
        }
    }
}

/// Pushes owed results until each target accepts; waits `retry` after a failure.
/// A target that refuses a result twice the same way (a 4xx, a file it cannot
/// write) raises a desk alert, and that push waits for a person instead of looping.
pub async fn push(
    desk: Arc<Desk>,
    announce: Option<Arc<dyn Announce>>,
    shutdown: CancellationToken,
) {
    let mut held = Held::new();
    loop {
        let failed = push_pending(&desk, announce.as_deref(), &mut held).await;
        tokio::select! {
            () = shutdown.cancelled() => break,
            () = desk.wake.notified() => {}
            () = tokio::time::sleep(desk.config.retry.0), if failed => {}
        }
    }
}

/// One pass over the outbox; true when a push failed and should be retried.
async fn push_pending(desk: &Desk, announce: Option<&dyn Announce>, held: &mut Held) -> bool {
    let pending = match desk.store().pending_pushes() {
        Ok(pending) => pending,
        Err(error) => {
            tracing::error!(cause = %error, "tournament outbox unreadable");
            return true;
        }
    };
    let hold_for = desk.config.retry.0 * HELD_RETRIES;
    let mut failed = false;
    let mut announced = false;
    for item in pending {
        let key = (item.round, item.table, item.target.clone());
        if let Some((decision, since)) = held.get(&key)
            && *decision == item.decision
            && since.elapsed() < hold_for
        {
            failed = true;
            continue;
        }
        let outcome = deliver(desk, announce, &item).await;
        let stored = match &outcome {
            Ok(()) => {
                held.remove(&key);
                desk.push_accepted(&item);
                desk.store().mark_pushed(&item, now_ms())
            }
            Err(error) => {
                failed = true;
                refused(desk, &item, error, held)
            }
        };
        announced |= outcome.is_ok() && item.target == "mqtt";
        if let Err(error) = stored {
            tracing::error!(cause = %error, "tournament outbox not updated");
        }
    }
    if announced && let Some(announce) = announce {
        publish_standings(desk, announce);
    }
    failed
}

/// Records a failed push; the same lasting refusal twice raises the alert and holds the push.
fn refused(
    desk: &Desk,
    item: &Push,
    error: &PushError,
    held: &mut Held,
) -> Result<(), super::store::StoreError> {
    let before = desk.store().mark_failed(item, &error.message)?;
    let again = before.as_deref() == Some(error.message.as_str());
    if again {
        tracing::debug!(target = %item.target, round = item.round, table = %item.table, cause = %error.message, "tournament result refused again");
    } else {
        tracing::warn!(target = %item.target, round = item.round, table = %item.table, cause = %error.message, "tournament result not pushed yet");
    }
    if again && !error.transient {
        held.insert(
            (item.round, item.table, item.target.clone()),
            (item.decision, Instant::now()),
        );
        desk.push_refused(item, &error.message);
    }
    Ok(())
}

async fn deliver(
    desk: &Desk,
    announce: Option<&dyn Announce>,
    item: &Push,
) -> Result<(), PushError> {
    match item.target.as_str() {
        "pairgoth" => push_pairgoth(desk, item).await,
        "opengotha" => match &desk.config.opengotha_file {
            Some(path) => write_opengotha(path, item.round, item.table, item.decision)
                .await
                .map_err(PushError::lasting),
            None => Err(PushError::lasting("no opengotha_file configured")),
        },
        "mqtt" => {
            let Some(announce) = announce else {
                return Ok(());
            };
            let results = desk
                .store()
                .results()
                .map_err(|e| PushError::lasting(e.to_string()))?;
            let result = results
                .iter()
                .find(|r| r.round == item.round && r.table == item.table)
                .ok_or_else(|| PushError::lasting("result vanished"))?;
            let payload = serde_json::to_string(&ResultView::new(result))
                .map_err(|e| PushError::lasting(e.to_string()))?;
            announce
                .publish("results", payload, false)
                .map_err(|message| PushError {
                    message,
                    transient: true,
                })
        }
        other => Err(PushError::lasting(format!("unknown target {other}"))),
    }
}

async fn push_pairgoth(desk: &Desk, item: &Push) -> Result<(), PushError> {
    let client = desk
        .pairgoth
        .as_ref()
        .ok_or_else(|| PushError::lasting("no Pairgoth configured"))?;
    let round = desk
        .store()
        .round(item.round)
        .map_err(|e| PushError::lasting(e.to_string()))?
        .ok_or_else(|| PushError::lasting("round vanished"))?;
    let tid: u64 = round
        .source
        .strip_prefix("pairgoth:")
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| PushError::lasting("round not from Pairgoth"))?;
    let game = round
        .round
        .at_table(item.table)
        .and_then(|p| p.game_id)
        .ok_or_else(|| PushError::lasting("no Pairgoth game id for this table"))?;
    client
        .put_result(tid, item.round, &ResultBody::new(game, item.decision))
        .await
        .map_err(|e| PushError {
            transient: e.is_transient(),
            message: e.to_string(),
        })
}

/// Writes one result into the OpenGotha file: a new file beside it, then a rename, so
/// OpenGotha never reads half a file.
async fn write_opengotha(
    path: &Path,
    round: u32,
    table: TableNo,
    decision: Decision,
) -> Result<(), String> {
    let text = tokio::fs::read_to_string(path)
        .await
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let results = BTreeMap::from([((round, table), decision)]);
    let written = opengotha::write_results(&text, &results).map_err(|e| e.to_string())?;
    let temp = path.with_extension("xml.goban-bridge.tmp");
    tokio::fs::write(&temp, written)
        .await
        .map_err(|e| format!("{}: {e}", temp.display()))?;
    tokio::fs::rename(&temp, path)
        .await
        .map_err(|e| format!("{}: {e}", path.display()))
}

fn publish_standings(desk: &Desk, announce: &dyn Announce) {
    let outcome = desk
        .standings()
        .map_err(|e| e.to_string())
        .and_then(|s| serde_json::to_string(&s).map_err(|e| e.to_string()))
        .and_then(|payload| announce.publish("standings", payload, true));
    if let Err(error) = outcome {
        tracing::warn!(cause = %error, "tournament standings not published");
    }
}
