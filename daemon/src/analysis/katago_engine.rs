//! KataGo's analysis engine as one child process serving several positions at once: queries written as they come, answers matched to them by id.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use goban_rules::Color;
use tokio::io::{AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout};
use tokio::sync::oneshot;

use super::config::{Perspective, Priority};
use super::katago::{self, Query, Reply};
use super::position::Position;
use super::process::{EngineError, EngineProcess};
use super::report::Verdict;

type Waiting = HashMap<String, (Color, oneshot::Sender<Result<Verdict, String>>)>;

/// A running KataGo analysis engine; cheap to share.
pub struct KatagoEngine {
    stdin: tokio::sync::Mutex<ChildStdin>,
    waiting: Arc<Mutex<Waiting>>,
    /// Killed with the engine (`kill_on_drop`).
    _child: Child,
    /// `KataGo <version>`.
    pub name: String,
}

impl KatagoEngine {
    /// Starts KataGo, asks its version, and starts reading its answers.
    pub async fn start(
        command: &[String],
        priority: Priority,
        perspective: Perspective,
        keep: usize,
    ) -> Result<Arc<Self>, EngineError> {
        let (child, mut stdin, mut lines) = EngineProcess::spawn(command, priority)?.split();
        stdin
            .write_all(b"{\"id\":\"version\",\"action\":\"query_version\"}\n")
            .await?;
        stdin.flush().await?;
        let name = read_version(&mut lines).await?;
        let waiting: Arc<Mutex<Waiting>> = Arc::default();
        tokio::spawn(read_replies(lines, waiting.clone(), perspective, keep));
        Ok(Arc::new(Self {
            stdin: tokio::sync::Mutex::new(stdin),
            waiting,
            _child: child,
            name,
        }))
    }

    /// KataGo's view of `position` with `max_visits` visits and `budget` of time; a query
    /// not answered by twice the budget is terminated.
    pub async fn analyse(
        &self,
        position: &Position,
        max_visits: u32,
        budget: Duration,
    ) -> Result<Verdict, EngineError> {
        let query = Query::of(position, max_visits, budget.as_secs_f64());
        let (tell, answer) = oneshot::channel();
        self.lock_waiting()
            .insert(query.id.clone(), (position.to_move(), tell));
        self.write(&query.line()).await?;
        match tokio::time::timeout(budget * 2, answer).await {
            Ok(Ok(Ok(verdict))) => Ok(verdict),
            Ok(Ok(Err(error))) => Err(EngineError::Katago(error)),
            Ok(Err(_)) => Err(EngineError::Exited),
            Err(_) => {
                self.lock_waiting().remove(&query.id);
                let stop = serde_json::json!({
                    "id": format!("stop-{}", query.id),
                    "action": "terminate",
                    "terminateId": query.id,
                });
                self.write(&format!("{stop}\n")).await?;
                Err(EngineError::TooSlow(budget * 2))
            }
        }
    }

    async fn write(&self, line: &str) -> Result<(), EngineError> {
        let mut stdin = self.stdin.lock().await;
        stdin.write_all(line.as_bytes()).await?;
        stdin.flush().await?;
        Ok(())
    }

    fn lock_waiting(&self) -> std::sync::MutexGuard<'_, Waiting> {
        // A poisoned map only means a panic elsewhere mid-insert; it is still usable.
        self.waiting.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The answer to `query_version`: `{"id":"version","version":"1.15.3","git_hash":...}`.
async fn read_version(lines: &mut Lines<BufReader<ChildStdout>>) -> Result<String, EngineError> {
    loop {
        let line = lines.next_line().await?.ok_or(EngineError::Exited)?;
        let Ok(value) = serde_json::from_str::<serde_json::Value>(&line) else {
            continue;
        };
        if value["id"] == "version" {
            let version = value["version"].as_str().unwrap_or("");
            return Ok(format!("KataGo {version}").trim().to_owned());
        }
    }
}

/// Hands every final answer to the query waiting for it; at the engine's end, every waiting
/// query learns it exited (its sender is dropped).
async fn read_replies(
    mut lines: Lines<BufReader<ChildStdout>>,
    waiting: Arc<Mutex<Waiting>>,
    perspective: Perspective,
    keep: usize,
) {
    while let Ok(Some(line)) = lines.next_line().await {
        let id = katago::peek_id(&line);
        let side = id
            .as_ref()
            .and_then(|id| lock(&waiting).get(id).map(|(side, _)| *side))
            .unwrap_or(Color::Black);
        let (id, outcome) = match katago::decode(&line, perspective, side, keep) {
            Reply::Result { id, verdict } => (id, Ok(verdict)),
            Reply::Failed {
                id: Some(id),
                error,
            } => (id, Err(error)),
            Reply::Failed { id: None, error } => {
                tracing::warn!(cause = %error, "KataGo reported an error");
                continue;
            }
            Reply::Warning(warning) => {
                tracing::warn!(%warning, "KataGo warned");
                continue;
            }
            Reply::Other => continue,
        };
        if let Some((_, tell)) = lock(&waiting).remove(&id) {
            // The asker may have given up (timeout); nothing to do then.
            let _ = tell.send(outcome);
        }
    }
    lock(&waiting).clear();
    tracing::warn!("KataGo's analysis engine exited");
}

fn lock(waiting: &Mutex<Waiting>) -> std::sync::MutexGuard<'_, Waiting> {
    waiting.lock().unwrap_or_else(|e| e.into_inner())
}
