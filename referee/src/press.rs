//! Clock presses and keys: a press is a claim that a move is complete, judged against the order of steady readings (CN2002 17.3, 17.4, 22.6).

use goban_rules::{Color, Move};

use crate::RefereeError;
use crate::event::EventKind;
use crate::go;
use crate::infraction::InfractionKind;
use crate::input::{Button, ClockKey, Reading};
use crate::match_state::{Claim, Match};
use crate::referee::Referee;
use crate::state::Phase;
use crate::timekeeper::Switched;

impl Referee {
    /// A player pressed a clock button: switch the clock now, judge the claim once the board is quiet.
    pub(crate) fn handle_press(&mut self, button: Button) {
        self.handle_press_of(button, false);
    }

    /// A press, read live or (`backlog`) in a backlog, whose time is unknown: no flag is
    /// judged on a backlog's press (no infraction from a backlog, issue 39.7).
    fn handle_press_of(&mut self, button: Button, backlog: bool) {
        let now = self.now;
        let Some(m) = self.game.as_mut() else { return };
        if !m.takes_presses() {
            return;
        }
        let color = m.color_of(button);
        if !backlog && m.press_turn != color && m.press_lost_while_away(color.opponent()) {
            // The opponent's press went with the clock's cable, after a stone the board read:
            // the physical clock runs for this side. When it switched is unknown, so no flag
            // is judged on it, and the press is no wrong colour (issue 39/44.7).
            m.press_turn = color;
            let _ = m.clock.switch(now, color.opponent());
        }
        if self.devices.link(crate::input::Device::Clock) == crate::state::Link::Connected {
            // A press read live: the clock's backlog, if any, is over.
            m.handle_clock_back();
        }
        let switched = m.press_turn == color;
        let mut outcome = Switched::NoClock;
        if switched {
            m.press_turn = color.opponent();
            outcome = m.clock.switch(now, color);
        }
        let claim = Claim::new(color, now, switched, outcome);
        self.timeline
            .record_press(now, color, button, self.sight.physical());
        if self.holding() {
            // The board cannot see (or has presses it could not explain yet): no move is guessed.
            self.hold(vec![claim]);
        } else if let Some(m) = self.game.as_mut() {
            m.queue_claim(claim);
        }
        if let Switched::FlagFallen { side, at } = outcome
            && !backlog
        {
            // The press came after the flag fell: nothing was charged; the fall is the alert (CN2002 12.4, 22.5).
            self.raise_forfeit(side, at, "CN2002 12.4, 22.5");
        }
        if switched {
            self.emit_clock();
        }
        if self.sight.debouncer().earliest_pending().is_none() {
            self.process_claims(None);
            self.refresh_guidance();
            self.emit(EventKind::StateChanged);
        }
    }

    /// The clock went away mid-game: presses queued on its line may come back as a backlog.
    pub(crate) fn note_clock_away(&mut self) {
        if let Some(m) = self.game.as_mut() {
            m.handle_clock_away();
        }
    }

    /// A press of a clock backlog (issue 39.7): when it happened is unknown. While the board
    /// saw all along and read a move for it, the press only switches the clock (the board
    /// already told the move); otherwise the board is read afresh and the press is held, to be
    /// explained with the others (referee-notes point 7). A backlog raises no infraction.
    pub(crate) fn handle_backlog_press(&mut self, button: Button) {
        let seeing = !self.sight.blind() && self.sight.debouncer().is_synced();
        let Some(m) = self.game.as_mut() else { return };
        if !m.takes_presses() {
            return;
        }
        if m.handle_backlog_press(seeing) {
            let color = m.color_of(button);
            if m.press_turn == color {
                m.press_turn = color.opponent();
                // The time it took is unknown: no flag is judged on it (no infraction from a backlog).
                let _ = m.clock.switch(self.now, color);
                self.emit_clock();
            }
            return;
        }
        self.read_afresh();
        self.handle_press_of(button, true);
    }

