//! A game's life: start, pause and resume, the clock's deadlines, the end (counting or a result), guidance upkeep.

use goban_rules::{BoardSize, Game, GameResult, GameSetup as RulesSetup, HandicapPlacement};

use crate::clock::{ClockEvent, ClockTick};
use crate::command::{DeviceCommand, Running};
use crate::error::RefereeError;
use crate::event::EventKind;
use crate::go;
use crate::guidance::Guidance;
use crate::infraction::InfractionKind;
use crate::input::GameSetup;
use crate::match_state::{Entry, Match};
use crate::referee::Referee;
use crate::state::Phase;
use crate::timekeeper::Timekeeper;

impl Referee {
    /// Starts a new game and its clock.
    pub(crate) fn start_game(&mut self, setup: GameSetup) -> Result<(), RefereeError> {
        let ruleset = setup.ruleset.unwrap_or(self.config.ruleset);
        let mut rules = RulesSetup::new(self.size, ruleset);
        let handicap = setup.handicap.unwrap_or(0);
        if handicap >= 2 {
            let placement = match setup.free_handicap {
                Some(true) => HandicapPlacement::Free,
                _ => HandicapPlacement::Fixed,
            };
            rules = rules.with_handicap(handicap, placement);
        }
        if let Some(komi) = setup.komi.or(self.config.komi) {
            rules.komi = komi;
        }
        if let Some(ko) = setup.ko_rule {
            rules.ko_rule = ko;
        }
        let game = Game::new(rules)?;
        self.games_started += 1;
        let id = setup
            .game
            .or_else(|| self.config.game.clone().filter(|_| self.games_started == 1))
            .unwrap_or_else(|| format!("{}-{}", self.config.board, self.games_started));
        let first = game.first_to_move();
        let mut clock = Timekeeper::new(
            setup.time_control.or(self.config.time_control),
            self.config.venue,
        );
        clock.start(self.now, first);
        let entry = Entry {
            id,
            black: setup.black.unwrap_or_else(|| self.config.black.clone()),
            white: setup.white.unwrap_or_else(|| self.config.white.clone()),
            event: setup.event.or_else(|| self.config.event.clone()),
            round: setup.round,
            place: setup.place,
            colours_fixed: setup.colours_fixed.unwrap_or(true),
        };
        let mut m = Match::new(game, clock, self.now, self.config.black_button, entry);
        m.komi = rules.komi;
        self.drop_held("; a new game started");
        self.game = Some(m);
        self.timeline.clear();
        self.adopt_leftovers();
        self.emit(EventKind::Phase {
            phase: Phase::Playing,
        });
        self.emit_clock();
        self.refresh_guidance();
        self.emit(EventKind::StateChanged);
        Ok(())
    }

    /// Stones already on the board at the start (and handicap stones not placed yet) are
    /// guidance, not moves nor alerts; points unreadable then are adopted when they first read.
    pub(crate) fn adopt_leftovers(&mut self) {
        let game = self.game_readings();
        let blind = self.sight.blind();
        if let Some(m) = self.game.as_mut() {
            m.adopt_leftovers(&game, self.sight.physical(), blind);
        }
    }

    /// Points unreadable at the start that read now: their stones are leftovers too.
    pub(crate) fn adopt_late_leftovers(&mut self) {
        if self.sight.blind() {
            return;
        }
        if !self.game.as_ref().is_some_and(Match::has_unread_at_start) {
            return;
        }
        let game = self.game_readings();
        if let Some(m) = self.game.as_mut() {
            m.adopt_late_leftovers(&game, self.sight.physical());
        }
    }

    /// Play ended by two passes or DONE keys: the counting phase (CN2002 7, 8, 21).
    pub(crate) fn enter_counting(&mut self) {
        let now = self.now;
        let Some(m) = self.game.as_mut() else { return };
        m.phase = Phase::Counting;
        self.drop_held("; the game went to counting");
        let Some(m) = self.game.as_mut() else { return };
        m.drop_presses();
        m.provisional = false;
        m.clock.pause(now);
        self.emit(EventKind::Phase {
            phase: Phase::Counting,
        });
        self.update_counting();
    }

    /// Counts again while counting, and tells a new proposed result.
    pub(crate) fn update_counting(&mut self) {
        let Some(m) = self.game.as_mut() else { return };
        if let Some(result) = m.recount(self.sight.physical()) {
            self.emit(EventKind::Result {
                result: result.to_rules_string(),
                is_final: false,
            });
        }
    }

    /// A dead-stone dispute: play resumes, the side claiming "dead" first (CN2002 21.4).
    pub(crate) fn resume_play(&mut self, first: goban_rules::Color) -> Result<(), RefereeError> {
        let now = self.now;
        let m = self.game.as_mut().ok_or(RefereeError::NoGame)?;
        m.handle_resume_play(now)?;
        let second = m.game.to_move() != first;
        self.emit(EventKind::Phase {
            phase: Phase::Playing,
        });
        if second {
            // The other side is recorded as passing so that `first` moves next.
            let pass = crate::match_state::Claim {
                color: first.opponent(),
                at: now,
                switched: false,
                time_left: None,
                periods_left: None,
            };
            self.record_pass(first.opponent(), pass, false);
        }
        if let Some(m) = self.game.as_mut() {
            m.press_turn = first;
        }
        // Stones taken off during counting go back as guided, without alerts.
        self.adopt_leftovers();
        self.refresh_guidance();
        self.emit(EventKind::StateChanged);
        Ok(())
    }

