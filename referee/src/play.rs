//! Changing the game record: moves and passes recorded, completed, corrected or withdrawn, with their events.

use goban_rules::{Color, GameState, Move};

use crate::Timestamp;
use crate::event::EventKind;
use crate::go;
use crate::infraction::InfractionKind;
use crate::match_state::Claim;
use crate::move_records::MoveRecord;
use crate::referee::Referee;

impl Referee {
    /// Plays `mv` for `color` (out of turn allowed: a recorded double move) and announces it.
    pub(crate) fn record_move(
        &mut self,
        color: Color,
        mv: Move,
        at: Timestamp,
        provisional: bool,
    ) -> bool {
        self.record_timed_move(color, mv, at, provisional, None)
    }

    /// [`Self::record_move`] with the mover's time and periods left at the press, when known.
    pub(crate) fn record_timed_move(
        &mut self,
        color: Color,
        mv: Move,
        at: Timestamp,
        provisional: bool,
        time: Option<(Option<u64>, Option<u32>)>,
    ) -> bool {
        let size = self.size;
        let (time_left_ms, periods_left) = time.unwrap_or_default();
        let Some(m) = self.game.as_mut() else {
            return false;
        };
        if m.game.play_as(color, mv).is_err() {
            return false;
        }
        let number = m.move_count();
        let point = go::move_name(mv, size);
        m.moves.push(MoveRecord {
            number,
            color,
            point: go::move_label(&point),
            at,
            time_left_ms,
            periods_left,
            order_known: true,
        });
        m.provisional = provisional;
        m.placed_at = at;
        m.pending_caps = m.last_captures();
        m.forget_deadline_pass();
        if let Move::Play(stone) = mv {
            self.sight.handle_flips_explained(stone.index());
        }
        for &(p, _) in &m.pending_caps {
            self.sight.handle_flips_explained(p);
        }
        // Stones found late at the start were leftovers if the first move did not claim them.
        m.late_found.clear();
        let ended = m.game.state() == GameState::Counting;
        self.emit(EventKind::MovePlayed {
            number,
            color,
            point,
            played_at: at.to_rfc3339(),
            time_left_ms,
        });
        if ended {
            self.enter_counting();
        }
        true
    }

    /// Records a pass from a press (CN2002 2.5), with the press's time left.
    pub(crate) fn record_pass(&mut self, color: Color, press: Claim, by_deadline: bool) {
        let time = Some((press.time_left, press.periods_left));
        if self.record_timed_move(color, Move::Pass, press.at, false, time)
            && by_deadline
            && let Some(m) = self.game.as_mut()
        {
            m.handle_deadline_pass(press);
        }
    }

    /// Stores the mover's time and periods left at the completing press on the last move, and
    /// publishes them as a `correction` with `was == now` (the stone was announced before the press).
    pub(crate) fn set_last_time(&mut self, claim: &Claim) {
        let size = self.size;
        let Some(m) = self.game.as_mut() else { return };
        let number = m.move_count();
        let Some(last) = m.moves.last_mut() else {
            return;
        };
        last.time_left_ms = claim.time_left;
        last.periods_left = claim.periods_left;
        let Some(mv) = m.game.moves().last().map(|l| l.mv) else {
            return;
        };
        if claim.time_left.is_some() {
            let point = go::move_name(mv, size);
            self.emit(EventKind::Correction {
                number,
                was: point.clone(),
                now: point,
                reason: "completed by the clock press".into(),
                time_left_ms: claim.time_left,
                periods_left: claim.periods_left,
            });
        }
    }