    /// Judges the presses that came before `before` (all of them when `None`).
    pub(crate) fn process_claims(&mut self, before: Option<crate::Timestamp>) {
        loop {
            let Some(m) = self.game.as_mut() else { return };
            let Some(first) = m.first_claim(self.now) else {
                return;
            };
            if before.is_some_and(|b| first.at >= b) || m.phase != Phase::Playing {
                if m.phase != Phase::Playing {
                    m.drop_claims();
                }
                return;
            }
            if self.answer_waits_for_settling(&first) {
                // The open bare press may yet have its stone: judge the answer once it settled.
                return;
            }
            let Some(m) = self.game.as_mut() else { return };
            m.pop_claim();
            self.process_claim(first);
        }
    }

    /// Whether `answer` would settle the open bare press as a pass while a stone of the
    /// presser, placed before the answer, is still settling: the next report decides.
    fn answer_waits_for_settling(&self, answer: &Claim) -> bool {
        let Some(m) = self.game.as_ref() else {
            return false;
        };
        let Some(open) = m.open_press() else {
            return false;
        };
        answer.switched
            && open.color == m.game.to_move()
            && self.stone_unreported_of(open.color, answer.at)
    }

    fn process_claim(&mut self, claim: Claim) {
        let Some(m) = self.game.as_mut() else { return };
        let last = m.game.moves().last().map(|l| (l.color, l.mv));
        if !claim.switched {
            let s = claim.color.opponent();
            if m.provisional
                && last.is_some_and(|(c, mv)| c == s && mv != Move::Pass)
                && m.press_turn == s
            {
                self.on_wrong_colour(claim, s);
            }
            return;
        }
        if m.provisional && last.is_some_and(|(c, _)| c == claim.color) {
            self.complete_last_move(claim);
            return;
        }
        if m.provisional && last.is_some_and(|(c, _)| c == claim.color.opponent()) {
            // The clock still ran for the presser, yet the opponent has placed a stone since:
            // a late press completing the presser's own earlier move, not a bare press.
            return;
        }
        if m.void_pending == Some(claim.color) {
            // The press belongs to the advised forbidden or ko stone: one act, one alert.
            return;
        }
        if self.late_stone_of(claim.color) {
            // A bare press while a stone the board saw only after the start may be its move:
            // the one explanation decides, never a guess (referee-notes.md point 7).
            let previous = self.game.as_mut().and_then(Match::take_open_press);
            self.hold_and_explain(previous.into_iter().chain([claim]).collect());
            return;
        }
        let Some(m) = self.game.as_mut() else { return };
        if let Some((previous, wait)) = m.take_open_press_and_wait() {
            // A pass is the turn of the side to move: a bare press of the side that just moved
            // is no pass (fast play: its stone was not read yet), so it is held too.
            let in_turn = previous.color == m.game.to_move();
            if !in_turn || !self.pass_proven(&previous, wait, claim.at) {
                // The board could not see between the presses: nothing is guessed (point 7).
                self.hold(vec![previous, claim]);
                return;
            }
            // The opponent answered a bare press with a bare press: the first one was a pass.
            self.record_pass(previous.color, previous, false);
        }
        if let Some(m) = self.game.as_mut() {
            m.open_press_from(claim, None);
        }
    }

    /// Whether a captured stone of the last move still reads on the board while frames of the
    /// board read before the press may still arrive (a board port up to `port_skew_ms` late):
    /// taking it off may have happened before the press.
    fn captures_may_still_go(&self, claim: &Claim) -> bool {
        let skew = self.effective_skew();
        let Some(m) = self.game.as_ref() else {
            return false;
        };
        skew > 0
            && self.now < claim.at.plus_ms(skew)
            && m.last_captures()
                .iter()
                .any(|&(p, c)| self.sight.debouncer().raw()[p] == go::reading_of(c))
    }

    /// The wait for the board's late frames is over: judge the presses.
    pub(crate) fn handle_claims_due(&mut self) {
        let before = self.claims_judged_before();
        self.process_claims(before);
        self.refresh_guidance();
        self.emit(EventKind::StateChanged);
    }

