//! The match's counting: the dead stones (taken off, or marked by the arbiter), seki rulings, the count and the proposed result (CN2002 8, 9, 21, 24).

use goban_rules::score::{Score, SekiMarks, SekiRuling};
use goban_rules::{BoardSize, Color, GameResult, Point};

use super::Match;
use crate::error::RefereeError;
use crate::go;
use crate::input::Reading;
use crate::state::Phase;

impl Match {
    /// The stones counted dead on the board read as `physical`: those the players took off,
    /// corrected by the arbiter's marks.
    pub(crate) fn dead_points(&self, physical: &[Reading]) -> Vec<usize> {
        let board = self.game.board();
        (0..physical.len())
            .filter(|&i| board.get(go::point(i)).is_some())
            .filter(|&i| match self.marks.get(&i) {
                Some(&dead) => dead,
                None => physical[i] == Reading::Empty,
            })
            .collect()
    }

    /// The dead stones the state shows: as counted now while counting, as counted at the end
    /// once finished, none in play.
    pub(crate) fn shown_dead(&self, physical: &[Reading]) -> Vec<usize> {
        match self.phase {
            Phase::Counting => self.dead_points(physical),
            Phase::Finished => self.dead_at_end.clone(),
            _ => Vec::new(),
        }
    }

    /// Counts again while counting; returns the proposed result when it changed to a new one.
    pub(crate) fn recount(&mut self, physical: &[Reading]) -> Option<GameResult> {
        if self.phase != Phase::Counting {
            return None;
        }
        let dead: Vec<Point> = self
            .dead_points(physical)
            .into_iter()
            .map(go::point)
            .collect();
        self.count = crate::scoring::score(&self.game, &dead, self.audit.warnings(), &self.seki);
        let proposed = self.count.map(|s| s.result);
        if proposed == self.proposed() {
            return None;
        }
        self.propose(proposed);
        proposed
    }

    /// The arbiter rules the groups of `points` in seki or not, or withdraws a ruling
    /// (`None`); a ruling names a living stone. The caller counts again.
    pub(crate) fn handle_mark_seki(
        &mut self,
        points: &[String],
        ruling: Option<SekiRuling>,
        size: BoardSize,
        physical: &[Reading],
    ) -> Result<(), RefereeError> {
        if self.phase != Phase::Counting {
            return Err(RefereeError::WrongPhase("seki is ruled while counting"));
        }
        let dead = self.dead_points(physical);
        let parsed = self.stones_named(points, size, |p| dead.contains(&p.index()))?;
        for p in parsed {
            match ruling {
                Some(r) => self.seki.rule(p, r),
                None => {
                    // Withdrawing names any stone of the group: clear every ruled point in it.
                    for q in self.game.board().chain(p) {
                        self.seki.clear(q);
                    }
                }
            }
        }
        Ok(())
    }

    /// The arbiter marks (or unmarks) dead the groups of the named stones (CN2002 8, 21.4).
    /// The caller counts again.
    pub(crate) fn handle_mark_dead(
        &mut self,
        points: &[String],
        dead: bool,
        size: BoardSize,
    ) -> Result<(), RefereeError> {
        if self.phase != Phase::Counting {
            return Err(RefereeError::WrongPhase(
                "dead stones are marked while counting",
            ));
        }
        let parsed = self.stones_named(points, size, |_| false)?;
        for p in parsed {
            // Naming one stone marks its whole group (api.md).
            for q in self.game.board().chain(p) {
                self.marks.insert(q.index(), dead);
            }
        }
        Ok(())
    }

    /// The points named, each a stone on the board and not `refused`; all or nothing.
    fn stones_named(
        &self,
        points: &[String],
        size: BoardSize,
        refused: impl Fn(Point) -> bool,
    ) -> Result<Vec<Point>, RefereeError> {
        let mut parsed = Vec::new();
        for text in points {
            let p =
                Point::parse_human(text, size).map_err(|_| RefereeError::BadPoint(text.clone()))?;
            if self.game.board().get(p).is_none() || refused(p) {
                return Err(RefereeError::BadPoint(text.clone()));
            }
            parsed.push(p);
        }
        Ok(parsed)
    }

    /// A dead-stone dispute (CN2002 21.4): counting is dropped and play resumes at `now`.
    pub(crate) fn handle_resume_play(&mut self, now: crate::Timestamp) -> Result<(), RefereeError> {
        if self.phase != Phase::Counting {
            return Err(RefereeError::WrongPhase("play resumes from counting"));
        }
        self.game.resume()?;
        self.phase = Phase::Playing;
        self.marks.clear();
        self.seki = SekiMarks::new();
        self.count = None;
        self.done.clear();
        self.propose(None);
        self.clock.resume(now);
        Ok(())
    }

    /// The counted score the arbiter confirms, in the ruleset's unit (stones under CN2002).
    pub(crate) fn counted_result(&self) -> Result<GameResult, RefereeError> {
        if self.phase != Phase::Counting {
            return Err(RefereeError::WrongPhase(
                "a score is confirmed while counting",
            ));
        }
        self.proposed()
            .ok_or(RefereeError::WrongPhase("no score to confirm"))
    }

    /// The game ends with `result`: the dead stones as counted (`dead`) stay in the final
    /// state and the SGF (TB/TW) when it ends from counting, and the count only beside the
    /// result it gives (a result the arbiter set otherwise has none).
    pub(crate) fn keep_count_for(&mut self, result: &GameResult, dead: Vec<usize>) {
        if self.phase == Phase::Counting {
            self.dead_at_end = dead;
        }
        if self.count.is_some_and(|c| c.result != *result) {
            self.count = None;
        }
    }

    /// A DONE key of `color` (CN2002 7.1); true when both sides have pressed theirs.
    pub(crate) fn handle_done(&mut self, color: Color) -> bool {
        self.done.insert(color);
        self.done.len() == 2
    }

    /// The count behind the proposed (or final) result.
    pub(crate) fn count(&self) -> Option<Score> {
        self.count
    }

    /// The arbiter's seki rulings.
    pub(crate) fn seki(&self) -> &SekiMarks {
        &self.seki
    }
}
