//! The match's result and the proposed one: typed, their margin in the ruleset's unit, written as the rules word them.
//!
//! Both are kept as [`StatedResult`]s: a [`GameResult`] with the text
//! [`GameResult::to_rules_string`] gave it ("W+3.75", in stones under
//! CN2002). In a checkpoint they are that text, as format 2 wrote them
//! (`tests/checkpoint_format_2.rs`); the margin's unit is the match's
//! ruleset's, so nothing else is stored. The state and the SGF `RE` take
//! them from here, at the edge.

use goban_rules::{GameResult, ScoreUnit, StatedResult};

use super::Match;

impl Match {
    /// The unit of the game's margins (stones under CN2002 and the historical rules).
    pub(crate) fn score_unit(&self) -> ScoreUnit {
        self.game.setup().ruleset.score_unit()
    }

    /// The final result, once the game ended.
    pub(crate) fn result(&self) -> Option<GameResult> {
        let unit = self.score_unit();
        self.result.as_ref().map(|r| r.in_unit(unit))
    }

    /// The final result as the state shows it (the rules' unit: "B+0.75" under CN2002).
    pub(crate) fn result_text(&self) -> Option<&str> {
        self.result.as_ref().map(StatedResult::as_str)
    }

    /// The game ends with `result` (its margin in [`Match::score_unit`]).
    pub(crate) fn set_result(&mut self, result: GameResult) {
        self.result = Some(StatedResult::from(result));
    }

    /// The result is withdrawn: the game goes on, or is ended again.
    pub(crate) fn clear_result(&mut self) {
        self.result = None;
    }

    /// The proposed result: the count while counting, or a resignation signal's.
    pub(crate) fn proposed(&self) -> Option<GameResult> {
        let unit = self.score_unit();
        self.proposed.as_ref().map(|r| r.in_unit(unit))
    }

    /// The proposed result as the state shows it.
    pub(crate) fn proposed_text(&self) -> Option<&str> {
        self.proposed.as_ref().map(StatedResult::as_str)
    }

    /// `result` is proposed (a count, or a resignation signal), or nothing is (`None`).
    pub(crate) fn propose(&mut self, result: Option<GameResult>) {
        self.proposed = result.map(StatedResult::from);
    }
}
