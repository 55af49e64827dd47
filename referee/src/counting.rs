//! The counting phase: stones taken off are proposed dead, the arbiter marks or unmarks groups, the rules core scores (CN2002 8, 9, 21, 24).

use goban_rules::score::SekiRuling;
use goban_rules::{GameResult, Point};

use crate::error::RefereeError;
use crate::event::EventKind;
use crate::go;
use crate::input::Reading;
use crate::referee::Referee;
use crate::state::Phase;

impl Referee {
    /// The stones counted dead now: those the players took off, corrected by the arbiter's marks.
    pub(crate) fn dead_points(&self) -> Vec<usize> {
        let Some(m) = &self.game else {
            return Vec::new();
        };
        let board = m.game.board();
        (0..self.size.points())
            .filter(|&i| board.get(go::point(i)).is_some())
            .filter(|&i| match m.marks.get(&i) {
                Some(&dead) => dead,
                None => self.sight.physical()[i] == Reading::Empty,
            })
            .collect()
    }

    /// Recomputes the proposed result (and its count) during counting.
    pub(crate) fn update_counting(&mut self) {
        let dead: Vec<Point> = self.dead_points().into_iter().map(go::point).collect();
        let Some(m) = self.game.as_mut() else { return };
        if m.phase != Phase::Counting {
            return;
        }
        m.count = crate::scoring::score(&m.game, &dead, m.audit.warnings(), &m.seki);
        let proposed = m.count.map(|s| s.result.to_rules_string());
        if proposed != m.proposed {
            m.proposed.clone_from(&proposed);
            if let Some(result) = proposed {
                self.emit(EventKind::Result {
                    result,
                    is_final: false,
                });
            }
        }
    }

    /// The arbiter rules groups in seki or not, or withdraws a ruling (CN2002 21.2; JK counts it).
    pub(crate) fn handle_mark_seki(
        &mut self,
        points: &[String],
        ruling: Option<SekiRuling>,
    ) -> Result<(), RefereeError> {
        let size = self.size;
        let dead = self.dead_points();
        let m = self.game.as_mut().ok_or(RefereeError::NoGame)?;
        if m.phase != Phase::Counting {
            return Err(RefereeError::WrongPhase("seki is ruled while counting"));
        }
        let mut parsed = Vec::new();
        for text in points {
            let p =
                Point::parse_human(text, size).map_err(|_| RefereeError::BadPoint(text.clone()))?;
            // A ruling names a living stone: one counted dead is no group in seki.
            if m.game.board().get(p).is_none() || dead.contains(&p.index()) {
                return Err(RefereeError::BadPoint(text.clone()));
            }
            parsed.push(p);
        }
        for p in parsed {
            match ruling {
                Some(r) => m.seki.rule(p, r),
                None => {
                    // Withdrawing names any stone of the group: clear every ruled point in it.
                    for q in m.game.board().chain(p) {
                        m.seki.clear(q);
                    }
                }
            }
        }
        self.update_counting();
        self.emit(EventKind::StateChanged);
        Ok(())
    }

    /// The arbiter marks (or unmarks) dead the groups of the named stones (CN2002 8, 21.4).
    pub(crate) fn handle_mark_dead(
        &mut self,
        points: &[String],
        dead: bool,
    ) -> Result<(), RefereeError> {
        let size = self.size;
        let m = self.game.as_mut().ok_or(RefereeError::NoGame)?;
        if m.phase != Phase::Counting {
            return Err(RefereeError::WrongPhase(
                "dead stones are marked while counting",
            ));
        }
        let mut parsed = Vec::new();
        for text in points {
            let p =
                Point::parse_human(text, size).map_err(|_| RefereeError::BadPoint(text.clone()))?;
            if m.game.board().get(p).is_none() {
                return Err(RefereeError::BadPoint(text.clone()));
            }
            parsed.push(p);
        }
        for p in parsed {
            // Naming one stone marks its whole group (api.md).
            for q in m.game.board().chain(p) {
                m.marks.insert(q.index(), dead);
            }
        }
        self.update_counting();
        self.emit(EventKind::StateChanged);
        Ok(())
    }

    /// A dead-stone dispute: play resumes, the side claiming "dead" first (CN2002 21.4).
    pub(crate) fn resume_play(&mut self, first: goban_rules::Color) -> Result<(), RefereeError> {
        let now = self.now;
        let m = self.game.as_mut().ok_or(RefereeError::NoGame)?;
        if m.phase != Phase::Counting {
            return Err(RefereeError::WrongPhase("play resumes from counting"));
        }
        m.game.resume()?;
        m.phase = Phase::Playing;
        m.marks.clear();
        m.seki = goban_rules::score::SekiMarks::new();
        m.count = None;
        m.done.clear();
        m.proposed = None;
        m.clock.resume(now);
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

    /// The arbiter confirms the counted score: the result is final.
    pub(crate) fn confirm_result(&mut self) -> Result<(), RefereeError> {
        let m = self.game.as_ref().ok_or(RefereeError::NoGame)?;
        if m.phase != Phase::Counting {
            return Err(RefereeError::WrongPhase(
                "a score is confirmed while counting",
            ));
        }
        let proposed = m
            .proposed
            .clone()
            .ok_or(RefereeError::WrongPhase("no score to confirm"))?;
        // The proposal is in the ruleset's unit (stones under CN2002).
        let unit = m.game.setup().ruleset.score_unit();
        let result =
            GameResult::parse_in(&proposed, unit).map_err(|_| RefereeError::BadResult(proposed))?;
        self.finish_by(result);
        Ok(())
    }
}