    /// The press completes the last move: its captures must already be off (CN2002 22.6).
    pub(crate) fn complete_last_move(&mut self, claim: Claim) {
        if self.captures_may_still_go(&claim) {
            // Judged later: its board frames may still be on their way.
            let skew = self.effective_skew();
            if let Some(m) = self.game.as_mut() {
                m.requeue_claim(claim, claim.at.plus_ms(skew));
            }
            return;
        }
        self.set_last_time(&claim);
        // Readings of the board's port may lag the clock's by up to the skew (point 8).
        let skew = self.effective_skew();
        let Some(m) = self.game.as_mut() else { return };
        m.provisional = false;
        let number = m.move_count();
        let placed_at = m.placed_at;
        let is_pass = m.game.moves().last().is_some_and(|l| l.mv == Move::Pass);
        let missed: Vec<(usize, Color)> = m
            .last_captures()
            .into_iter()
            .filter(|&(p, c)| {
                let stone = go::reading_of(c);
                // The same colour read since the capture is a new stone on the point taken off
                // and retaken inside one stall (issue 15): the captured one went before it.
                let retaken = (self.sight.physical()[p] == stone
                    && self.sight.changed_at()[p] > placed_at)
                    || self.sight.debouncer().retaken_since(p, stone, placed_at);
                let still_on =
                    self.sight.physical()[p] == stone && self.sight.debouncer().raw()[p] == stone;
                // A point that cannot be read (a chattering sensor) proves nothing.
                let unreadable = self.sight.physical()[p] == Reading::Unknown
                    || self.sight.debouncer().is_chattering(p);
                !retaken
                    && !unreadable
                    && (still_on
                        || self.sight.debouncer().stone_left_at(p) > claim.at.plus_ms(skew))
            })
            .collect();
        let c = claim.color;
        if !missed.is_empty() {
            for &(p, _) in &missed {
                m.known.insert(p, self.sight.physical()[p]);
            }
            m.pending_caps.clear();
            let points: Vec<usize> = missed.iter().map(|x| x.0).collect();
            let names: Vec<String> = points.iter().map(|&p| go::name(p, self.size)).collect();
            let evidence = vec![(
                claim.at,
                format!(
                    "{c} pressed with captured stones still on {}",
                    names.join(" ")
                ),
            )];
            // One act, one alert: not also a premature press (digest).
            self.raise(InfractionKind::MissedCapture, c, number, points, evidence);
        } else if !is_pass
            && placed_at > claim.at.plus_ms(self.premature_window(placed_at, claim.at))
        {
            let evidence = vec![
                (claim.at, format!("{c} pressed the clock")),
                (placed_at, format!("{c} stone read after the press")),
            ];
            let margin = placed_at.0.saturating_sub(claim.at.0);
            self.raise_premature(c, number, Vec::new(), evidence, margin);
        }
    }

    /// How late a stone may be read after its press and still count as placed before it:
    /// `port_skew`, or the lag measured from play when larger (issue 39.5). Records the move's
    /// margin first; a lag beyond `port_skew` raises one device alert naming the value to set.
    pub(crate) fn premature_window(
        &mut self,
        placed_at: crate::Timestamp,
        press_at: crate::Timestamp,
    ) -> u64 {
        let before = self.port_lag.lag_ms();
        self.port_lag.record(placed_at.0, press_at.0);
        let lag = self.port_lag.lag_ms();
        let skew = self.config.port_skew_ms;
        if lag / 10 != before / 10 {
            self.devices.handle_port_lag(lag);
            self.emit_device();
        }
        if lag > skew {
            self.raise_port_lag(lag);
        }
        let window = skew.max(lag);
        if !self.port_lag.warming_up() {
            // Presses held while the lag could not be told: the ones it does not explain were premature.
            for s in self.port_lag.poll_suspects() {
                if s.margin_ms > window {
                    self.raise(
                        InfractionKind::PrematurePress,
                        s.player,
                        s.number,
                        s.points,
                        s.evidence,
                    );
                }
            }
        }
        window
    }

    /// A premature press (CN2002 17.4) whose stone was read `margin_ms` after it: raised, or
    /// held while too few moves were seen to tell a lagging board port from a premature press
    /// (issue 39.5: a lag shows on many moves, a premature press on a few).
    pub(crate) fn raise_premature(
        &mut self,
        player: Color,
        number: u32,
        points: Vec<usize>,
        evidence: Vec<(crate::Timestamp, String)>,
        margin_ms: u64,
    ) {
        if self.port_lag.warming_up() && margin_ms <= crate::port_lag::HELD_UP_TO_MS {
            self.port_lag.handle_suspect(crate::port_lag::Suspect {
                player,
                number,
                points,
                evidence,
                margin_ms,
            });
            return;
        }
        self.raise(
            InfractionKind::PrematurePress,
            player,
            number,
            points,
            evidence,
        );
    }

