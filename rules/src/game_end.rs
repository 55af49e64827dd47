//! Ending a game: resignation, time forfeit, forfeit, an arbiter's or the count's result.

use crate::{Color, Game, GameResult, GameState, RulesError, WinBy};

impl Game {
    /// `color` resigns (CN2002 art. 7.2): the opponent wins, `B+R` / `W+R`.
    ///
    /// # Errors
    /// [`RulesError::WrongState`] if the game already has a result.
    pub fn resign(&mut self, color: Color) -> Result<GameResult, RulesError> {
        self.end_with(GameResult::Win {
            winner: color.opponent(),
            by: WinBy::Resignation,
        })
    }

    /// `color` ran out of time (CN2002 12.4, 22.5): `B+T` / `W+T`.
    ///
    /// # Errors
    /// [`RulesError::WrongState`] if the game already has a result.
    pub fn lose_on_time(&mut self, color: Color) -> Result<GameResult, RulesError> {
        self.end_with(GameResult::Win {
            winner: color.opponent(),
            by: WinBy::Time,
        })
    }

    /// `color` forfeits or is ruled lost (CN2002 13.1; a second warning, 24): `B+F` / `W+F`.
    ///
    /// # Errors
    /// [`RulesError::WrongState`] if the game already has a result.
    pub fn forfeit(&mut self, color: Color) -> Result<GameResult, RulesError> {
        self.end_with(GameResult::Win {
            winner: color.opponent(),
            by: WinBy::Forfeit,
        })
    }

    /// Ends the game with `result` (the count, or an arbiter's draw / no result, CN2002 13.1).
    ///
    /// # Errors
    /// [`RulesError::WrongState`] if the game already has a result.
    pub fn end_with(&mut self, result: GameResult) -> Result<GameResult, RulesError> {
        if matches!(self.state, GameState::Finished(_)) {
            return Err(RulesError::WrongState("the game already has a result"));
        }
        self.state = GameState::Finished(result);
        Ok(result)
    }

    /// An arbiter replaces the result of a finished game (CN2002 22.8-22.9 corrections).
    pub fn correct_result(&mut self, result: GameResult) {
        self.state = GameState::Finished(result);
    }

    /// The result, once the game has one.
    #[must_use]
    pub const fn result(&self) -> Option<GameResult> {
        match self.state {
            GameState::Finished(r) => Some(r),
            _ => None,
        }
    }

    /// Whether no more moves may be played (counting or finished).
    #[must_use]
    pub fn is_over(&self) -> bool {
        !matches!(self.state, GameState::Playing)
    }
}
