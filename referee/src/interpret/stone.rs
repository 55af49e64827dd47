//! A new stone on the board: a move, a slide, a pass resolved, or an infraction (forbidden point, ko, double move, takeback, displaced, occupied).

use goban_rules::{Color, Illegal, IllegalReason, Move};

use crate::Timestamp;
use crate::diff::Diff;
use crate::go;
use crate::infraction::InfractionKind;
use crate::input::Reading;
use crate::referee::Referee;

impl Referee {
    /// One stone of `s` appeared at `x`.
    pub(super) fn on_new_stone(&mut self, x: usize, s: Color, diff: &Diff) -> bool {
        let size = self.size;
        // A stone of the same colour vanished beside it, or the last move's stone moved.
        let last = self.game.as_ref().and_then(|m| m.last_stone());
        let moved_from = diff
            .removed
            .iter()
            .find(|&&(r, c)| c == s && (Some((s, r)) == last || go::adjacent(r, x, size)))
            .map(|&(r, _)| r);
        if let Some(r) = moved_from {
            return self.on_stone_moved(r, x, s, diff);
        }
        if self.withdraw_lifted_last(diff) {
            // The opponent replies to the corrected position (issue 15: no false wrong_capture).
            return true;
        }
        let Some(to_move) = self.game.as_ref().map(|m| m.game.to_move()) else {
            return false;
        };
        if s != to_move && self.read_resignation_second_stone(x, s) {
            return true;
        }
        if s != to_move {
            return self.on_stone_out_of_turn(x, s, to_move);
        }
        self.close_previous_move();
        let at = self.sight.changed_at()[x];
        let preview = self.game.as_ref().map(|m| m.game.preview(s, go::point(x)));
        match preview {
            Some(Ok(_)) => {
                self.play_stone(x, s, at);
                true
            }
            Some(Err(Illegal {
                reason: IllegalReason::Suicide,
                ..
            })) => {
                self.on_illegal_stone(InfractionKind::ForbiddenPoint, x, s, diff);
                false
            }
            Some(Err(Illegal {
                reason: IllegalReason::Ko | IllegalReason::Superko { .. },
                ..
            })) => {
                self.on_illegal_stone(InfractionKind::KoViolation, x, s, diff);
                false
            }
            _ => false,
        }
    }

    /// A legal stone of the side to move: play it, settling a pending press.
    fn play_stone(&mut self, x: usize, s: Color, at: Timestamp) {
        let press = self.game.as_mut().and_then(|m| {
            m.void_pending = None;
            m.take_open_press()
        });
        // How late a stone may be read after its press: `port_skew`, or the lag measured from
        // play (issue 39.5); a stone read in its press's millisecond is a tie, the player's.
        let window = press.map(|p| self.premature_window(at, p.at));
        if let Some(press) = press.filter(|p| window.is_some_and(|w| at <= p.at.plus_ms(w))) {
            // Read after the press, but within the ports' skew: placed before it (point 8).
            let time = Some((press.time_left, press.periods_left));
            self.record_timed_move(s, Move::Play(go::point(x)), at, false, time);
            return;
        }
        if let Some(press) = press
            && let Some(v) = self.stone_lifted_after(s, press.at)
        {
            // The press completed a stone that stood before it and went before its region was
            // quiet: that is the move; this stone is read again against it (taken back, moved).
            self.play_vanished(v, s, &press);
            return;
        }
        self.record_move(s, Move::Play(go::point(x)), at, press.is_none());
        if let Some(press) = press {
            // The press came before the stone: CN2002 17.4 (the digest's ambiguity decided by this stone).
            self.set_last_time(&press);
            let number = self.game.as_ref().map_or(0, |m| m.move_count());
            let evidence = vec![
                (press.at, format!("{s} pressed the clock with no new stone")),
                (at, format!("{s} stone read at {}", go::name(x, self.size))),
            ];
            let margin = at.0.saturating_sub(press.at.0);
            self.raise_premature(s, number, vec![x], evidence, margin);
        }
    }

