//! The board's [`BoardControl`] handle for publishers: typed arbiter commands to the board's supervisor.

use std::sync::Arc;

use futures::future::BoxFuture;
use tokio::sync::{mpsc, oneshot};

use crate::message::BoardView;
use crate::publish::hub::{ArbiterRequest, BoardControl, RequestError};

/// A request travelling to the board's supervisor.
pub(crate) struct ControlMsg {
    /// What the arbiter asked, and who.
    pub(crate) request: ArbiterRequest,
    /// Where the new board view (or the refusal) goes.
    pub(crate) reply: oneshot::Sender<Result<Arc<BoardView>, RequestError>>,
}

/// Cloneable handle the hub keeps for one board.
#[derive(Clone)]
pub(crate) struct BoardHandle {
    board: Arc<str>,
    requests: mpsc::Sender<ControlMsg>,
}

impl BoardHandle {
    /// A handle sending to `requests`.
    pub(crate) fn new(board: Arc<str>, requests: mpsc::Sender<ControlMsg>) -> Self {
        Self { board, requests }
    }

    /// The board's id.
    pub(crate) fn board(&self) -> &str {
        &self.board
    }
}

impl BoardControl for BoardHandle {
    fn request(
        &self,
        request: ArbiterRequest,
    ) -> BoxFuture<'static, Result<Arc<BoardView>, RequestError>> {
        let requests = self.requests.clone();
        let board = self.board.clone();
        Box::pin(async move {
            let (reply, answer) = oneshot::channel();
            let gone = || RequestError::Unavailable(board.to_string());
            requests
                .send(ControlMsg { request, reply })
                .await
                .map_err(|_| gone())?;
            answer.await.map_err(|_| gone())?
        })
    }
}