    /// The next stone of the opponent completes the previous move: its captures must be off (CN2002 18.2).
    pub(crate) fn close_previous_move(&mut self) {
        let Some(m) = self.game.as_mut() else { return };
        m.provisional = false;
        let Some(last) = m.game.moves().last() else {
            return;
        };
        let mover = last.color;
        let number = m.move_count();
        // A stone read there since the capture is a new stone (the point taken off and
        // retaken inside one stall), not the captured one.
        let shown = |p: usize, c: Color| {
            self.sight.physical()[p] == go::reading_of(c)
                && self.sight.changed_at()[p] <= m.placed_at
                && !self.sight.debouncer().is_chattering(p)
        };
        let left: Vec<usize> = m
            .pending_caps
            .clone()
            .into_iter()
            // Still on the board, and not already off in a reading not reported yet.
            .filter(|&(p, c)| {
                shown(p, c)
                    && self.sight.debouncer().raw()[p] == go::reading_of(c)
                    && !self
                        .sight
                        .debouncer()
                        .retaken_since(p, go::reading_of(c), m.placed_at)
            })
            .map(|(p, _)| p)
            .collect();
        // Captured stones already off in a reading still settling: no alert, and not read as
        // stones while the reported reading still shows them.
        let captured_at = m.placed_at;
        for &(p, c) in &m.pending_caps {
            if shown(p, c) && !left.contains(&p) {
                m.known.insert(p, self.sight.physical()[p]);
                if self
                    .sight
                    .debouncer()
                    .retaken_since(p, go::reading_of(c), captured_at)
                {
                    // Retaken: once reported, the stone there is the new one.
                    m.known_until_reread.insert(p, captured_at);
                }
            }
        }
        m.pending_caps.clear();
        if left.is_empty() {
            return;
        }
        for &p in &left {
            m.known.insert(p, self.sight.physical()[p]);
        }
        let names: Vec<String> = left.iter().map(|&p| go::name(p, self.size)).collect();
        let evidence = vec![(
            self.now,
            format!(
                "next stone placed with captured stones still on {}",
                names.join(" ")
            ),
        )];
        self.raise(InfractionKind::MissedCapture, mover, number, left, evidence);
    }

    /// The last move's stone slid or was re-placed before the press: an explicit correction.
    pub(crate) fn replace_last_move(&mut self, x: usize, s: Color) -> bool {
        let size = self.size;
        let Some(m) = self.game.as_mut() else {
            return false;
        };
        let Some(old) = m.game.undo() else {
            return false;
        };
        let record = m.moves.pop();
        let number = m.move_count() + 1;
        let at = self.sight.changed_at()[x];
        if !self.record_move(s, Move::Play(go::point(x)), at, true) {
            // The new point is not legal: put the old move back and let the loop read the board again.
            if let Some(m) = self.game.as_mut() {
                let _ = m.game.play_as(old.color, old.mv);
                m.moves.extend(record);
            }
            return false;
        }
        // `record_move` announced the move again; tell consumers it replaces the old one.
        self.emit(EventKind::Correction {
            number,
            was: go::move_name(old.mv, size),
            now: go::name(x, size),
            reason: "the stone moved before the clock was pressed".into(),
            time_left_ms: None,
            periods_left: None,
        });
        true
    }

    /// The last move's stone was taken back before the press: the move is withdrawn.
    pub(crate) fn withdraw_last_move(&mut self, r: usize) {
        let size = self.size;
        let Some(m) = self.game.as_mut() else { return };
        let number = m.move_count();
        if m.game.undo().is_none() {
            return;
        }
        m.moves.pop();
        m.provisional = false;
        m.pending_caps.clear();
        let reason = if m.take_double_move() == Some(number) {
            "the second stone of a double move was lifted"
        } else {
            "the stone was taken back before the clock was pressed"
        };
        self.emit(EventKind::Correction {
            number,
            was: go::name(r, size),
            now: "none".into(),
            reason: reason.into(),
            time_left_ms: None,
            periods_left: None,
        });
    }

    /// A pass announced at the deadline turns out to be a premature press: undo it and keep the press pending.
    pub(crate) fn retract_deadline_pass(&mut self, s: Color) {
        let Some(m) = self.game.as_mut() else { return };
        let number = m.move_count();
        if m.game.undo().is_none() {
            return;
        }
        m.moves.pop();
        m.reopen_deadline_press(Claim {
            color: s,
            at: self.now,
            switched: true,
            time_left: None,
            periods_left: None,
        });
        self.emit(EventKind::Correction {
            number,
            was: "pass".into(),
            now: "none".into(),
            reason: "the player placed a stone after pressing: a premature press, not a pass"
                .into(),
            time_left_ms: None,
            periods_left: None,
        });
    }
}
