//! The K engine slots that analyse positions at once: one GTP process each, or K queries in flight to one KataGo; a slot whose engine fails or overruns gets a fresh one.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;

use super::config::{AnalysisConfig, GtpStyle, Resolved};
use super::gtp_engine::GtpEngine;
use super::katago_engine::KatagoEngine;
use super::position::Position;
use super::process::EngineError;
use super::report::Verdict;

/// A slot's answer about one position.
pub(crate) struct Finished {
    /// The slot, free again.
    pub slot: usize,
    /// The position it was given.
    pub position: Position,
    /// The engine's view, or why there is none.
    pub outcome: Result<Verdict, EngineError>,
}

/// The slots and which of them are free.
pub(crate) struct Slots {
    senders: Vec<mpsc::Sender<Position>>,
    idle: Vec<usize>,
    name: String,
}

/// What a slot analyses with.
enum Analyst {
    /// Its own GTP process, started again after a failure.
    Gtp {
        engine: Option<Box<GtpEngine>>,
        command: Vec<String>,
        style: GtpStyle,
    },
    /// A share of the one KataGo process.
    Katago(Arc<KatagoEngine>),
}

impl Slots {
    /// Starts the engine (the first GTP process, or KataGo) to learn it works and its name,
    /// then `config.max_boards` slots reporting to `done`.
    pub(crate) async fn start(
        resolved: &Resolved,
        config: &AnalysisConfig,
        done: mpsc::Sender<Finished>,
    ) -> Result<Self, EngineError> {
        let count = config.max_boards.max(1);
        let mut analysts = Vec::with_capacity(count);
        let name = match resolved {
            Resolved::Off(_) => return Err(EngineError::NoCommand),
            Resolved::Gtp(command, style) => {
                let first = GtpEngine::start(command, *style, config.priority()).await?;
                let name = first.name.clone();
                let mut first = Some(Box::new(first));
                for _ in 0..count {
                    analysts.push(Analyst::Gtp {
                        engine: first.take(),
                        command: command.clone(),
                        style: *style,
                    });
                }
                name
            }
            Resolved::Katago(command) => {
                let engine = KatagoEngine::start(
                    command,
                    config.priority(),
                    config.report_as,
                    config.candidates,
                )
                .await?;
                analysts.extend((0..count).map(|_| Analyst::Katago(engine.clone())));
                engine.name.clone()
            }
        };
        let mut senders = Vec::with_capacity(count);
        for (slot, analyst) in analysts.into_iter().enumerate() {
            let (sender, receiver) = mpsc::channel(1);
            senders.push(sender);
            tokio::spawn(run_slot(
                slot,
                analyst,
                config.clone(),
                receiver,
                done.clone(),
            ));
        }
        Ok(Self {
            idle: (0..count).rev().collect(),
            senders,
            name,
        })
    }

    /// The engine's name and version.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// Whether a slot is free.
    pub(crate) fn has_idle(&self) -> bool {
        !self.idle.is_empty()
    }

    /// Gives `position` to a free slot (the caller checked [`Slots::has_idle`]).
    pub(crate) fn hand(&mut self, position: Position) {
        let Some(slot) = self.idle.pop() else {
            return;
        };
        // An idle slot's channel is empty, so this never finds it full; a slot task that
        // ended (its engine could not restart) drops the position.
        if self.senders[slot].try_send(position).is_err() {
            tracing::warn!(slot, "analysis slot gone");
        }
    }

    /// A slot is free again.
    pub(crate) fn handle_idle(&mut self, slot: usize) {
        if !self.idle.contains(&slot) {
            self.idle.push(slot);
        }
    }
}

async fn run_slot(
    slot: usize,
    mut analyst: Analyst,
    config: AnalysisConfig,
    mut positions: mpsc::Receiver<Position>,
    done: mpsc::Sender<Finished>,
) {
    while let Some(position) = positions.recv().await {
        let outcome = analyst.analyse(&position, &config).await;
        let finished = Finished {
            slot,
            position,
            outcome,
        };
        if done.send(finished).await.is_err() {
            return;
        }
    }
}

impl Analyst {
    async fn analyse(
        &mut self,
        position: &Position,
        config: &AnalysisConfig,
    ) -> Result<Verdict, EngineError> {
        let budget = config.time_per_position.0;
        match self {
            Self::Katago(engine) => engine.analyse(position, config.max_visits, budget).await,
            Self::Gtp {
                engine,
                command,
                style,
            } => {
                let mut running = match engine.take() {
                    Some(running) => running,
                    None => Box::new(GtpEngine::start(command, *style, config.priority()).await?),
                };
                let limit = patience(config);
                let answer = tokio::time::timeout(
                    limit,
                    running.analyse(position, budget, config.candidates),
                )
                .await
                .unwrap_or(Err(EngineError::TooSlow(limit)));
                // A failed or overrunning engine is dropped (killed); the next position starts
                // a fresh one, so a half-read answer can never be taken for the next one's.
                if answer.is_ok() {
                    *engine = Some(running);
                }
                answer
            }
        }
    }
}

/// Twice the time budget: past it, an engine is given up on for that position.
fn patience(config: &AnalysisConfig) -> Duration {
    (config.time_per_position.0 * 2).max(Duration::from_secs(1))
}
