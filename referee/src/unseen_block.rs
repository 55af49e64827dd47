//! Held presses made while the board could not see that the stones it shows again do not all account for: each press left over is a move nobody saw, counted with no point, and the stones shown and the captures they made are recorded as one setup block, so that the later moves are recorded again.
//!
//! A stone played and captured while the board could not see leaves nothing on
//! the board; neither does a pass. The clock still counted the press. Holding
//! every later move until the arbiter acts loses the rest of the game (hall
//! stress, "host away"); guessing a pass invents one (referee-notes point 7).
//! What is known is recorded instead: the stones the board shows placed, the
//! stones of before it shows gone (captured by them), and one move nobody saw
//! for each press they leave over (`point: "unseen"`). The `board_unavailable`
//! alert stays open and asks the arbiter what those moves were.

use goban_rules::Color;

use crate::diff::Diff;
use crate::referee::Referee;
use crate::setup_block::{Block, moves_after};

impl Referee {
    /// The block of a board read again after it could not see, when the clock counted more
    /// moves than it shows new stones, or stones of before are gone. `None` unless:
    /// - every press of the block was made while the board could not see, and the presses
    ///   alternate from the side to move;
    /// - each colour's new stones are no more than its presses, and its presses left over
    ///   (moves nobody saw) no more than the other colour's new stones, one of which could
    ///   have taken each off;
    /// - the stones gone from the board are exactly the chains the new stones leave without
    ///   a liberty (captures), all gone while the board could not see;
    /// - the stones the board saw placed since are the last presses' moves, in order (the
    ///   last one may wait for its press), and nothing else is in doubt.
    pub(crate) fn block_with_unseen(&self, diff: &Diff) -> Option<Block> {
        let m = self.game.as_ref()?;
        if !m.late_found.is_empty() || !self.position_settled() {
            return None;
        }
        let (complete, presses, next) = m.held_moves()?;
        let blind_until = self.sight.last_blind_at();
        let changed_at = self.sight.changed_at();
        let mut removed: Vec<usize> = diff.removed.iter().map(|&(p, _)| p).collect();
        removed.extend(diff.changed.iter().map(|&(p, _, _)| p));
        removed.sort_unstable();
        if removed.iter().any(|&p| changed_at[p] > blind_until) {
            // A capture the board saw belongs to a move it saw: not this block's.
            return None;
        }
        let mut stones: Vec<(usize, Color)> = diff.added.clone();
        stones.extend(diff.changed.iter().map(|&(p, _, now)| (p, now)));
        stones.sort_unstable();
        let (at_once, mut seen): (Vec<_>, Vec<_>) = stones
            .into_iter()
            .partition(|&(p, _)| changed_at[p] <= blind_until);
        seen.sort_by_key(|&(p, _)| changed_at[p]);
        let pressed_in_order = |k: usize| {
            k <= presses.len()
                && presses[presses.len() - k..]
                    .iter()
                    .zip(&seen)
                    .all(|(press, s)| press.color == s.1)
        };
        let rest = if pressed_in_order(seen.len()) {
            seen.len()
        } else if seen.last().is_some_and(|s| s.1 == next) && pressed_in_order(seen.len() - 1) {
            seen.len() - 1
        } else {
            return None;
        };
        let (block_presses, rest_presses) = presses.split_at(presses.len() - rest);
        if block_presses.is_empty() || block_presses.iter().any(|p| p.at > blind_until) {
            return None;
        }
        let placed = |color: Color| at_once.iter().filter(|s| s.1 == color).count();
        let mut unseen = Vec::new();
        for color in Color::BOTH {
            let pressed = block_presses.iter().filter(|p| p.color == color).count();
            let left_over = pressed.checked_sub(placed(color))?;
            if left_over > placed(color.opponent()) {
                // A stone taken off needs a stone of the other colour to take it: presses
                // nothing on the board can account for (bare presses, passes) stay an ask.
                return None;
            }
            unseen.extend(std::iter::repeat_n(color, left_over));
        }
        if unseen.is_empty() && removed.is_empty() {
            // Every press has its stone and nothing went: the ordinary block's case.
            return None;
        }
        // Whether the stones gone are exactly the captures the new stones explain is checked
        // when the block is accepted (`accept_block`), as for every block.
        Some(Block {
            complete,
            stones: at_once,
            to_move: rest_presses.first().map_or(next, |p| p.color),
            after: moves_after(&seen, rest_presses),
            unseen,
            removed,
        })
    }
}
