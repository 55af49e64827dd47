//! `POST /boards/{board}/moves/{n}/order`: the arbiter gives the order of a setup block's moves, read strictly.

use goban_referee::ArbiterCommand;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{Validate, check_note};
use crate::http::error::ApiError;

/// `POST /boards/{board}/moves/{n}/order`: the order of the moves `n`.. recorded as a setup
/// block (played while the board could not see, `order_known: false`).
///
/// `points` are the block's stones, each once, in the order they were played: one of each
/// colour in turn from the side that was to move. The moves become ordinary moves, a
/// `correction` for each whose point changes, the block's `board_unavailable` alert is
/// resolved; the later moves are played again after them.
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct OrderBody {
    /// The block's stones like `D4`, in the order played.
    #[schema(example = json!(["G3", "C7", "G7"]), min_items = 1, max_items = 361, value_type = Vec<super::PointName>)]
    pub(crate) points: Vec<String>,
    /// The arbiter's note for the audit trail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(
        max_length = 800,
        pattern = "^[^\\u0000-\\u0009\\u000b-\\u001f\\u007f-\\u009f]*$"
    )]
    pub(crate) note: Option<String>,
}

impl Validate for OrderBody {
    fn validate(&self) -> Result<(), ApiError> {
        super::check_points(&self.points)?;
        check_note(self.note.as_deref())
    }
}

impl OrderBody {
    /// Normalises every point to upper case, checking it lies on the board (api.md "Points").
    pub(crate) fn normalise(mut self, size: u32) -> Result<Self, ApiError> {
        super::normalise_points(&mut self.points, size)?;
        Ok(self)
    }

    /// The referee's command for the block starting at move `first`.
    pub(crate) fn command(&self, first: u32) -> ArbiterCommand {
        ArbiterCommand::OrderMoves {
            first,
            points: self.points.clone(),
        }
    }
}
