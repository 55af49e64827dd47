//! Whether the board can see: blind while unplugged or resyncing, unclean with `?` or chattering points; presses it cannot explain are held and one device alert asks the arbiter (referee-notes.md point 7).

use crate::Timestamp;
use crate::device_alert::{DeviceAlert, DeviceAlertKind};
use crate::go;
use crate::match_state::Claim;
use crate::referee::Referee;
use crate::state::{Interpretation, Phase};

impl Referee {
    /// The board stopped seeing (unplugged, frames lost): presses still open are held.
    pub(crate) fn go_blind(&mut self) {
        self.sight.handle_gap(self.now);
        let Some(m) = self.game.as_mut() else { return };
        if m.phase != Phase::Playing {
            return;
        }
        let open = m.take_open_presses();
        self.hold(open);
    }

    /// Presses of unknown time arrived (a device's backlog): trust nothing the board said
    /// before, hold what is open, and ask the board for a fresh snapshot to explain them.
    pub(crate) fn read_afresh(&mut self) {
        if self.sight.blind() && !self.sight.debouncer().is_synced() {
            return;
        }
        self.go_blind();
        self.outbox
            .command(crate::command::DeviceCommand::SnapRequest);
        self.emit_device();
    }

    /// After a reported reading: the board sees again once a snapshot settled; it is
    /// unclean while any point reads `?` or chatters.
    pub(crate) fn update_sight(&mut self) {
        let unclean = self.devices.unclean();
        if self.sight.handle_reported(self.now, unclean) {
            // The state says the board reads again (`device.interpretation`).
            self.emit_device();
        }
    }

    /// Whether a pass can be inferred from `claim`, answered at `answered_at` (the opponent's
    /// stone or press; the deadline: now): the board saw, clean, from the press (or from
    /// `wait_from`, when later) until now, and no stone of the presser placed before the answer
    /// is still settling.
    pub(crate) fn pass_proven(
        &self,
        claim: &Claim,
        wait_from: Option<Timestamp>,
        answered_at: Timestamp,
    ) -> bool {
        let start = wait_from.map_or(claim.at, |w| w.max(claim.at));
        self.sight.clean_since(start)
            && !self.late_stone_of(claim.color)
            && !self.stone_settling_of(claim.color, answered_at)
    }

    /// Whether a new stone of `color`, placed before `before`, stands on the board but is not
    /// reported yet (its region is still busy, fast play), or is reported but not read as a
    /// move yet: it may be the press's move, so no pass is proven.
    /// Whether a stone of `color` placed before `before` is still settling in the debouncer
    /// (not reported yet): the next report says whether it stays.
    pub(crate) fn stone_unreported_of(&self, color: goban_rules::Color, before: Timestamp) -> bool {
        let reading = go::reading_of(color);
        let Some(m) = self.game.as_ref() else {
            return false;
        };
        let board = m.game.board();
        self.sight
            .debouncer()
            .pending_readings()
            .any(|(p, r, at)| r == reading && at < before && board.get(go::point(p)).is_none())
    }

    fn stone_settling_of(&self, color: goban_rules::Color, before: Timestamp) -> bool {
        let reading = go::reading_of(color);
        let Some(m) = self.game.as_ref() else {
            return false;
        };
        let board = m.game.board();
        let settling = self.stone_unreported_of(color, before);
        // Reported since the last move but not read as a move yet (a burst waiting for its
        // sub-steps to settle).
        let unplayed = self.sight.physical().iter().enumerate().any(|(p, &r)| {
            r == reading
                && self.sight.changed_at()[p] > m.placed_at
                && self.sight.changed_at()[p] < before
                && board.get(go::point(p)).is_none()
                && m.known.get(&p) != Some(&r)
        });
        settling || unplayed
    }

    /// Whether a stone of `color` found only after the start (the board could not see it
    /// then) may be the presser's first move rather than a leftover.
    pub(crate) fn late_stone_of(&self, color: goban_rules::Color) -> bool {
        let Some(m) = self.game.as_ref() else {
            return false;
        };
        let reading = go::reading_of(color);
        m.late_found
            .iter()
            .any(|&p| self.sight.physical()[p] == reading && m.known.get(&p) == Some(&reading))
    }

    /// Holds presses and tries at once to explain them; asks the arbiter only when that fails.
    pub(crate) fn hold_and_explain(&mut self, claims: Vec<Claim>) {
        let Some(m) = self.game.as_mut() else { return };
        m.held.extend(claims.into_iter().filter(|c| c.switched));
        m.held.sort_by_key(|c| c.at);
        self.reconcile();
        let unexplained = self
            .game
            .as_ref()
            .is_some_and(|m| !m.held.is_empty() && m.board_alert().is_none());
        if unexplained {
            self.update_board_alert("");
        }
    }

