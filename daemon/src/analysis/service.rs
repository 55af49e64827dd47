//! The analysis task: takes each new position from the hub, queues it by the budget's rules, hands it to an engine slot, and publishes the answer beside its position on the public feed.

use std::collections::HashMap;
use std::sync::Arc;

use tokio::sync::broadcast::{self, error::RecvError};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::config::{AnalysisConfig, Resolved};
use super::position::Position;
use super::report::{ANALYSIS_VERSION, Analysis, EngineInfo, Verdict};
use super::schedule::Schedule;
use super::slots::{Finished, Slots};
use super::store::PublicAnalysis;
use crate::message::{Payload, Published, Topic};
use crate::publish::delay::Feed;

/// What distinguishes a board's position from its previous one.
type Key = (Option<String>, u32, String, goban_rules::Color);

/// Starts analysis as `config` says (or says why not, in the returned store), publishing on
/// `public` (the hub, or the broadcast delay) each analysis once its position is public there.
pub fn start(
    config: &AnalysisConfig,
    public: &Feed,
    shutdown: &CancellationToken,
) -> PublicAnalysis {
    let store = PublicAnalysis::follow(public, shutdown.child_token());
    let resolved = config.resolve(std::env::var("PATH").ok().as_deref());
    if let Resolved::Off(why) = &resolved {
        tracing::info!(reason = %why, "analysis off");
        store.set_off(why.clone());
        return store;
    }
    let service = Service {
        config: config.clone(),
        public: public.clone(),
        store: store.clone(),
        schedule: Schedule::new(
            config.max_boards,
            config.featured.iter().map(|b| Arc::from(b.as_str())),
        ),
        last: HashMap::new(),
        engine: None,
    };
    let hub = public.hub().clone();
    let receiver = hub.subscribe();
    tokio::spawn(service.run(resolved, receiver, shutdown.child_token()));
    store
}

struct Service {
    config: AnalysisConfig,
    public: Feed,
    store: PublicAnalysis,
    schedule: Schedule,
    /// Per board, the last position queued, to skip states that did not change it.
    last: HashMap<Arc<str>, Key>,
    engine: Option<EngineInfo>,
}

impl Service {
    async fn run(
        mut self,
        resolved: Resolved,
        mut receiver: broadcast::Receiver<Published>,
        shutdown: CancellationToken,
    ) {
        let (done_tx, mut done) = mpsc::channel(self.config.max_boards.max(1) * 2);
        let mut slots = match Slots::start(&resolved, &self.config, done_tx).await {
            Ok(slots) => slots,
            Err(error) => {
                tracing::error!(cause = %error, "analysis engine did not start; analysis off");
                self.store
                    .set_off(format!("the engine did not start: {error}"));
                return;
            }
        };
        let info = EngineInfo {
            name: slots.name().to_owned(),
            budget: self
                .config
                .budget_words(matches!(resolved, Resolved::Katago(_))),
        };
        tracing::info!(engine = %info.name, budget = %info.budget, "analysis on");
        self.store.set_engine(info.clone());
        self.engine = Some(info);
        self.queue_current_boards();
        loop {
            self.dispatch(&mut slots);
            tokio::select! {
                () = shutdown.cancelled() => break,
                received = receiver.recv() => match received {
                    Ok(message) => self.handle_message(&message),
                    // A state skipped is no loss: the board's next one is analysed.
                    Err(RecvError::Lagged(_)) => {}
                    Err(RecvError::Closed) => break,
                },
                Some(finished) = done.recv() => self.handle_finished(&mut slots, finished),
            }
        }
    }

    fn queue_current_boards(&mut self) {
        let hub = self.public.hub().clone();
        for board in hub.boards() {
            if let Some(view) = hub.view(&board) {
                self.consider(board, view);
            }
        }
    }

    fn handle_message(&mut self, message: &Published) {
        if let (Topic::State, Some(view)) = (message.topic, &message.view) {
            self.consider(message.board.clone(), view.clone());
        }
    }

    fn consider(&mut self, board: Arc<str>, view: Arc<crate::message::BoardView>) {
        let Some(position) = Position::of(board.clone(), view) else {
            return;
        };
        let (game, moves, stones, side) = position.key();
        let key = (game.map(str::to_owned), moves, stones.to_owned(), side);
        if self.last.get(&board) == Some(&key) {
            return;
        }
        self.last.insert(board, key);
        self.schedule.handle_position(position);
        metrics::gauge!("goban_analysis_waiting").set(self.schedule.waiting() as f64);
    }

    fn dispatch(&mut self, slots: &mut Slots) {
        while slots.has_idle() {
            let Some(position) = self.schedule.poll_next() else {
                return;
            };
            slots.hand(position);
        }
    }

    fn handle_finished(&mut self, slots: &mut Slots, finished: Finished) {
        slots.handle_idle(finished.slot);
        self.schedule.handle_done(&finished.position.board);
        match finished.outcome {
            Ok(verdict) => self.publish(&finished.position, verdict),
            Err(error) => {
                metrics::counter!("goban_analysis_failures_total").increment(1);
                tracing::warn!(board = %finished.position.board, cause = %error, "analysis failed");
            }
        }
    }

    fn publish(&self, position: &Position, verdict: Verdict) {
        let Some(engine) = self.engine.clone() else {
            return;
        };
        let at_ms = now_ms();
        let state = &position.view.state;
        let analysis = Analysis {
            v: ANALYSIS_VERSION,
            position_seq: position.seq(),
            board: position.board.to_string(),
            game: state.game.clone(),
            move_number: state.move_number,
            to_move: state.to_move,
            score_lead: verdict.score_lead,
            winrate: verdict.winrate,
            candidates: verdict.candidates,
            engine,
            analysed_ms: at_ms,
        };
        let Ok(payload) = Payload::json(&analysis) else {
            return;
        };
        metrics::counter!("goban_analysis_positions_total").increment(1);
        self.public.publish_beside(Published {
            board: position.board.clone(),
            seq: position.seq(),
            topic: Topic::Analysis,
            at_ms,
            payload,
            view: None,
        });
    }
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}
