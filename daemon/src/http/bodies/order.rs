//! `POST /boards/{board}/moves/{n}/order`: the arbiter gives the order of a setup block's moves, read strictly.

use goban_referee::ArbiterCommand;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{Validate, check_note};
use crate::http::error::ApiError;
use crate::http::{grammar, patterns};

/// `POST /boards/{board}/moves/{n}/order`: the order of the moves `n`.. recorded as a setup
/// block (played while the board could not see, `order_known: false`).
///
/// `points` are the block's moves in the order they were played, one of each colour in turn
/// from the side that was to move: its stones, each once, and for each move nobody saw
/// (`point: "unseen"`) the stone it was, captured within the block, or `pass`. The moves become ordinary moves, a
/// `correction` for each whose point changes, the block's `board_unavailable` alert is
/// resolved; the later moves are played again after them.
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct OrderBody {
    /// The block's moves like `D4` (or `pass` for a move nobody saw), in the order played.
    #[schema(example = json!(["G3", "C7", "G7"]), min_items = 1, max_items = 361, value_type = Vec<super::BlockMoveName>)]
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
        if self.points.is_empty() || self.points.len() > 361 {
            return Err(ApiError::bad_body("points: give between 1 and 361 moves"));
        }
        if let Some(bad) = self.points.iter().find(|p| !patterns::is_point_or_pass(p)) {
            return Err(ApiError::bad_body(format!(
                "points: {bad:?} is neither a point (a column letter A-T without I and a row \
                 1-19, like D4) nor pass"
            )));
        }
        check_note(self.note.as_deref())
    }
}

impl OrderBody {
    /// Normalises every point to upper case, checking it lies on the board (api.md "Points");
    /// `pass` stays as it is.
    pub(crate) fn normalise(mut self, size: u32) -> Result<Self, ApiError> {
        for point in self.points.iter_mut().filter(|p| *p != "pass") {
            *point = grammar::normalise_point(point, size)
                .map_err(|why| ApiError::Rejected(format!("points: {why}")))?;
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn build(points: &[&str]) -> OrderBody {
        OrderBody {
            points: points.iter().map(|p| (*p).to_owned()).collect(),
            note: None,
        }
    }

    #[test]
    fn a_move_nobody_saw_may_be_named_pass_and_nothing_else_but_a_point() {
        let body = build(&["g3", "pass", "C7"]);
        assert!(body.validate().is_ok());
        let body = body.normalise(9).expect("on the board");
        assert_eq!(body.points, ["G3", "pass", "C7"]);
        for bad in [&["PASS"][..], &["unseen"], &["I5"], &[]] {
            assert!(build(bad).validate().is_err(), "{bad:?}");
        }
        assert!(build(&["T19"]).normalise(9).is_err(), "off a 9x9 board");
    }
}
