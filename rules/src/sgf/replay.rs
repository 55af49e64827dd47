//! Replaying a read record through the rules, move by move, with full legality checks.

use super::{SgfEvent, SgfGame};
use crate::{Board, Color, Game, GameState, KoRule, Move, RulesError, handicap};

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
        let mut replay = Replay {
            game: Game::from_position(
                setup,
                board,
                self.first_color(),
                crate::FreeHandicap::Placed,
            ),
            implied_passes: 0,
            rebased_after: Vec::new(),
        };
        let mut number = 0;
        for event in &self.events {
            match event {
                SgfEvent::Move(m) => {
                    number += 1;
                    replay.play(m.color, m.mv, number)?;
                }
                SgfEvent::Setup { add, clear } => replay.rebase(add, clear, number),
            }
        }
        Ok(replay)
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

impl Replay {
    fn play(&mut self, color: Color, mv: Move, number: usize) -> Result<(), RulesError> {
        let illegal = |reason| RulesError::SgfIllegalMove {
            move_number: number,
            reason,
        };
        self.reopen();
        if color != self.game.to_move() {
            self.game
                .play(self.game.to_move(), Move::Pass)
                .map_err(illegal)?;
            self.implied_passes += 1;
            self.reopen();
        }
        self.game.play(color, mv).map_err(illegal)?;
        Ok(())
    }

    /// Records often go on after two passes (a disputed end, CN2002 21.4): play resumes.
    fn reopen(&mut self) {
        if self.game.state() == GameState::Counting {
            // Cannot fail: the state is Counting.
            let _ = self.game.resume();
        }
    }

    fn rebase(&mut self, add: &[(crate::Point, Color)], clear: &[crate::Point], number: usize) {
        let mut board = Board::new(self.game.setup().size);
        for (p, c) in self.game.board().stones() {
            if !clear.contains(&p) {
                board.put_setup_stone(p, c);
            }
        }
        for &(p, c) in add {
            board.put_setup_stone(p, c);
        }
        let to_move = self.game.to_move();
        self.game = Game::from_position(
            *self.game.setup(),
            board,
            to_move,
            crate::FreeHandicap::Placed,
        );
        self.rebased_after.push(number);
    }
}
