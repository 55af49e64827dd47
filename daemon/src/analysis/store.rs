//! What the public has been shown of the analysis, per board: the latest analysis and the lead over the game, for `GET /boards/{board}/analysis` and the SGF.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

use serde::Serialize;
use tokio::sync::broadcast::error::RecvError;
use tokio_util::sync::CancellationToken;

use super::report::{Analysis, EngineInfo};
use crate::message::{Payload, Topic};
use crate::publish::delay::Feed;

/// Points of the lead graph kept per game; a longer game keeps its last ones.
const HISTORY_CAPACITY: usize = 1024;

/// One point of the graph over the game.
#[derive(Clone, Debug, PartialEq, Serialize, utoipa::ToSchema)]
pub struct LeadPoint {
    /// Moves played in the analysed position.
    pub move_number: u32,
    /// The analysed state's seq.
    pub position_seq: u64,
    /// Black's lead in points.
    pub score_lead: Option<f64>,
    /// Black's win probability, 0..1.
    pub winrate: Option<f64>,
    /// The engine's first choice for the side to move.
    pub best: Option<String>,
}

#[derive(Default)]
struct BoardRecord {
    game: Option<String>,
    latest: Option<Analysis>,
    history: VecDeque<LeadPoint>,
}

/// `GET /boards/{board}/analysis`: what the public has been shown of a board's analysis.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct AnalysisPage {
    /// Schema version (1).
    pub v: u8,
    /// Board id.
    pub board: String,
    /// Whether an engine runs.
    pub enabled: bool,
    /// The engine and its budget, when one runs.
    pub engine: Option<EngineInfo>,
    /// Why analysis is off, when it is.
    pub off_reason: Option<String>,
    /// The latest analysis released (the `analysis` message), if any.
    pub latest: Option<Analysis>,
    /// Black's lead over the current game, one point per analysed position, oldest first.
    pub history: Vec<LeadPoint>,
}

/// Whether analysis runs, and with what.
#[derive(Clone, Debug, Default)]
struct Status {
    engine: Option<EngineInfo>,
    off: Option<String>,
}

/// The analyses the public feed released, per board; cheap to clone.
#[derive(Clone, Default)]
pub struct PublicAnalysis {
    boards: Arc<Mutex<HashMap<Arc<str>, BoardRecord>>>,
    status: Arc<Mutex<Status>>,
}

impl PublicAnalysis {
    /// A store filled from what `feed` releases, until `shutdown`.
    pub fn follow(feed: &Feed, shutdown: CancellationToken) -> Self {
        let store = Self::default();
        let mut receiver = feed.subscribe();
        let filler = store.clone();
        tokio::spawn(async move {
            loop {
                let message = tokio::select! {
                    () = shutdown.cancelled() => break,
                    message = receiver.recv() => message,
                };
                match message {
                    Ok(message) if message.topic == Topic::Analysis => {
                        filler.record(&message.board, message.payload);
                    }
                    Ok(_) | Err(RecvError::Lagged(_)) => {}
                    Err(RecvError::Closed) => break,
                }
            }
        });
        store
    }

    /// Records a released analysis of `board`.
    pub(crate) fn record(&self, board: &Arc<str>, payload: Payload) {
        let Ok(analysis) = serde_json::from_str::<Analysis>(payload.as_str()) else {
            tracing::error!(board = %board, "released analysis does not read back");
            return;
        };
        let mut boards = lock(&self.boards);
        let record = boards.entry(board.clone()).or_default();
        if record.game != analysis.game {
            *record = BoardRecord {
                game: analysis.game.clone(),
                ..BoardRecord::default()
            };
        }
        // A voided move: the graph goes back with the game.
        while record
            .history
            .back()
            .is_some_and(|p| p.move_number >= analysis.move_number)
        {
            record.history.pop_back();
        }
        if record.history.len() >= HISTORY_CAPACITY {
            record.history.pop_front();
        }
        record.history.push_back(LeadPoint {
            move_number: analysis.move_number,
            position_seq: analysis.position_seq,
            score_lead: analysis.score_lead,
            winrate: analysis.winrate,
            best: analysis.candidates.first().map(|c| c.point.clone()),
        });
        record.latest = Some(analysis);
    }

    /// Says which engine runs (once it answered).
    pub(crate) fn set_engine(&self, engine: EngineInfo) {
        let mut status = lock(&self.status);
        status.engine = Some(engine);
        status.off = None;
    }

    /// Says why analysis is off.
    pub(crate) fn set_off(&self, why: String) {
        let mut status = lock(&self.status);
        status.engine = None;
        status.off = Some(why);
    }

    /// The engine analysing, if one runs.
    pub fn engine(&self) -> Option<EngineInfo> {
        lock(&self.status).engine.clone()
    }

    /// The `GET /boards/{board}/analysis` body.
    pub fn page(&self, board: &str) -> AnalysisPage {
        let status = lock(&self.status).clone();
        let boards = lock(&self.boards);
        let record = boards.get(board);
        AnalysisPage {
            v: 1,
            board: board.to_owned(),
            enabled: status.engine.is_some(),
            engine: status.engine,
            off_reason: status.off,
            latest: record.and_then(|r| r.latest.clone()),
            history: record.map_or_else(Vec::new, |r| r.history.iter().cloned().collect()),
        }
    }

    /// The lead over `board`'s game `game` as the public saw it, by move number (for the SGF).
    pub fn history(&self, board: &str, game: Option<&str>) -> Vec<LeadPoint> {
        lock(&self.boards)
            .get(board)
            .filter(|r| r.game.as_deref() == game)
            .map(|r| r.history.iter().cloned().collect())
            .unwrap_or_default()
    }
}

impl std::fmt::Debug for PublicAnalysis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PublicAnalysis")
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A poisoned lock only means a panic elsewhere mid-update; the data is still usable.
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}