    /// A stone of the side that just moved.
    fn on_stone_out_of_turn(&mut self, x: usize, s: Color, to_move: Color) -> bool {
        let Some(m) = self.game.as_mut() else {
            return false;
        };
        let open = m.open_press().filter(|p| p.color == to_move);
        if open.is_some()
            && (self.stone_unreported_of(to_move, self.sight.changed_at()[x])
                || self.substep_still_settling()
                || self.hand_over_the_board())
        {
            // A stone of the presser, placed before this one, is still settling, or what took
            // a stone that stood and went is, or a hand covers a point (its stone may be the
            // press's move, read 170 ms after it at blitz pace): the next report decides.
            return false;
        }
        let Some(m) = self.game.as_mut() else {
            return false;
        };
        if open.is_some()
            && let Some((press, wait)) = m.take_open_press_and_wait()
        {
            if !self.pass_proven(&press, wait, self.sight.changed_at()[x]) {
                // The press's stone may hide where the board could not see: ask (point 7).
                self.hold(vec![press]);
                return false;
            }
            if let Some(t) = self.vanished_move(to_move, x, s) {
                // Its stone stood and was captured inside a stall: a move, not a pass.
                self.play_vanished(t, to_move, &press);
                return true;
            }
            if self.vanished_stone_of(to_move, press.at.plus_ms(self.config.port_skew_ms)) {
                // A stone of the presser stood and went, and no sequence explains it: ask.
                self.hold(vec![press]);
                return false;
            }
            // The opponent pressed with no stone and `s` plays on: that press was a pass.
            self.record_pass(to_move, press, false);
            return true;
        }
        if m.void_pending == Some(to_move) {
            // The advised forbidden or ko stone counts as a pass (CN2002 19, 18.3) once play goes on.
            m.void_pending = None;
            let at = self.sight.changed_at()[x];
            let claim = crate::match_state::Claim {
                color: to_move,
                at,
                switched: false,
                time_left: None,
                periods_left: None,
            };
            self.record_pass(to_move, claim, false);
            return true;
        }
        if m.has_deadline_pass()
            && m.game
                .moves()
                .last()
                .is_some_and(|l| l.color == s && l.mv == Move::Pass)
        {
            // The pass announced at the deadline was a premature press after all.
            self.retract_deadline_pass(s);
            return true;
        }
        self.on_double_move(x, s);
        false
    }

    /// The same colour plays twice without a pass (CN2002 17.2, JK 8.1).
    fn on_double_move(&mut self, x: usize, s: Color) {
        let at = self.sight.changed_at()[x];
        let Some(m) = self.game.as_mut() else { return };
        let number = m.move_count() + 1;
        m.known.insert(x, go::reading_of(s));
        let evidence = vec![(
            at,
            format!(
                "{s} stone read at {} after {s}'s own move",
                go::name(x, self.size)
            ),
        )];
        let auto = self
            .config
            .auto_sanction
            .contains(&InfractionKind::DoubleMove);
        if !auto {
            // Advised only: record what was played so the game follows the board (rules' play_as).
            self.record_move(s, Move::Play(go::point(x)), at, true);
            if let Some(m) = self.game.as_mut() {
                m.known.remove(&x);
                m.handle_double_move();
            }
        }
        self.raise(InfractionKind::DoubleMove, s, number, vec![x], evidence);
    }

    /// A forbidden or ko stone: alert; the stone and what it took off are one act.
    fn on_illegal_stone(&mut self, kind: InfractionKind, x: usize, s: Color, diff: &Diff) {
        let at = self.sight.changed_at()[x];
        let Some(m) = self.game.as_mut() else { return };
        let number = m.move_count() + 1;
        m.handle_illegal_stone(x, s, diff);
        let what = match kind {
            InfractionKind::KoViolation => "retakes the ko",
            _ => "on a point without liberties",
        };
        let evidence = vec![(
            at,
            format!("{s} stone read at {} {what}", go::name(x, self.size)),
        )];
        self.raise(kind, s, number, vec![x], evidence);
    }

    /// A stone of `s` left `r` and stands on `x`.
    fn on_stone_moved(&mut self, r: usize, x: usize, s: Color, diff: &Diff) -> bool {
        let Some(m) = self.game.as_mut() else {
            return false;
        };
        let is_last = m.last_stone() == Some((s, r));
        if is_last && m.provisional {
            // Before the press the stone may still slide into place: a correction, no alert.
            return self.replace_last_move(x, s);
        }
        let number = m.move_count();
        m.known.insert(x, go::reading_of(s));
        m.known.insert(r, Reading::Empty);
        let (from, to) = (go::name(r, self.size), go::name(x, self.size));
        let evidence = vec![(
            self.sight.changed_at()[x],
            format!("{s} stone left {from} and stands on {to}"),
        )];
        if is_last {
            self.raise(InfractionKind::Takeback, s, number, vec![r, x], evidence);
        } else if diff.removed.len() + diff.added.len() > self.config.disturbed_stones {
            self.on_disturbed(diff);
        } else {
            self.raise(
                InfractionKind::DisplacedStones,
                s,
                number,
                vec![r, x],
                evidence,
            );
        }
        false
    }

    /// Stones changed colour on the board: a stone put on an occupied point (CN2002 2.3) or a disturbed board.
    pub(super) fn on_changed(&mut self, diff: &Diff) -> bool {
        let unexplained = diff.changed.len() + diff.removed.len();
        if unexplained >= self.config.disturbed_stones {
            self.on_disturbed(diff);
            return false;
        }
        let (p, _, pc) = diff.changed[0];
        let Some(m) = self.game.as_mut() else {
            return false;
        };
        let number = m.move_count() + 1;
        m.known.insert(p, go::reading_of(pc));
        let evidence = vec![(
            self.sight.changed_at()[p],
            format!("{pc} stone read on occupied {}", go::name(p, self.size)),
        )];
        self.raise(InfractionKind::OccupiedPoint, pc, number, vec![p], evidence);
        true
    }
}