    /// How late the board's port may be: `port_skew`, or the lag measured from play when
    /// larger (issue 39.5).
    pub(crate) fn effective_skew(&self) -> u64 {
        self.config.port_skew_ms.max(self.port_lag.lag_ms())
    }

    /// One `port_lag` device alert while none is open.
    fn raise_port_lag(&mut self, lag: u64) {
        if self
            .devices
            .has_open_alert(crate::device_alert::DeviceAlertKind::PortLag)
        {
            return;
        }
        let advised = self.port_lag.advised_skew_ms();
        let (now, skew) = (self.now.to_rfc3339(), self.config.port_skew_ms);
        self.devices
            .raise(&self.config.board, |id| crate::device_alert::DeviceAlert {
                id,
                kind: crate::device_alert::DeviceAlertKind::PortLag,
                point: None,
                presses_unexplained: 0,
                raised_at: now,
                resolved_at: None,
                message: format!(
                    "the board's readings arrive about {lag} ms after the clock's (port_skew is \
                 {skew} ms): stones read that much after their presses are not judged premature. \
                 Set [referee] port_skew = \"{advised}ms\" for this board, or check its cable \
                 and hub"
                ),
            });
        self.emit_device();
    }

    /// A stone of `s` completed by the other colour's button: the players hold each other's colours (CN2002 17.1).
    fn on_wrong_colour(&mut self, claim: Claim, s: Color) {
        let Some(m) = self.game.as_mut() else { return };
        let raise = m.handle_wrong_colour();
        m.press_turn = s.opponent();
        let outcome = m.clock.switch(claim.at, s);
        let number = m.move_count();
        let button = m.button_of(s);
        self.complete_last_move(Claim::new(s, claim.at, true, outcome));
        if let Switched::FlagFallen { side, at } = outcome {
            self.raise_forfeit(side, at, "CN2002 12.4, 22.5");
        }
        self.emit_clock();
        if raise {
            let evidence = vec![(
                claim.at,
                format!(
                    "{s} pressed button {button:?}, set for {}, to complete {s}'s stone",
                    s.opponent()
                ),
            )];
            self.raise(InfractionKind::WrongColour, s, number, Vec::new(), evidence);
        }
    }

    /// Nothing answered a bare press before the deadline: it was a pass (CN2002 2.5).
    pub(crate) fn handle_pass_due(&mut self) {
        let Some(m) = self.game.as_mut() else { return };
        let Some((press, wait)) = m.take_open_press_and_wait() else {
            return;
        };
        let in_turn = press.color == m.game.to_move();
        if in_turn && self.pass_proven(&press, wait, self.now) {
            self.record_pass(press.color, press, true);
        } else {
            // Nothing seen answered the press, but the board could not see all along: ask.
            self.hold_and_explain(vec![press]);
        }
        self.refresh_guidance();
        self.emit(EventKind::StateChanged);
    }

    /// A clock key.
    pub(crate) fn handle_key(&mut self, key: ClockKey) -> Result<(), RefereeError> {
        let Some(m) = self.game.as_mut() else {
            return Err(RefereeError::NoGame);
        };
        match key {
            ClockKey::Pause => self.pause(),
            ClockKey::Resume => self.resume(),
            ClockKey::ResignL | ClockKey::ResignR => {
                let button = if key == ClockKey::ResignL {
                    Button::L
                } else {
                    Button::R
                };
                let color = m.color_of(button);
                self.finish_by(goban_rules::GameResult::Win {
                    winner: color.opponent(),
                    by: goban_rules::WinBy::Resignation,
                });
                Ok(())
            }
            ClockKey::DoneL | ClockKey::DoneR => {
                let button = if key == ClockKey::DoneL {
                    Button::L
                } else {
                    Button::R
                };
                let color = m.color_of(button);
                if m.handle_done(color) && m.phase == Phase::Playing {
                    // Both declared the game finished (CN2002 7.1).
                    self.enter_counting();
                }
                Ok(())
            }
        }
    }
}
