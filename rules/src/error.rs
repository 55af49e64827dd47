//! The crate's one error type and the reasons a move is illegal.

use crate::{BoardSize, Color, Move, Point};

/// A move the rules refuse: who tried it, where, and why.
///
/// Printed for people with the point in letters and numbers:
/// `black D4 is illegal: the point is occupied (CN2002 2.3)`.
///
/// ```
/// use goban_rules::{BoardSize, Color, Game, GameSetup, IllegalReason, Move, Point, Ruleset};
/// let mut game = Game::new(GameSetup::new(BoardSize::NINE, Ruleset::Cn2002))?;
/// let e5 = Point::parse_human("E5", BoardSize::NINE)?;
/// game.play(Color::Black, Move::Play(e5))?;
/// let refused = game.play(Color::White, Move::Play(e5)).unwrap_err();
/// assert_eq!(refused.reason, IllegalReason::Occupied);
/// assert_eq!((refused.color, refused.point()), (Color::White, Some(e5)));
/// assert_eq!(refused.to_string(), "white E5 is illegal: the point is occupied (CN2002 2.3)");
/// # Ok::<(), goban_rules::RulesError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("{color} {} is illegal: {reason}", mv.display(*size))]
pub struct Illegal {
    /// The colour that tried the move.
    pub color: Color,
    /// The move tried: a stone on a point, or a pass.
    pub mv: Move,
    /// The size of the board it was tried on (to name the point).
    pub size: BoardSize,
    /// Why the rules refuse it.
    pub reason: IllegalReason,
}

impl Illegal {
    /// The point of the refused stone; `None` for a pass.
    #[must_use]
    pub const fn point(&self) -> Option<Point> {
        self.mv.point()
    }
}

/// Why a move may not be played now. Each reason names the article that forbids it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum IllegalReason {
    /// The point already holds a stone (CN2002 art. 2.3: stones go on empty points).
    #[error("the point is occupied (CN2002 2.3)")]
    Occupied,
    /// The point is not on this board.
    #[error("the point is off the board")]
    OffBoard,
    /// The stone would have no liberty and capture nothing (CN2002 art. 5, 禁着点).
    #[error("suicide: forbidden point (CN2002 5, 19)")]
    Suicide,
    /// Immediate recapture of a single-stone ko (CN2002 art. 20.1).
    #[error("ko: immediate recapture is forbidden (CN2002 18.3, 20.1)")]
    Ko,
    /// The move repeats a whole-board position (CN2002 art. 6); the position is the one
    /// after game move `repeats_game_move` (0 = the starting position).
    ///
    /// Game moves are the [`crate::Game`]'s own numbering: `Game::moves()[n - 1]`, passes
    /// included. In an SGF replay they include implied passes and restart where setup
    /// stones rebase the game; record moves ([`RulesError::SgfIllegalMove`]'s
    /// `record_move`) number the record's move nodes.
    #[error("superko: the position after move {repeats_game_move} would repeat (CN2002 6)")]
    Superko {
        /// The move after which the repeated position first occurred (0 = the start).
        repeats_game_move: usize,
    },
    /// The other colour is to move (CN2002 art. 2.3; a double move is CN2002 17.2).
    #[error("not this colour's turn (CN2002 17.2)")]
    NotYourTurn,
    /// The game has ended (CN2002 art. 7) or is being counted.
    #[error("the game is over (CN2002 7)")]
    GameOver,
    /// Free handicap stones must be placed before the first move.
    #[error("free handicap stones are not placed yet")]
    HandicapPending,
}

impl IllegalReason {
    /// This reason for `color` playing `mv` on a board of `size`.
    #[must_use]
    pub const fn of(self, color: Color, mv: Move, size: BoardSize) -> Illegal {
        Illegal {
            color,
            mv,
            size,
            reason: self,
        }
    }
}

/// Everything that can go wrong in this crate.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RulesError {
    /// A move was refused by the rules.
    #[error(transparent)]
    Illegal(#[from] Illegal),
    /// A board size outside 2..=25.
    #[error("board size {0} is not supported (2..=25)")]
    BadSize(u32),
    /// A coordinate string that does not name a point of this board.
    #[error("bad coordinate {text:?} for a {size}x{size} board")]
    BadCoordinate {
        /// The text as given.
        text: String,
        /// The board size it was read for.
        size: u8,
    },
    /// A point index outside the board.
    #[error("point {} is off the board", .0.0)]
    OffBoard(Point),
    /// A handicap that cannot be placed (count or board size).
    #[error("bad handicap: {0}")]
    BadHandicap(String),
    /// A result string that is not SGF `RE` syntax.
    #[error("bad result {0:?}")]
    BadResult(String),
    /// Dead-stone marking that does not fit the position.
    #[error("bad dead-stone marking: {0}")]
    BadDeadStones(String),
    /// A seki ruling on a point without a living stone.
    #[error("bad seki ruling: {0}")]
    BadSekiMarks(String),
    /// A mid-game setup block that does not fit the position it is played on
    /// ([`crate::Game::play_setup_block`]).
    #[error("bad setup block: {0}")]
    BadSetupBlock(String),
    /// The operation needs another game state (e.g. scoring a game still in play).
    #[error("wrong game state: {0}")]
    WrongState(&'static str),
    /// The SGF text could not be parsed at all.
    #[error("SGF syntax: {0}")]
    SgfSyntax(String),
    /// The SGF parsed but does not describe a playable Go game.
    #[error("SGF content: {0}")]
    SgfContent(String),
    /// An SGF move that is illegal in the recorded position: the move, its colour and its
    /// point ([`crate::Move::point`]) are all here.
    #[error("SGF record move {record_move} ({color} {at}) is illegal: {reason}")]
    SgfIllegalMove {
        /// 1-based number of the move node in the record (not the game's move number).
        record_move: usize,
        /// The colour that moved.
        color: crate::Color,
        /// The move.
        mv: crate::Move,
        /// The move in letters and numbers ("Q16", "pass").
        at: String,
        /// Why the rules refused it.
        reason: IllegalReason,
    },
}
