//! The game of Go as the rules texts define it: board, play, ko, scoring and SGF, with no IO.
//!
//! Pure and deterministic: no IO, no clock, no tokio. Articles cited are those of the 2002
//! Chinese rules (CN2002) and the JK/Ing/historical summaries in `spec/rules-digest.md`.
//!
//! # Core types
//! - [`Color`], [`Point`] (the wire protocol's row-major index) and [`BoardSize`];
//!   [`Point::to_human`] / [`Point::parse_human`] ("D4") and [`Point::to_sgf`].
//! - [`Move`]: [`Move::Play`] or [`Move::Pass`].
//! - [`Ruleset`] and [`KoRule`], gathered with komi and handicap in [`GameSetup`].
//! - [`Board`]: stones, chains, liberties, zobrist hash; [`Board::to_wire_text`] /
//!   [`Board::from_wire_text`] in the wire protocol's `.BW` form.
//! - [`Game`]: turn order, [`Game::check`], [`Game::preview`] (what a stone would capture,
//!   or why it is illegal, without playing), [`Game::play`], [`Game::play_as`] (out of turn,
//!   for double moves, CN2002 17.2), [`Game::play_move`] (no allocation: the new
//!   [`MoveRecord`] borrowed, its [`Captures`] inline), [`Game::undo`], passes,
//!   resignation, results.
//! - [`SetupBlock`]: moves whose stones are known but whose order is not (a board that
//!   could not see for a while), played as one step with [`Game::play_setup_block`]; their
//!   records say `order_known: false`, and the SGF writer puts them on a setup node. A
//!   block may capture ([`SetupBlock::of_stones_on`]) and count moves nobody saw
//!   ([`SetupBlock::unseen`]: a pass or a stone taken off within it, `seen: false`).
//! - [`Illegal`]: a refused move, with its colour, its point and the [`IllegalReason`];
//!   [`RulesError`]: every other failure. [`Point::display`] and [`Move::display`] name
//!   points for people ("D4"): a `Point` alone does not know its board size.
//! - [`GameResult`]: results; [`GameResult::to_sgf`] writes SGF `RE` in points ("B+1.5",
//!   "W+R"), [`GameResult::to_rules_string`] in the rules' unit ("B+0.75" stones under
//!   CN2002); [`Margin`] carries its unit. [`StatedResult`]: a result as an arbiter states
//!   it, its margin in the unit of the game it ends, read once and placed in that unit later.
//! - [`score`]: counting under CN2002, JK, Ing and the historical rules with dead stones
//!   ([`DeadStones`]) and warnings as input: [`Game::score`], [`score_position`].
//! - [`handicap`]: fixed handicap points, free placement, the historical 座子.
//! - [`sgf`]: [`sgf::read_sgf`] (through `sgf-parse`, with real archives' quirks),
//!   [`sgf::SgfGame::replay`], [`sgf::write_sgf`] (FF\[4\]).
//!
//! # Replay an SGF record
//! ```
//! use goban_rules::sgf::read_sgf;
//! use goban_rules::{Color, GameState};
//! let games = read_sgf("(;GM[1]SZ[9]KM[7.5]RU[Chinese];B[ee];W[ec];B[gc];W[tt];B[tt])")?;
//! let replay = games[0].replay()?; // every move checked, superko included
//! assert_eq!(replay.game.board().stone_count(Color::Black), 2);
//! assert_eq!(replay.game.state(), GameState::Counting); // two passes
//! # Ok::<(), goban_rules::RulesError>(())
//! ```
//!
//! # Check a move before playing it
//! ```
//! use goban_rules::{BoardSize, Color, Game, GameSetup, IllegalReason, Move, Point, Ruleset};
//! let mut game = Game::new(GameSetup::new(BoardSize::NINE, Ruleset::Cn2002))?;
//! let e5 = Point::parse_human("E5", BoardSize::NINE)?;
//! assert_eq!(game.check(Color::Black, Move::Play(e5)), Ok(()));
//! game.play(Color::Black, Move::Play(e5))?;
//! let refused = game.check(Color::White, Move::Play(e5)).unwrap_err();
//! assert_eq!(refused.reason, IllegalReason::Occupied);
//! assert_eq!(refused.to_string(), "white E5 is illegal: the point is occupied (CN2002 2.3)");
//! let refused = game.check(Color::Black, Move::Pass).unwrap_err();
//! assert_eq!(refused.reason, IllegalReason::NotYourTurn);
//! # Ok::<(), goban_rules::RulesError>(())
//! ```
//!
//! # Score a finished game
//! ```
//! use goban_rules::{BoardSize, Color, CountInput, Game, GameSetup, Move, Point, Ruleset};
//! let size = BoardSize::NINE;
//! let mut game = Game::new(GameSetup::new(size, Ruleset::Cn2002))?;
//! // Black walls off columns A-E, White F-J (a finished 9x9 game, moves elided).
//! for row in 1..=9 {
//!     game.play(Color::Black, Move::Play(Point::parse_human(&format!("E{row}"), size)?))?;
//!     game.play(Color::White, Move::Play(Point::parse_human(&format!("F{row}"), size)?))?;
//! }
//! game.play(Color::Black, Move::Pass)?;
//! game.play(Color::White, Move::Pass)?;
//! let score = game.finish_by_count(&CountInput::default())?;
//! // 45 against 36 points of area: 4.5 stones, minus 3.75 komi (CN2002 art. 11).
//! assert_eq!(score.result.to_rules_string(), "B+0.75");
//! assert_eq!(score.result.to_sgf(), "B+1.5"); // SGF RE is in points
//! // The same position counted under JK, with the game's komi: territory 36 - 27 - 7.5.
//! let jk = game.score_as(Ruleset::Jk, &CountInput::default())?;
//! assert_eq!(jk.result.to_sgf(), "B+1.5");
//! # Ok::<(), goban_rules::RulesError>(())
//! ```
//!
//! ```
//! use goban_rules::{BoardSize, Color, Game, GameSetup, Move, Point, Ruleset};
//! let mut game = Game::new(GameSetup::new(BoardSize::NINETEEN, Ruleset::Cn2002)).unwrap();
//! let d4 = Point::parse_human("D4", BoardSize::NINETEEN).unwrap();
//! assert!(game.play(Color::Black, Move::Play(d4)).unwrap().is_empty());
//! assert_eq!(game.to_move(), Color::White);
//! ```
#![warn(missing_docs)]

mod board;
mod board_text;
mod captures;
mod color;
mod error;
mod game;
mod game_end;
pub mod handicap;
mod ko;
mod move_list;
mod moves;
mod point;
mod result;
mod ruleset;
pub mod score;
mod setup;
mod setup_block;
pub mod sgf;
mod zobrist;

pub use board::Board;
pub use captures::Captures;
pub use color::Color;
pub use error::{Illegal, IllegalReason, RulesError};
pub use game::{Game, GameState, MoveRecord};
pub use moves::{Move, MoveDisplay};
pub use point::{BoardSize, Point, PointDisplay};
pub use result::{GameResult, Margin, StatedResult, WinBy};
pub use ruleset::{KoRule, Ruleset};
pub use score::{
    CountInput, DeadStones, Score, ScoreUnit, SekiMarks, SekiRuling, SideCount, Warnings,
    score_position,
};
pub use setup::{FreeHandicap, GameSetup, HandicapPlacement, Opening};
pub use setup_block::SetupBlock;
