//! Stones missing from the board without a new stone: a lift that comes back, a withdrawn move, a wrong capture, a displaced stone, a knocked board.

use crate::diff::Diff;
use crate::go;
use crate::infraction::InfractionKind;
use crate::input::Reading;
use crate::referee::Referee;

impl Referee {
    /// Only removals: wait for the grace time (a lifted stone may come back), then decide.
    pub(super) fn on_removals(&mut self, diff: &Diff, grace: bool) -> bool {
        if diff.removed.len() >= self.config.disturbed_stones {
            self.on_disturbed(diff);
            return false;
        }
        if self.absorb_illegal_captures(diff) {
            return false;
        }
        if self.withdraw_lifted_double(diff) {
            return true;
        }
        let now = self.now;
        let Some(m) = self.game.as_mut() else {
            return false;
        };
        if !grace {
            m.handle_suspect(now);
            return false;
        }
        // A liberty of a vanished chain that reads `?` may hold the capturing stone: decide
        // once it reads (quiet is local, referee-notes.md point 4), never cry wolf meanwhile.
        let board = m.game.board();
        let unreadable_liberty = diff.removed.iter().any(|&(r, _)| {
            board
                .liberties(go::point(r))
                .iter()
                .any(|q| self.sight.physical()[q.index()] == Reading::Unknown)
        });
        if unreadable_liberty {
            m.restart_suspect(now);
            return false;
        }
        m.clear_suspect();
        let withdrawn = m
            .last_stone()
            .filter(|&(c, r)| m.provisional && diff.removed.contains(&(r, c)));
        if let Some((_, r)) = withdrawn {
            // The stone was picked up again before the press: the move is withdrawn.
            self.withdraw_last_move(r);
            return true;
        }
        self.raise_removal(diff);
        false
    }

    /// Stones still missing after the grace: a wrong capture by the last mover when they are
    /// the opponent's beside the last stone (CN2002 18.1), else displaced stones (17.5).
    fn raise_removal(&mut self, diff: &Diff) {
        let (size, now) = (self.size, self.now);
        let Some(m) = self.game.as_mut() else { return };
        let number = m.move_count();
        // After a setup block the last stone is unknown, and so is who took stones off.
        let last_mover = m
            .game
            .moves()
            .last()
            .filter(|l| l.order_known)
            .map(|l| l.color);
        for &(r, _) in &diff.removed {
            m.known.insert(r, Reading::Empty);
        }
        let points: Vec<usize> = diff.removed.iter().map(|r| r.0).collect();
        let names = points
            .iter()
            .map(|&p| go::name(p, size))
            .collect::<Vec<_>>()
            .join(" ");
        let at = points
            .iter()
            .map(|&p| self.sight.changed_at()[p])
            .max()
            .unwrap_or(now);
        let beside_last = |r: usize| {
            m.last_stone().is_some_and(|(_, x)| {
                m.game
                    .board()
                    .chain(go::point(r))
                    .iter()
                    .any(|q| go::adjacent(q.index(), x, size))
            })
        };
        let wrong = diff
            .removed
            .iter()
            .all(|&(r, c)| Some(c.opponent()) == last_mover && beside_last(r));
        match last_mover {
            Some(mover) if wrong => {
                let what = format!(
                    "{} stones with liberties taken off: {names}",
                    mover.opponent()
                );
                self.raise(
                    InfractionKind::WrongCapture,
                    mover,
                    number,
                    points,
                    vec![(at, what)],
                );
            }
            _ => {
                let what = format!("stones vanished without a capture: {names}");
                let owner = diff.removed[0].1;
                self.raise(
                    InfractionKind::DisplacedStones,
                    owner,
                    number,
                    points,
                    vec![(at, what)],
                );
            }
        }
    }

    /// Stones the advised forbidden or ko stone would have taken off belong to that one act.
    fn absorb_illegal_captures(&mut self, diff: &Diff) -> bool {
        let size = self.size;
        self.game
            .as_mut()
            .is_some_and(|m| m.absorb_illegal_captures(diff, size))
    }

    /// Many stones moved or vanished at once (CN2002 17.6): freeze and publish the full restore list.
    pub(crate) fn on_disturbed(&mut self, diff: &Diff) {
        let Some(m) = self.game.as_mut() else { return };
        m.freeze();
        let number = m.move_count();
        let points = diff.points();
        let at = points
            .iter()
            .map(|&p| self.sight.changed_at()[p])
            .max()
            .unwrap_or(self.now);
        let evidence = vec![(
            at,
            format!(
                "{} points changed at once; last good position kept",
                points.len()
            ),
        )];
        // Who knocked the board is not something the sensors can tell (CN2002 17.6).
        self.raise(
            InfractionKind::BoardDisturbed,
            None,
            number,
            points,
            evidence,
        );
    }

    /// The stone of a recorded double move was lifted: the move leaves the record at once
    /// (CN2002 17.2, corrected by the player); the alert stands.
    fn withdraw_lifted_double(&mut self, diff: &Diff) -> bool {
        let Some(m) = self.game.as_ref() else {
            return false;
        };
        let Some((c, r)) = m.last_stone() else {
            return false;
        };
        if !m.last_is_double_move() || !diff.removed.contains(&(r, c)) {
            return false;
        }
        self.withdraw_last_move(r);
        true
    }

    /// The opponent's stone came while the last move's stone is gone and that move was never
    /// completed (no press, or a double move): the move is withdrawn first.
    pub(super) fn withdraw_lifted_last(&mut self, diff: &Diff) -> bool {
        let Some(m) = self.game.as_ref() else {
            return false;
        };
        let Some((c, r)) = m.last_stone() else {
            return false;
        };
        let uncompleted = m.provisional || m.last_is_double_move();
        if !uncompleted || !diff.removed.contains(&(r, c)) || diff.added.iter().any(|a| a.1 == c) {
            return false;
        }
        // A stone the new ones capture is a capture, not a lift.
        let captured = diff.added.iter().any(|&(x, s)| {
            m.game
                .preview(s, go::point(x))
                .is_ok_and(|caps| caps.iter().any(|q| q.index() == r))
        });
        if captured {
            return false;
        }
        self.withdraw_last_move(r);
        true
    }
}