    /// The game has a final result.
    pub(crate) fn finish_by(&mut self, result: GameResult) {
        let now = self.now;
        let Some(m) = self.game.as_mut() else { return };
        if m.result().is_some() {
            return;
        }
        let dead = m.dead_points(self.sight.physical());
        m.keep_count_for(&result, dead);
        // The state speaks the rules' unit (stones under CN2002); SGF RE converts to points.
        let text = result.to_rules_string();
        m.set_result(result);
        m.phase = Phase::Finished;
        self.drop_held("; the game ended");
        let Some(m) = self.game.as_mut() else { return };
        m.drop_presses();
        m.clock.pause(now);
        self.emit(EventKind::Result {
            result: text,
            is_final: true,
        });
        self.emit(EventKind::Phase {
            phase: Phase::Finished,
        });
        self.emit(EventKind::StateChanged);
    }

    /// Stops the clocks (CN2002 14).
    pub(crate) fn pause(&mut self) -> Result<(), RefereeError> {
        let now = self.now;
        let m = self.game.as_mut().ok_or(RefereeError::NoGame)?;
        m.handle_pause(now)?;
        self.emit(EventKind::Phase {
            phase: Phase::Paused,
        });
        self.emit_clock();
        Ok(())
    }

    /// Restarts the clock of the side to move.
    pub(crate) fn resume(&mut self) -> Result<(), RefereeError> {
        let now = self.now;
        let m = self.game.as_mut().ok_or(RefereeError::NoGame)?;
        let phase = m.handle_resume(now)?;
        self.emit(EventKind::Phase { phase });
        self.emit_clock();
        // The sealed move (or anything done during the pause) is read now (CN2002 14).
        if phase == Phase::Playing && self.sight.debouncer().earliest_pending().is_none() {
            self.interpret(false);
            self.process_claims(None);
            self.refresh_guidance();
            self.emit(EventKind::StateChanged);
        }
        Ok(())
    }

    /// The clock's deadline: count-out calls, periods, flag fall (CN2002 12.3, 12.4).
    pub(crate) fn handle_clock_due(&mut self, at: crate::Timestamp) {
        let Some(m) = self.game.as_mut() else { return };
        let events = m.clock.handle_timeout(at);
        for event in events {
            self.on_clock_event(event);
        }
    }

    fn on_clock_event(&mut self, event: ClockEvent) {
        let who = event.side();
        if let ClockEvent::FlagFall { at, article, .. } = &event {
            self.raise_forfeit(who, *at, article);
            self.emit_clock();
            return;
        }
        let Some(code) = self.game.as_ref().and_then(|m| m.clock.call_code(&event)) else {
            return;
        };
        // CN2002 12.3: "30秒 … 58秒", "1分, 还剩×分", the last ten seconds; both languages go out.
        let words = code.announce();
        self.emit(EventKind::ClockCall {
            color: who,
            call: words.english,
            call_zh: words.chinese,
            code,
        });
        if event.is_call() {
            self.outbox.command(DeviceCommand::Beep { count: 1 });
        }
        self.emit_clock();
    }

    /// A flag fell (CN2002 12.4, 22.5): one `flag_fall` event and one `time_forfeit` alert per
    /// fall, whether the clock's deadline or a press after it found it first.
    pub(crate) fn raise_forfeit(
        &mut self,
        who: goban_rules::Color,
        at: crate::Timestamp,
        article: &str,
    ) {
        let Some(m) = self.game.as_mut() else { return };
        if !m.handle_flag_fall(who, at) {
            return;
        }
        let number = m.move_count() + 1;
        self.emit(EventKind::FlagFall { color: who });
        let evidence = vec![(at, format!("{who}'s time ran out ({article})"))];
        self.raise(
            InfractionKind::TimeForfeit,
            who,
            number,
            Vec::new(),
            evidence,
        );
    }

    /// Publishes the clock reading and the `$SHOW` command.
    pub(crate) fn emit_clock(&mut self) {
        let now = self.now;
        let Some(m) = self.game.as_mut() else { return };
        m.handle_clock_published(now);
        let (Some(clock), Some(show)) = (m.clock.reading(now), m.clock.show(now)) else {
            return;
        };
        let running = match show.running {
            Some(goban_rules::Color::Black) => Running::B,
            Some(goban_rules::Color::White) => Running::W,
            None => Running::None,
        };
        self.outbox.command(DeviceCommand::Show {
            black_ms: show.black_ms,
            white_ms: show.white_ms,
            black_periods: show.black_periods,
            white_periods: show.white_periods,
            running,
        });
        self.emit(EventKind::Clock {
            clock: ClockTick::from(&clock),
        });
    }

    /// Recomputes the restore list; publishes it and the LEDs when it changed.
    pub(crate) fn refresh_guidance(&mut self) {
        let game = self.game_readings();
        let size: BoardSize = self.size;
        let guidance = match &self.game {
            Some(m) if m.phase == Phase::Playing || m.phase == Phase::Paused => {
                let mut g = Guidance::between(&game, self.sight.physical(), |i| go::name(i, size));
                // Captured stones still to take off after the move are part of the list too.
                g.leds.sort_unstable();
                g
            }
            _ => Guidance::default(),
        };
        if guidance != self.guidance {
            self.guidance = guidance.clone();
            self.outbox.command(DeviceCommand::Led {
                points: guidance.leds.clone(),
            });
            self.emit(EventKind::Guidance { guidance });
        }
    }
}
