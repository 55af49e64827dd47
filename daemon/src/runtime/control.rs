//! The board's [`BoardControl`] handle for publishers, and the mapping of REST arbiter requests onto referee commands.

use std::sync::{Arc, RwLock};

use futures::future::BoxFuture;
use goban_referee::{ArbiterAct, ArbiterCommand, GameSetup, InfractionId, RulingAction};
use serde::Deserialize;
use tokio::sync::{mpsc, oneshot};

use crate::hub::{ArbiterRequest, BoardControl, RequestError};

/// A request travelling to the board's supervisor.
pub struct ControlMsg {
    /// What the arbiter asked.
    pub request: ArbiterRequest,
    /// Who asked (an arbiter label, never the token).
    pub who: String,
    /// Where the new state (or the refusal) goes.
    pub reply: oneshot::Sender<Result<serde_json::Value, RequestError>>,
}

/// Cloneable handle the hub keeps for one board.
#[derive(Clone)]
pub struct BoardHandle {
    board: String,
    requests: mpsc::Sender<ControlMsg>,
    sgf: Arc<RwLock<String>>,
}

impl BoardHandle {
    /// A handle sending to `requests`, reading the live SGF from `sgf`.
    pub fn new(board: &str, requests: mpsc::Sender<ControlMsg>, sgf: Arc<RwLock<String>>) -> Self {
        Self {
            board: board.to_owned(),
            requests,
            sgf,
        }
    }
}

impl BoardControl for BoardHandle {
    fn request(
        &self,
        request: ArbiterRequest,
        who: String,
    ) -> BoxFuture<'static, Result<serde_json::Value, RequestError>> {
        let requests = self.requests.clone();
        let board = self.board.clone();
        Box::pin(async move {
            let (reply, answer) = oneshot::channel();
            let gone = || RequestError::Unavailable(board.clone());
            requests
                .send(ControlMsg {
                    request,
                    who,
                    reply,
                })
                .await
                .map_err(|_| gone())?;
            answer.await.map_err(|_| gone())?
        })
    }

    fn sgf(&self) -> String {
        // A poisoned lock still holds the last SGF written.
        self.sgf.read().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

#[derive(Deserialize)]
struct RulingBody {
    action: RulingAction,
    #[serde(default)]
    note: String,
}

#[derive(Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
enum ClockBody {
    Pause,
    Resume,
    Adjust {
        color: goban_rules::Color,
        delta_ms: i64,
    },
}

#[derive(Deserialize)]
struct DeadStonesBody {
    points: Vec<String>,
    dead: bool,
}

#[derive(Deserialize)]
struct ResultBody {
    result: String,
}

fn body<T: serde::de::DeserializeOwned>(
    value: serde_json::Value,
    what: &str,
) -> Result<T, RequestError> {
    serde_json::from_value(value).map_err(|err| RequestError::Rejected(format!("{what}: {err}")))
}

/// The signed referee command of a REST request (api.md "Arbiter request bodies").
pub fn act_of(request: ArbiterRequest, who: &str) -> Result<ArbiterAct, RequestError> {
    if let ArbiterRequest::Act(act) = request {
        return Ok(act);
    }
    Ok(ArbiterAct {
        by: who.to_owned(),
        note: None,
        command: command_of(request, who)?,
    })
}

/// The referee command of a REST request (api.md "Arbiter request bodies").
pub fn command_of(request: ArbiterRequest, who: &str) -> Result<ArbiterCommand, RequestError> {
    Ok(match request {
        ArbiterRequest::Act(act) => act.command,
        ArbiterRequest::StartGame(value) => ArbiterCommand::StartGame(start_setup(value)?),
        ArbiterRequest::Ruling { id, body: value } => {
            let ruling: RulingBody = body(value, "ruling")?;
            ArbiterCommand::Ruling {
                id: InfractionId(id),
                action: ruling.action,
                note: ruling.note,
            }
        }
        ArbiterRequest::Clock(value) => match body::<ClockBody>(value, "clock")? {
            ClockBody::Pause => ArbiterCommand::Pause,
            ClockBody::Resume => ArbiterCommand::Resume,
            ClockBody::Adjust { color, delta_ms } => ArbiterCommand::AdjustClock {
                color,
                delta_ms,
                by: who.to_owned(),
            },
        },
        ArbiterRequest::DeadStones(value) => {
            let dead: DeadStonesBody = body(value, "dead-stones")?;
            ArbiterCommand::MarkDead {
                points: dead.points,
                dead: dead.dead,
            }
        }
        ArbiterRequest::Result(value) => ArbiterCommand::SetResult {
            result: body::<ResultBody>(value, "result")?.result,
            force: true,
        },
    })
}

/// The game setup of a `POST /game` body; the game id is set by the supervisor.
fn start_setup(value: serde_json::Value) -> Result<GameSetup, RequestError> {
    let value = if value.is_null() {
        serde_json::json!({})
    } else {
        value
    };
    let mut setup: GameSetup = body(value, "game")?;
    // The daemon names games; a client-chosen id could collide with the archive.
    setup.game = None;
    Ok(setup)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn bodies_map_to_commands() {
        let cmd = command_of(
            ArbiterRequest::Clock(
                json!({"action": "adjust", "color": "black", "delta_ms": -60000}),
            ),
            "arbiter#1",
        );
        assert!(
            matches!(cmd, Ok(ArbiterCommand::AdjustClock { delta_ms: -60000, ref by, .. }) if by == "arbiter#1")
        );
        let cmd = command_of(
            ArbiterRequest::Ruling {
                id: "g/1".into(),
                body: json!({"action": "dismiss"}),
            },
            "a",
        );
        assert!(matches!(
            cmd,
            Ok(ArbiterCommand::Ruling {
                action: RulingAction::Dismiss,
                ..
            })
        ));
        let cmd = command_of(ArbiterRequest::Result(json!({"result": "B+R"})), "a");
        assert!(matches!(cmd, Ok(ArbiterCommand::SetResult { ref result, .. }) if result == "B+R"));
        let cmd = command_of(
            ArbiterRequest::StartGame(json!({"black": "Lee", "komi": 6.5})),
            "a",
        );
        assert!(
            matches!(cmd, Ok(ArbiterCommand::StartGame(ref s)) if s.black.as_deref() == Some("Lee"))
        );
    }

    #[test]
    fn bad_bodies_are_rejected() {
        for request in [
            ArbiterRequest::Clock(json!({"action": "explode"})),
            ArbiterRequest::DeadStones(json!({"points": "D4"})),
            ArbiterRequest::Ruling {
                id: "x".into(),
                body: json!({}),
            },
            ArbiterRequest::StartGame(json!({"komi": "lots"})),
        ] {
            assert!(matches!(
                command_of(request, "a"),
                Err(RequestError::Rejected(_))
            ));
        }
    }
}
