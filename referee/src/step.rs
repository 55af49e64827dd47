//! One step of an explanation of held presses: what the search (`reconcile.rs`) finds and a setup block (`setup_block.rs`) sums up.

use goban_rules::Color;

use crate::match_state::Claim;

/// One step of an explanation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// The press completes the last move, already recorded before the board went blind.
    Complete(Claim),
    /// A stone played and completed by the press.
    Play(Color, usize, Claim),
    /// A pass: the press with no stone.
    Pass(Color, Claim),
    /// A stone placed after the last held press, not pressed yet.
    Trailing(Color, usize),
}
