//! The end signals read into the game: the resignation stones at a corner, the zone stones of the agreed end, and the arbiter's confirmation.

use goban_rules::{Color, GameResult, WinBy};

use crate::diff::Diff;
use crate::end_signals::{EndSignal, EndStep, near_own_corner};
use crate::event::EventKind;
use crate::go;
use crate::input::{ArbiterCommand, Reading};
use crate::referee::Referee;
use crate::state::Phase;

impl Referee {
    /// The signal the state shows, if it belongs to the current game.
    pub(crate) fn end_signal(&self) -> Option<EndSignal> {
        self.ending.signal(self.games_started)
    }

    /// Several new stones with no press: two of one colour at their owner's lower-right
    /// corner propose a resignation ("认输就是将两个自己的棋子放在右下角") instead of a
    /// double move. Two stones of one colour are never a legal sequence, so no move explains them.
    pub(crate) fn read_resignation_burst(&mut self, diff: &Diff) -> bool {
        let Some(m) = &self.game else { return false };
        let pressed = m.open_press().is_some() || !m.held.is_empty();
        if !diff.removed.is_empty() || !diff.changed.is_empty() {
            return false;
        }
        let appeared: Vec<(u16, Color)> = diff
            .added
            .iter()
            .filter_map(|&(p, c)| Some((u16::try_from(p).ok()?, c)))
            .collect();
        let signal = self.config.resignation_signal;
        let size = self.size.lines();
        let Some(color) =
            crate::end_signals::resignation_proposal(size, &appeared, pressed, false, signal)
        else {
            return false;
        };
        self.propose_resignation(color, diff.added.iter().map(|a| a.0).collect());
        true
    }

    /// A second stone of the player who just placed one, both at that player's corner and
    /// no press in between: the first was not a move but half of the resignation signal.
    pub(crate) fn read_resignation_second_stone(&mut self, x: usize, s: Color) -> bool {
        let signal = self.config.resignation_signal;
        let size = self.size.lines();
        let Some(m) = &self.game else { return false };
        let Some((c, r)) = m.last_stone() else {
            return false;
        };
        let near =
            |p: usize| u16::try_from(p).is_ok_and(|p| near_own_corner(size, p, s, signal.reach));
        let unpressed = m.provisional && m.open_press().is_none() && m.held.is_empty();
        if !signal.enabled || c != s || !unpressed || !near(r) || !near(x) {
            return false;
        }
        self.withdraw_last_move(r);
        self.propose_resignation(s, vec![r, x]);
        true
    }

    fn propose_resignation(&mut self, color: Color, points: Vec<usize>) {
        let size = self.size;
        let Some(m) = self.game.as_mut() else { return };
        for &p in &points {
            // The stones are the signal, not moves: no second reading of them.
            m.known.insert(p, go::reading_of(color));
        }
        let result = GameResult::Win {
            winner: color.opponent(),
            by: WinBy::Resignation,
        };
        m.propose(Some(result));
        let signal = EndSignal::Resignation {
            color,
            points: points.iter().map(|&p| go::name(p, size)).collect(),
            move_number: m.move_count(),
        };
        let stones = points.iter().map(|&p| (p, color)).collect();
        self.ending
            .handle_resignation(self.games_started, stones, signal);
        self.emit(EventKind::Result {
            result: result.to_rules_string(),
            is_final: false,
        });
    }

    /// After a quiet reading: a resignation proposal lapses once a stone of it is lifted or
    /// play went on; the proposed result goes with it.
    pub(crate) fn review_end_signal(&mut self) {
        let Some(EndSignal::Resignation { move_number, .. }) = self.end_signal() else {
            return;
        };
        let Some(m) = &self.game else { return };
        let playing = matches!(m.phase, Phase::Playing | Phase::Paused);
        let lifted = self.ending.resignation_stones().iter().any(|&(p, c)| {
            self.sight.physical()[p] != go::reading_of(c)
                && self.sight.physical()[p] != Reading::Unknown
        });
        if playing && !lifted && m.move_count() == move_number {
            return;
        }
        if let Some(m) = self.game.as_mut()
            && playing
        {
            m.propose(None);
        }
        self.ending.handle_lapse(self.games_started);
        self.emit(EventKind::StateChanged);
    }

    /// While a resignation proposal stands, `confirm_result`, or the proposed result set
    /// without `force`, confirms it: the arbiter's act is recorded as the result it sets.
    pub(crate) fn confirming_resignation(&self, command: ArbiterCommand) -> ArbiterCommand {
        let playing = self
            .game
            .as_ref()
            .is_some_and(|m| matches!(m.phase, Phase::Playing | Phase::Paused));
        let Some(EndSignal::Resignation { color, .. }) = self.end_signal().filter(|_| playing)
        else {
            return command;
        };
        let proposed = GameResult::Win {
            winner: color.opponent(),
            by: WinBy::Resignation,
        };
        let confirms = match &command {
            ArbiterCommand::ConfirmResult => true,
            // Any form of it ("W+R", "w+resign"): a resignation has no margin to read in a unit.
            ArbiterCommand::SetResult { result, .. } => {
                result.in_unit(goban_rules::ScoreUnit::Points) == proposed
            }
            _ => false,
        };
        if !confirms {
            return command;
        }
        ArbiterCommand::SetResult {
            result: proposed.into(),
            force: true,
        }
    }

    /// A `$ZONE` reading (Black's zone, White's zone).
    pub(crate) fn handle_zones(&mut self, black: Reading, white: Reading) {
        self.ending.handle_zones(self.now, [black, white]);
    }

    /// The zones' readings settled: stones put in a zone are the agreed-end signals
    /// ("先由轮走方，后是对方以异色棋子一枚放于己方棋盘右下角的线外").
    pub(crate) fn handle_zones_due(&mut self) {
        for appeared in self.ending.poll_zone_stones() {
            self.on_zone_stone(appeared);
        }
    }

    fn on_zone_stone(&mut self, appeared: (Color, Color)) {
        let Some(m) = &self.game else { return };
        if m.phase != Phase::Playing {
            return;
        }
        let (to_move, move_number) = (m.game.to_move(), m.move_count());
        let step =
            self.ending
                .handle_zone_stone(self.games_started, appeared, to_move, move_number);
        if step == EndStep::Agreed {
            // Both signalled in order: the game is finished and counted (CN2002 7, 21).
            self.enter_counting();
        }
        self.emit(EventKind::StateChanged);
    }
}
