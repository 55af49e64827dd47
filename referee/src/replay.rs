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

/// Plays again the setup block of moves `first`.. whose stones are `stones` (moves played
/// while the board could not see, order unknown, none capturing): the presses behind them
/// alternated from the side to move, so the side to move after them follows from their number.
pub(crate) fn play_block_again(
    game: &mut Game,
    first: u32,
    stones: &[(Point, Color)],
) -> Result<(), String> {
    let before = game.to_move();
    let to_move = if stones.len().is_multiple_of(2) {
        before
    } else {
        before.opponent()
    };
    game.play_setup_block(SetupBlock::of_stones(stones, to_move))
        .map_err(|err| format!("the setup block of move {first} does not play again: {err}"))
}
