//! What the board holds that is no move of the match: stones there at the start, points unread then and adopted when they first read, and an advised forbidden or ko stone with what it took off.

use goban_rules::Color;

use super::Match;
use crate::diff::Diff;
use crate::go;
use crate::input::Reading;

impl Match {
    /// Stones already on the board at the start (and handicap stones not placed yet) are
    /// guidance, not moves nor alerts; points unreadable then (or all, while `blind`) wait
    /// to be adopted when they first read. `game` is the game's position, `physical` the board's.
    pub(crate) fn adopt_leftovers(&mut self, game: &[Reading], physical: &[Reading], blind: bool) {
        for (i, (g, p)) in game.iter().zip(physical).enumerate() {
            if blind || *p == Reading::Unknown {
                self.unread_at_start.insert(i);
            } else if g != p {
                self.known.insert(i, *p);
            }
        }
    }

    /// Points unreadable at the start that read now in `physical`: their stones are
    /// leftovers too; before any move a press may yet claim one as its move (`late_found`).
    pub(crate) fn adopt_late_leftovers(&mut self, game: &[Reading], physical: &[Reading]) {
        let known = &mut self.known;
        let late_found = &mut self.late_found;
        let no_move_yet = self.moves.is_empty();
        self.unread_at_start.retain(|&i| {
            let p = physical[i];
            if p == Reading::Unknown {
                return true;
            }
            if p != game[i] {
                known.insert(i, p);
                // Placed before the start or just after it, unseen: a press may claim it.
                if no_move_yet && matches!(p, Reading::Black | Reading::White) {
                    late_found.insert(i);
                }
            }
            false
        });
    }

    /// Whether points unread at the start still wait to be adopted.
    pub(crate) fn has_unread_at_start(&self) -> bool {
        !self.unread_at_start.is_empty()
    }

    /// A forbidden or ko stone of `s` at `x` was advised, not voided: it and what it took off
    /// (`diff`'s removals) are one act, alerted on once; if the opponent plays next, it
    /// counts as a pass.
    pub(crate) fn handle_illegal_stone(&mut self, x: usize, s: Color, diff: &Diff) {
        self.known.insert(x, go::reading_of(s));
        for &(r, _) in &diff.removed {
            self.known.insert(r, Reading::Empty);
        }
        self.void_pending = Some(s);
        self.illegal_stone = Some((x, s));
    }

    /// Whether `diff`'s removals are stones the advised forbidden or ko stone would have
    /// taken off (then they belong to that act); forgets the stone once it is gone.
    pub(crate) fn absorb_illegal_captures(
        &mut self,
        diff: &Diff,
        size: goban_rules::BoardSize,
    ) -> bool {
        let Some((x, v)) = self.illegal_stone else {
            return false;
        };
        if self.known.get(&x) != Some(&go::reading_of(v)) {
            self.illegal_stone = None;
            return false;
        }
        let absorbed = diff
            .removed
            .iter()
            .all(|&(r, c)| c == v.opponent() && go::adjacent(r, x, size));
        if absorbed {
            for &(r, _) in &diff.removed {
                self.known.insert(r, Reading::Empty);
            }
        }
        absorbed
    }
}
