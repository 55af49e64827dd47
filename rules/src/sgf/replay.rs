//! Replaying a read record through the rules, move by move, with full legality checks.

use super::{SgfEvent, SgfGame};
use crate::{
    Board, Color, FreeHandicap, Game, GameState, Illegal, KoRule, Move, Point, RulesError, handicap,
};

/// A record replayed into a [`Game`].
#[derive(Clone, Debug)]
pub struct Replay {
    /// The game after the last move.
    pub game: Game,
    /// Passes inserted where one colour moved twice in a row (an implied pass).
    pub implied_passes: usize,
    /// Record move numbers after which setup nodes changed the position; the game's move
    /// list restarts at each (its history cannot hold stones added mid-game).
    pub rebased_after: Vec<usize>,
}

/// What a replay does at an illegal move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OnIllegal {
    /// Report it and stop: the iterator ends after the illegal step.
    #[default]
    Stop,
    /// Report it, leave the move out (as if not recorded) and go on.
    Skip,
}

/// A legal move played by a replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The stones it captured.
    pub captures: Vec<Point>,
    /// Whether a pass of the other colour was inserted before it (same colour twice).
    pub implied_pass: bool,
}

/// One move of a stepping replay ([`SgfGame::steps`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// 1-based number of the move node in the record.
    pub record_move: usize,
    /// The colour that moved.
    pub color: Color,
    /// The move.
    pub mv: Move,
    /// What the rules made of it.
    pub outcome: Result<Played, Illegal>,
}

/// A replay one record move at a time: an iterator of [`Step`]s; [`Steps::game`] is the
/// position after the last step.
#[derive(Clone, Debug)]
pub struct Steps<'a> {
    record: &'a SgfGame,
    next_event: usize,
    record_move: usize,
    on_illegal: OnIllegal,
    stopped: bool,
    replay: Replay,
}

impl SgfGame {
    /// Replays the main line under the record's own ko rule.
    ///
    /// # Errors
    /// [`RulesError::SgfIllegalMove`] at the first illegal move.
    pub fn replay(&self) -> Result<Replay, RulesError> {
        self.replay_with(self.setup.ko_rule)
    }

    /// Replays the main line under `ko_rule`.
    ///
    /// # Errors
    /// [`RulesError::SgfIllegalMove`] at the first illegal move.
    pub fn replay_with(&self, ko_rule: KoRule) -> Result<Replay, RulesError> {
        let mut steps = self.steps(ko_rule, OnIllegal::Stop)?;
        for step in steps.by_ref() {
            if let Err(refused) = step.outcome {
                return Err(RulesError::SgfIllegalMove {
                    record_move: step.record_move,
                    color: step.color,
                    mv: step.mv,
                    at: step.mv.display(self.setup.size).to_string(),
                    reason: refused.reason,
                });
            }
        }
        Ok(steps.replay)
    }