    /// Whether a point reads `?` now (raw, not yet reported) that is no chattering sensor: a
    /// hand covers it, and what it puts down may be a stone not read yet.
    pub(crate) fn hand_over_the_board(&self) -> bool {
        let debouncer = self.sight.debouncer();
        debouncer
            .raw()
            .iter()
            .enumerate()
            .any(|(p, &r)| r == crate::input::Reading::Unknown && !debouncer.is_chattering(p))
    }

    /// Whether presses must be held rather than read now.
    pub(crate) fn holding(&self) -> bool {
        self.sight.blind() || self.game.as_ref().is_some_and(|m| !m.held.is_empty())
    }

    /// Holds presses the board cannot explain, and the presses queued behind them (a move
    /// after one that is not explained cannot be either); only presses that switched the
    /// clock claim a move.
    pub(crate) fn hold(&mut self, claims: Vec<Claim>) {
        let Some(m) = self.game.as_mut() else { return };
        let before = m.held.len();
        let behind = m.take_queued_claims();
        m.held
            .extend(claims.into_iter().chain(behind).filter(|c| c.switched));
        m.held.sort_by_key(|c| c.at);
        if m.held.len() != before {
            self.update_board_alert("");
        }
    }

    /// Raises, updates or resolves the one `board_unavailable` alert of the held presses.
    pub(crate) fn update_board_alert(&mut self, note: &str) {
        let now = self.now.to_rfc3339();
        let Some(m) = self.game.as_mut() else { return };
        let held = u32::try_from(m.held.len()).unwrap_or(u32::MAX);
        let message = if held == 0 {
            format!("the board sees again; no press is left unexplained{note}")
        } else {
            format!(
                "the board could not see: {held} clock press(es) unexplained, no move or pass \
                 guessed. Check the board's cable and sensors; when it reads again the referee \
                 accepts the one sequence of moves that explains it. If it keeps asking, have \
                 the stones played meanwhile taken off and replayed in order{note}"
            )
        };
        let open = m.board_alert().map(str::to_owned);
        match (open, held) {
            (None, 0) => {}
            (None, _) => {
                let id = self.devices.raise(&self.config.board, |id| DeviceAlert {
                    id,
                    kind: DeviceAlertKind::BoardUnavailable,
                    point: None,
                    presses_unexplained: held,
                    raised_at: now,
                    resolved_at: None,
                    message,
                });
                if let Some(m) = self.game.as_mut() {
                    m.handle_board_alert_raised(id);
                }
            }
            (Some(id), _) => {
                if held == 0
                    && let Some(m) = self.game.as_mut()
                {
                    m.handle_board_alert_closed();
                }
                if let Some(a) = self.devices.alert_mut(&id) {
                    a.presses_unexplained = held;
                    a.message = message;
                    if held == 0 {
                        a.resolved_at = Some(now);
                    }
                }
            }
        }
        self.devices.handle_unexplained_presses(held);
        self.emit_device();
    }

    /// Raises a chattering-sensor alert for each newly chattering point and resolves the
    /// alerts of points that read steadily again.
    pub(crate) fn update_chattering(&mut self) {
        let size = self.size;
        let points: Vec<String> = self
            .sight
            .debouncer()
            .chattering()
            .into_iter()
            .map(|p| go::name(p, size))
            .collect();
        if points == self.devices.chattering_points() {
            return;
        }
        let now = self.now.to_rfc3339();
        for p in &points {
            if self.devices.chattering_points().contains(p) {
                continue;
            }
            self.devices.raise(&self.config.board, |id| DeviceAlert {
                id,
                kind: DeviceAlertKind::ChatteringSensor,
                point: Some(p.clone()),
                presses_unexplained: 0,
                raised_at: now.clone(),
                resolved_at: None,
                message: format!(
                    "the sensor of {p} flips too often: it is read as unknown until steady. \
                     Check the point (a stone half on it, a loose sensor); play goes on"
                ),
            });
        }
        self.devices.handle_chattering(points, &now);
        self.emit_device();
    }

    /// What the referee does with readings now (published in `device.interpretation`).
    pub(crate) fn interpretation(&self) -> Interpretation {
        match &self.game {
            Some(m) if m.is_frozen() => Interpretation::Frozen,
            Some(m) if !m.held.is_empty() || self.sight.blind() => Interpretation::WaitingForBoard,
            _ => Interpretation::Reading,
        }
    }

    /// Ends the held presses of a game that ended or is replaced.
    pub(crate) fn drop_held(&mut self, why: &str) {
        let Some(m) = self.game.as_mut() else { return };
        m.forget_unexplained();
        if m.held.is_empty() {
            return;
        }
        m.held.clear();
        self.update_board_alert(why);
    }
}
