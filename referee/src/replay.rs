//! A recorded game played again in the rules core: its opening, then move by move. The
//! checkpoint rebuilds the referee's game this way, and the SGF writer the game of a board state.

use goban_rules::{Color, Game, GameSetup, GameState, Move, Point, SetupBlock};

/// The stones of `game` before its first move (fixed or free handicap, 座子), point order.
pub(crate) fn opening_stones(game: &Game) -> Vec<(Point, Color)> {
    let mut stones: Vec<(Point, Color)> = game.initial_board().stones().collect();
    stones.sort_unstable();
    stones
}

/// The game before its first move: `setup`, with the free handicap stones among `initial`
/// (the stones before the first move, point order) placed unless they are still to come.
pub(crate) fn opening(
    setup: GameSetup,
    initial: &[(Point, Color)],
    handicap_pending: bool,
) -> Result<Game, String> {
    let mut game = Game::new(setup).map_err(|err| err.to_string())?;
    if opening_stones(&game) != initial && !handicap_pending {
        let black: Vec<Point> = initial
            .iter()
            .filter(|(_, c)| *c == Color::Black)
            .map(|(p, _)| *p)
            .collect();
        game.place_free_handicap(&black)
            .map_err(|err| err.to_string())?;
    }
    Ok(game)
}

/// Plays move `number` again; play resumed after two passes when the record goes on after
/// them (the count was disputed).
pub(crate) fn play_again(
    game: &mut Game,
    number: u32,
    color: Color,
    mv: Move,
) -> Result<(), String> {
    if game.play_as(color, mv).is_ok() {
        return Ok(());
    }
    if game.state() == GameState::Counting {
        game.resume().map_err(|err| err.to_string())?;
        if game.play_as(color, mv).is_ok() {
            return Ok(());
        }
    }
    Err(format!(
        "move {number} ({mv:?} by {color:?}) does not play again"
    ))
}

/// The moves of one setup block read back from a board state (moves played while the board
/// could not see, order unknown): its stones, by point, and its moves nobody saw.
#[derive(Default)]
pub(crate) struct BlockMoves {
    /// The number of the block's first move; 0 while empty.
    first: u32,
    stones: Vec<(Point, Color)>,
    unseen: Vec<Color>,
}

impl BlockMoves {
    /// Move `number`, a stone of the block.
    pub(crate) fn add_stone(&mut self, number: u32, p: Point, color: Color) {
        self.start(number);
        self.stones.push((p, color));
    }

    /// Move `number`, a move of the block nobody saw (a pass, or a stone taken off within it).
    pub(crate) fn add_unseen(&mut self, number: u32, color: Color) {
        self.start(number);
        self.unseen.push(color);
    }

    fn start(&mut self, number: u32) {
        if self.first == 0 {
            self.first = number;
        }
    }

    /// Plays the block gathered so far, if any, and empties it: the presses behind its moves
    /// alternated from the side to move, so the side to move after it follows from their
    /// number; the stones of before it that its stones leave without a liberty were captured
    /// within it.
    pub(crate) fn play_again(&mut self, game: &mut Game) -> Result<(), String> {
        if self.first == 0 {
            return Ok(());
        }
        let before = game.to_move();
        let to_move = if (self.stones.len() + self.unseen.len()).is_multiple_of(2) {
            before
        } else {
            before.opponent()
        };
        let block = SetupBlock::of_stones_on(
            game.board(),
            &self.stones,
            std::mem::take(&mut self.unseen),
            to_move,
        );
        let first = std::mem::take(&mut self.first);
        self.stones.clear();
        game.play_setup_block(block)
            .map_err(|err| format!("the setup block of move {first} does not play again: {err}"))
    }
}