    /// A stepping replay of the main line under `ko_rule`.
    ///
    /// ```
    /// use goban_rules::sgf::{OnIllegal, read_sgf};
    /// use goban_rules::{IllegalReason, KoRule};
    /// // White's B3 (`bc`) is an immediate recapture of the ko: illegal.
    /// let text = "(;SZ[5]AB[bb][ac][bd]AW[cb][dc][cd][bc];B[cc];W[bc];B[aa])";
    /// let rec = &read_sgf(text)?[0];
    /// let mut steps = rec.steps(KoRule::Simple, OnIllegal::Skip)?;
    /// assert!(steps.next().unwrap().outcome.is_ok());
    /// let refused = steps.next().unwrap().outcome.unwrap_err();
    /// assert_eq!(refused.reason, IllegalReason::Ko);
    /// assert_eq!(refused.to_string(), "white B3 is illegal: ko: immediate recapture is forbidden (CN2002 18.3, 20.1)");
    /// assert!(steps.next().unwrap().outcome.is_ok()); // went on past it
    /// assert!(steps.next().is_none());
    /// # Ok::<(), goban_rules::RulesError>(())
    /// ```
    ///
    /// # Errors
    /// [`RulesError::BadHandicap`] when the record's handicap cannot be placed.
    pub fn steps(&self, ko_rule: KoRule, on_illegal: OnIllegal) -> Result<Steps<'_>, RulesError> {
        let setup = self.setup.with_ko_rule(ko_rule);
        let mut board = Board::new(setup.size);
        for &(p, c) in &self.setup_stones {
            board.put_setup_stone(p, c);
        }
        if setup.has_handicap() && self.setup_stones.is_empty() {
            for p in handicap::fixed_handicap_points(setup.size, setup.handicap)? {
                board.put_setup_stone(p, Color::Black);
            }
        }
        let game = Game::from_position(setup, board, self.first_color(), FreeHandicap::Placed);
        Ok(Steps {
            record: self,
            next_event: 0,
            record_move: 0,
            on_illegal,
            stopped: false,
            replay: Replay {
                game,
                implied_passes: 0,
                rebased_after: Vec::new(),
            },
        })
    }

    /// The game after record move `record_move` (0: the start) under `ko_rule`, illegal
    /// moves left out.
    ///
    /// # Errors
    /// As [`SgfGame::steps`].
    pub fn position_at(&self, record_move: usize, ko_rule: KoRule) -> Result<Game, RulesError> {
        let mut steps = self.steps(ko_rule, OnIllegal::Skip)?;
        while steps.record_move < record_move && steps.next().is_some() {}
        Ok(steps.replay.game)
    }

    /// Who moves first: the first recorded move's colour, else `PL`, else White after a
    /// handicap, else Black.
    fn first_color(&self) -> Color {
        let first_move = self.events.iter().find_map(|e| match e {
            SgfEvent::Move(m) => Some(m.color),
            SgfEvent::Setup { .. } => None,
        });
        first_move
            .or(self.player_to_move)
            .unwrap_or(if self.setup.has_handicap() {
                Color::White
            } else {
                Color::Black
            })
    }
}

impl Steps<'_> {
    /// The game after the last step.
    #[must_use]
    pub const fn game(&self) -> &Game {
        &self.replay.game
    }

    /// The replay so far (implied passes, rebases).
    #[must_use]
    pub const fn replay(&self) -> &Replay {
        &self.replay
    }
}

impl Iterator for Steps<'_> {
    type Item = Step;

    fn next(&mut self) -> Option<Step> {
        if self.stopped {
            return None;
        }
        while let Some(event) = self.record.events.get(self.next_event) {
            self.next_event += 1;
            match event {
                SgfEvent::Setup {
                    add,
                    clear,
                    to_move,
                } => self.replay.rebase(add, clear, *to_move, self.record_move),
                SgfEvent::Move(m) => {
                    self.record_move += 1;
                    let outcome = self.replay.play(m.color, m.mv);
                    self.stopped = outcome.is_err() && self.on_illegal == OnIllegal::Stop;
                    return Some(Step {
                        record_move: self.record_move,
                        color: m.color,
                        mv: m.mv,
                        outcome,
                    });
                }
            }
        }
        None
    }
}

impl Replay {
    /// Plays one record move, a pass of the other colour first when the same colour moves
    /// twice; an illegal move changes nothing (the inserted pass is taken back).
    fn play(&mut self, color: Color, mv: Move) -> Result<Played, Illegal> {
        self.reopen();
        let implied_pass = color != self.game.to_move();
        if implied_pass {
            self.game.play(self.game.to_move(), Move::Pass)?;
            self.reopen();
        }
        match self.game.play(color, mv) {
            Ok(captures) => {
                self.implied_passes += usize::from(implied_pass);
                Ok(Played {
                    captures,
                    implied_pass,
                })
            }
            Err(reason) => {
                if implied_pass {
                    self.game.undo();
                }
                Err(reason)
            }
        }
    }

    /// Records often go on after two passes (a disputed end, CN2002 21.4): play resumes.
    fn reopen(&mut self) {
        if self.game.state() == GameState::Counting {
            // Cannot fail: the state is Counting.
            let _ = self.game.resume();
        }
    }

    fn rebase(
        &mut self,
        add: &[(Point, Color)],
        clear: &[Point],
        to_move: Option<Color>,
        number: usize,
    ) {
        let mut board = Board::new(self.game.setup().size);
        for (p, c) in self.game.board().stones() {
            if !clear.contains(&p) {
                board.put_setup_stone(p, c);
            }
        }
        for &(p, c) in add {
            board.put_setup_stone(p, c);
        }
        let to_move = to_move.unwrap_or(self.game.to_move());
        self.game = Game::from_position(*self.game.setup(), board, to_move, FreeHandicap::Placed);
        self.rebased_after.push(number);
    }
}
