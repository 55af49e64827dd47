//! A game in play: turn order, legality (occupied, suicide, ko, superko), captures, setup blocks, undo.

use crate::board::Probe;
use crate::ko::History;
use crate::move_list::MoveList;
use crate::{
    Board, Captures, Color, FreeHandicap, GameResult, GameSetup, HandicapPlacement, Illegal,
    IllegalReason, KoRule, Move, Opening, Point, RulesError, SetupBlock, handicap,
};

/// One move as played, with what it captured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// Who played it.
    pub color: Color,
    /// The move.
    pub mv: Move,
    /// The opponent stones it removed (CN2002 art. 4), sorted. A [`Captures`] reads like a
    /// `Vec<Point>` (it dereferences to a slice) but holds small captures inline.
    pub captured: Captures,
    /// Played with [`Game::play_as`] by the colour not to move (a double move, CN2002 17.2).
    pub out_of_turn: bool,
    /// `false` for the moves of a [`SetupBlock`]: their stones are known, their order is
    /// not (the block lists them by point); [`Game::setup_block_at`] has the block.
    pub order_known: bool,
    /// `false` for a move of a setup block that nobody saw ([`SetupBlock::unseen`]): a pass,
    /// or a stone taken off again within the block. Its `mv` is then [`Move::Pass`], standing
    /// in for a move whose content is unknown; read this field before `mv`.
    pub seen: bool,
}

/// The point a colour may not retake now (CN2002 20.1), kept as one number so that the
/// check on every stone is one compare: with `Option<(Point, Color)>` the compiler tested
/// the colour first, a branch that alternates from move to move. Reads and prints as that
/// `Option`.
#[derive(Clone, Copy, PartialEq, Eq)]
struct KoBan(u32);

impl KoBan {
    /// No point is banned.
    const NONE: Self = Self(u32::MAX);

    /// `color` may not play on `p`.
    #[inline(always)]
    const fn of(p: Point, color: Color) -> Self {
        Self(p.0 as u32 | (color.index() as u32) << 16)
    }

    const fn get(self) -> Option<(Point, Color)> {
        if self.0 == Self::NONE.0 {
            return None;
        }
        // The low 16 bits are the point, as `of` wrote them.
        let color = if self.0 >> 16 == 0 {
            Color::Black
        } else {
            Color::White
        };
        Some((Point(self.0 as u16), color))
    }
}

impl std::fmt::Debug for KoBan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.get().fmt(f)
    }
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GameState {
    /// Moves are being played.
    Playing,
    /// Two consecutive passes ended play (CN2002 art. 7.3); dead stones are being agreed.
    Counting,
    /// The game has a result.
    Finished(GameResult),
}

/// A game: setup, position, move list and the ko/superko history.
#[derive(Clone, Debug)]
pub struct Game {
    pub(crate) setup: GameSetup,
    /// The position before the first move; `None` for an empty board (most games), which
    /// saves a board copy per game.
    initial: Option<Board>,
    first: Color,
    pub(crate) board: Board,
    moves: MoveList,
    prisoners: [u32; 2],
    ko: KoBan,
    /// Whose turn it is: the opponent of the last mover, `first` before any move.
    next: Color,
    history: History,
    consecutive_passes: u8,
    pub(crate) state: GameState,
    handicap_pending: bool,
    /// The setup blocks played, each with the index in `moves` of its first move; empty in
    /// most games, so a copy of the game costs nothing more.
    blocks: Vec<(usize, SetupBlock)>,
}

impl Game {
    /// A new game. Fixed handicap and 座子 stones are placed now; free handicap stones
    /// wait for [`Game::place_free_handicap`].
    ///
    /// # Errors
    /// [`RulesError::BadHandicap`] when the handicap or opening does not fit the board.
    pub fn new(setup: GameSetup) -> Result<Self, RulesError> {
        let mut board = Board::new(setup.size);
        let mut first = Color::Black;
        if setup.opening == Opening::Zuozi {
            for (p, c) in handicap::zuozi_points(setup.size)? {
                board.put_setup_stone(p, c);
            }
            first = Color::White; // 古代一般白先黑后: White moved first in the old game.
        }
        let mut handicap_pending = false;
        if setup.has_handicap() {
            if setup.opening == Opening::Zuozi {
                return Err(RulesError::BadHandicap(
                    "no handicap with the 座子 opening".into(),
                ));
            }
            match setup.handicap_placement {
                HandicapPlacement::Fixed => {
                    for p in handicap::fixed_handicap_points(setup.size, setup.handicap)? {
                        board.put_setup_stone(p, Color::Black);
                    }
                }
                HandicapPlacement::Free => handicap_pending = true,
            }
            first = Color::White;
        }
        let free = if handicap_pending {
            FreeHandicap::Pending
        } else {
            FreeHandicap::Placed
        };
        Ok(Self::from_position(setup, board, first, free))
    }

    /// A game starting from any position (SGF setup stones), `first` to move.
    #[must_use]
    pub fn from_position(
        setup: GameSetup,
        board: Board,
        first: Color,
        free_handicap: FreeHandicap,
    ) -> Self {
        let handicap_pending = free_handicap == FreeHandicap::Pending;
        let history = History::new(setup.ko_rule, board.hash(), board.stones_on_board(), first);
        Self {
            setup,
            initial: (board.stone_count(Color::Black) + board.stone_count(Color::White) > 0)
                .then(|| board.clone()),
            first,
            board,
            moves: MoveList::new(),
            prisoners: [0; 2],
            ko: KoBan::NONE,
            next: first,
            history,
            consecutive_passes: 0,
            state: GameState::Playing,
            handicap_pending,
            blocks: Vec::new(),
        }
    }

    /// Places the free handicap stones (before the first move).
    ///
    /// # Errors
    /// [`RulesError::BadHandicap`] if none are pending or the points do not fit.
    pub fn place_free_handicap(&mut self, points: &[Point]) -> Result<(), RulesError> {
        if !self.handicap_pending {
            return Err(RulesError::BadHandicap(
                "no free handicap is pending".into(),
            ));
        }
        handicap::check_free_handicap(self.setup.size, self.setup.handicap, points)?;
        let mut board = self.initial_board().clone();
        for &p in points {
            board.put_setup_stone(p, Color::Black);
        }
        *self = Self::from_position(self.setup, board, self.first, FreeHandicap::Placed);
        Ok(())
    }

    /// The settings.
    #[must_use]
    pub const fn setup(&self) -> &GameSetup {
        &self.setup
    }

    /// The current position.
    #[must_use]
    pub const fn board(&self) -> &Board {
        &self.board
    }

    /// The position before the first move (handicap or 座子 stones included).
    #[must_use]
    pub fn initial_board(&self) -> &Board {
        match &self.initial {
            Some(board) => board,
            None => Board::empty(self.setup.size),
        }
    }

    /// Who moved (or moves) first.
    #[must_use]
    pub const fn first_to_move(&self) -> Color {
        self.first
    }

    /// Whose turn it is: the opponent of the last mover.
    #[must_use]
    pub const fn to_move(&self) -> Color {
        self.next
    }

    /// The moves played, in order (move number `i + 1` at index `i`).
    #[must_use]
    pub fn moves(&self) -> &[MoveRecord] {
        &self.moves
    }

    /// The number of moves played, passes included.
    #[must_use]
    pub fn move_number(&self) -> usize {
        self.moves.len()
    }

    /// Stones `color` has captured so far (its prisoners).
    #[must_use]
    pub const fn captures(&self, color: Color) -> u32 {
        self.prisoners[color.index()]
    }

    /// The game state.
    #[must_use]
    pub const fn state(&self) -> GameState {
        self.state
    }

    /// The point `color` may not retake now under the basic ko rule (CN2002 20.1).
    #[must_use]
    pub const fn ko_point(&self) -> Option<(Point, Color)> {
        self.ko.get()
    }

    /// Whether free handicap stones are still to be placed.
    #[must_use]
    pub const fn handicap_pending(&self) -> bool {
        self.handicap_pending
    }

    /// If the current position (with the player to move) occurred before, the move after
    /// which it first did: how a triple ko or eternal life shows under simple ko (JK: no
    /// result). Under positional superko the side to move is ignored.
    #[must_use]
    pub fn repeated_position(&self) -> Option<usize> {
        let key = self.history.current()?;
        self.history
            .first_occurrence(key)
            .filter(|&first| first + 1 < self.history.len())
    }

    /// Whether `color` may play `mv` now, turn included.
    ///
    /// # Errors
    /// The [`Illegal`] reason.
    pub fn check(&self, color: Color, mv: Move) -> Result<(), Illegal> {
        self.check_turn(color)
            .and_then(|()| self.check_open_move(color, mv))
            .map_err(|r| self.refuse(r, color, mv))
    }

    /// Like [`Game::check`] but without the turn check (for [`Game::play_as`]).
    ///
    /// # Errors
    /// The [`Illegal`] reason.
    pub fn check_as(&self, color: Color, mv: Move) -> Result<(), Illegal> {
        self.check_open()
            .and_then(|()| self.check_open_move(color, mv))
            .map_err(|r| self.refuse(r, color, mv))
    }

    /// The [`Illegal`] error for `reason`, naming the move and its colour.
    #[cold]
    const fn refuse(&self, reason: IllegalReason, color: Color, mv: Move) -> Illegal {
        reason.of(color, mv, self.setup.size)
    }

    /// Legality of `mv` in a game known to be open.
    fn check_open_move(&self, color: Color, mv: Move) -> Result<(), IllegalReason> {
        match mv {
            Move::Pass => Ok(()),
            Move::Play(p) => self.probe_stone(color, p).map(|_| ()),
        }
    }

    /// What a stone of `color` on `p` would capture now, or why it is illegal; the turn is
    /// not checked and nothing changes.
    ///
    /// # Errors
    /// The [`Illegal`] reason.
    pub fn preview(&self, color: Color, p: Point) -> Result<Vec<Point>, Illegal> {
        let probe = self
            .check_open()
            .and_then(|()| self.probe_stone(color, p))
            .map_err(|r| self.refuse(r, color, Move::Play(p)))?;
        let mut out = Vec::with_capacity(usize::from(probe.n_stones));
        self.board.probe_points(&probe, &mut out);
        out.sort_unstable();
        Ok(out)
    }

    /// Plays `mv` for `color`, who must be the player to move; returns the captured points.
    ///
    /// # Errors
    /// The [`Illegal`] reason; the game is unchanged.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<Vec<Point>, Illegal> {
        self.play_move(color, mv).map(|m| m.captured.to_vec())
    }

    /// Like [`Game::play`], but returns the new move's record (its captures included)
    /// borrowed from the game instead of a copy of the captures: the form for replaying
    /// many games, which allocates nothing for a move that captures nothing.
    ///
    /// ```
    /// use goban_rules::{BoardSize, Color, Game, GameSetup, Move, Point, Ruleset};
    /// let mut game = Game::new(GameSetup::new(BoardSize::NINE, Ruleset::Cn2002))?;
    /// let e5 = Point::parse_human("E5", BoardSize::NINE)?;
    /// let record = game.play_move(Color::Black, Move::Play(e5))?;
    /// assert!(record.captured.is_empty());
    /// # Ok::<(), goban_rules::RulesError>(())
    /// ```
    ///
    /// # Errors
    /// The [`Illegal`] reason; the game is unchanged.
    #[inline]
    pub fn play_move(&mut self, color: Color, mv: Move) -> Result<&MoveRecord, Illegal> {
        if let Err(reason) = self.check_turn(color) {
            return Err(self.refuse(reason, color, mv));
        }
        self.probe_and_apply(color, mv, false)
    }

    /// Plays `mv` for `color` even out of turn (recording a double move, CN2002 17.2);
    /// every other rule applies.
    ///
    /// # Errors
    /// The [`Illegal`] reason; the game is unchanged.
    pub fn play_as(&mut self, color: Color, mv: Move) -> Result<Vec<Point>, Illegal> {
        if let Err(reason) = self.check_open() {
            return Err(self.refuse(reason, color, mv));
        }
        let out_of_turn = color != self.to_move();
        self.probe_and_apply(color, mv, out_of_turn)
            .map(|m| m.captured.to_vec())
    }

    /// Checks the legality of `mv` in a game known to be open and plays it if legal. One
    /// body with the probe and the move, so that what the probe found stays where it is.
    #[inline(always)]
    fn probe_and_apply(
        &mut self,
        color: Color,
        mv: Move,
        out_of_turn: bool,
    ) -> Result<&MoveRecord, Illegal> {
        match mv {
            Move::Pass => Ok(self.apply_pass(color, out_of_turn)),
            Move::Play(p) => {
                // The probe stays a local of this body, not moved through a `Result`.
                if let Err(reason) = self.check_point(p) {
                    return Err(self.refuse(reason, color, mv));
                }
                let mut probe = Probe::BLANK;
                self.board.probe_into(p, color, &mut probe);
                if let Err(reason) = self.check_probe(color, p, &probe) {
                    return Err(self.refuse(reason, color, mv));
                }
                Ok(self.apply_stone(color, p, out_of_turn, &probe))
            }
        }
    }

    /// Takes back the last move (takeback or arbiter correction) and returns it; `None` at
    /// the start, once the game has a result, or when the last move is one of a setup block
    /// (the block goes back whole: [`Game::undo_setup_block`]). Play resumes if it had
    /// stopped on two passes, and stays open after two passes followed by more moves (a
    /// count that was resumed).
    pub fn undo(&mut self) -> Option<MoveRecord> {
        if matches!(self.state, GameState::Finished(_))
            || self.moves.last().is_some_and(|m| !m.order_known)
        {
            return None;
        }
        let last = self.moves.pop()?;
        self.replay_from_start();
        Some(last)
    }

    /// Takes back the last setup block whole and returns it; `None` unless the last move is
    /// one of a block, or once the game has a result.
    pub fn undo_setup_block(&mut self) -> Option<SetupBlock> {
        if matches!(self.state, GameState::Finished(_)) {
            return None;
        }
        let &(first, _) = self.blocks.last()?;
        if first + self.blocks.last()?.1.len() != self.moves.len() {
            return None;
        }
        let (_, block) = self.blocks.pop()?;
        self.moves.truncate(first);
        self.replay_from_start();
        Some(block)
    }

    /// Continues the game from the position `block` reaches: its moves, whose order is
    /// unknown, are recorded with `order_known: false` (listed by point), the move count
    /// grows by their number, the stones added and removed change the board, each side's
    /// prisoners grow by the stones the block took off, and `block.to_move()` moves next.
    /// No ko ban survives it, and its passes never count toward two passes in a row (which
    /// one came last is unknown). Under superko the positions inside the block are unknown
    /// and only the one after it is recorded. Its moves nobody saw ([`SetupBlock::unseen`])
    /// come last, with `seen: false`.
    ///
    /// # Errors
    /// [`RulesError::WrongState`] unless the game is in play (free handicap placed);
    /// [`RulesError::BadSetupBlock`] when the block does not fit the position. The game is
    /// then unchanged.
    pub fn play_setup_block(&mut self, block: SetupBlock) -> Result<(), RulesError> {
        if self.check_open().is_err() {
            return Err(RulesError::WrongState(
                "a setup block needs a game in play, its handicap placed",
            ));
        }
        let after = block.position_after(&self.board)?;
        self.apply_block(block, after);
        Ok(())
    }

    /// The setup block move `number` (1-based) belongs to, if any.
    #[must_use]
    pub fn setup_block_at(&self, number: usize) -> Option<&SetupBlock> {
        let index = number.checked_sub(1)?;
        self.blocks
            .iter()
            .find(|(first, block)| (*first..first + block.len()).contains(&index))
            .map(|(_, block)| block)
    }

    /// The setup blocks played, each with the number of its first move, oldest first.
    pub fn setup_blocks(&self) -> impl Iterator<Item = (usize, &SetupBlock)> + '_ {
        self.blocks.iter().map(|(first, block)| (first + 1, block))
    }

    /// Plays a checked setup block whose position is `after`.
    fn apply_block(&mut self, block: SetupBlock, after: Board) {
        let prisoners = block.prisoners(&self.board);
        for color in Color::BOTH {
            self.prisoners[color.index()] += prisoners[color.index()];
        }
        // The positions inside the block are unknown: the one before it stands for them
        // (it is recorded already, so no repetition is invented), then the one after it.
        let before = self.history.current().unwrap_or_default();
        for _ in 1..block.len() {
            self.history.push(before, self.board.stones_on_board());
        }
        self.board = after;
        self.ko = KoBan::NONE;
        self.consecutive_passes = 0;
        let key = self.history.key(self.board.hash(), block.to_move());
        self.history.push(key, self.board.stones_on_board());
        self.next = block.to_move();
        let first = self.moves.len();
        self.moves
            .extend(block.moves().iter().map(|&(color, mv)| MoveRecord {
                color,
                mv,
                captured: Captures::NONE,
                out_of_turn: false,
                order_known: false,
                seen: true,
            }));
        self.moves
            .extend(block.unseen().iter().map(|&color| MoveRecord {
                color,
                mv: Move::Pass,
                captured: Captures::NONE,
                out_of_turn: false,
                order_known: false,
                seen: false,
            }));
        self.blocks.push((first, block));
    }

    /// Plays every recorded move and block again from the initial position.
    fn replay_from_start(&mut self) {
        let mut moves = std::mem::replace(&mut self.moves, MoveList::new());
        self.board = self.initial_board().clone();
        self.prisoners = [0; 2];
        self.ko = KoBan::NONE;
        self.next = self.first;
        self.consecutive_passes = 0;
        self.state = GameState::Playing;
        self.history = History::new(
            self.setup.ko_rule,
            self.board.hash(),
            self.board.stones_on_board(),
            self.first,
        );
        self.moves.reserve(moves.len());
        let mut blocks = std::mem::take(&mut self.blocks).into_iter().peekable();
        let mut block_end = 0;
        for (index, m) in moves.drain(..).enumerate() {
            if index < block_end {
                continue;
            }
            if let Some((first, block)) = blocks.next_if(|(first, _)| *first == index) {
                // A block's moves come together: the block is played at its first one. It
                // fitted this very position when it was first played.
                block_end = first + block.len();
                if let Ok(after) = block.position_after(&self.board) {
                    self.apply_block(block, after);
                }
                continue;
            }
            _ = match m.mv {
                Move::Pass => self.apply_pass(m.color, m.out_of_turn),
                Move::Play(p) => {
                    let probe = self.board.probe(p, m.color);
                    self.apply_stone(m.color, p, m.out_of_turn, &probe)
                }
            };
            if self.state == GameState::Counting {
                // A move followed two passes (at least the one undone): play was resumed
                // there ([`Game::resume`]), and stays open.
                self.state = GameState::Playing;
                self.consecutive_passes = 0;
            }
        }
    }

    fn check_open(&self) -> Result<(), IllegalReason> {
        if !matches!(self.state, GameState::Playing) {
            return Err(IllegalReason::GameOver);
        }
        if self.handicap_pending {
            return Err(IllegalReason::HandicapPending);
        }
        Ok(())
    }

    fn check_turn(&self, color: Color) -> Result<(), IllegalReason> {
        self.check_open()?;
        if color == self.to_move() {
            Ok(())
        } else {
            Err(IllegalReason::NotYourTurn)
        }
    }

    /// Legality of a stone in an open game: art. 2.3 (empty point), art. 5 (suicide),
    /// art. 20.1 (ko), art. 6 (superko, per the game's ko rule).
    #[inline(always)]
    fn probe_stone(&self, color: Color, p: Point) -> Result<Probe, IllegalReason> {
        self.check_point(p)?;
        let probe = self.board.probe(p, color);
        self.check_probe(color, p, &probe)?;
        Ok(probe)
    }

    /// The first part of [`Game::probe_stone`]: `p` is on the board and empty.
    #[inline(always)]
    fn check_point(&self, p: Point) -> Result<(), IllegalReason> {
        if !p.is_on(self.setup.size) {
            return Err(IllegalReason::OffBoard);
        }
        // `p` is below 625 here, so `holds_stone` reads its own slot.
        if self.board.holds_stone(p) {
            return Err(IllegalReason::Occupied);
        }
        Ok(())
    }

    /// The rest of [`Game::probe_stone`], on the probe of `p`: suicide, ko and superko.
    #[inline(always)]
    fn check_probe(&self, color: Color, p: Point, probe: &Probe) -> Result<(), IllegalReason> {
        if probe.is_suicide() {
            return Err(IllegalReason::Suicide);
        }
        if self.ko == KoBan::of(p, color) {
            return Err(IllegalReason::Ko);
        }
        if self.setup.ko_rule != KoRule::Simple {
            let key = self.history.key(probe.hash_after, color.opponent());
            // The stone, less the stones it captures.
            let stones = self.board.stones_on_board() + 1 - u32::from(probe.n_stones);
            if let Some(n) = self.history.first_occurrence_of(key, stones) {
                return Err(IllegalReason::Superko {
                    repeats_game_move: n,
                });
            }
        }
        Ok(())
    }

    /// Plays a stone already checked legal; `probe` is its legality probe on this position.
    #[inline(always)]
    fn apply_stone(
        &mut self,
        color: Color,
        p: Point,
        out_of_turn: bool,
        probe: &Probe,
    ) -> &MoveRecord {
        let captured = &mut self.moves.scratch;
        self.consecutive_passes = 0;
        self.board.play_probed(p, color, probe, captured);
        if !probe.captures() {
            // Nothing captured, as for most moves: no capture list, prisoners or ko to read.
            self.ko = KoBan::NONE;
            return self.record(color, Move::Play(p), out_of_turn, Captures::NONE);
        }
        if captured.len() > 1 {
            captured.sort_unstable();
        }
        self.ko = KoBan::NONE;
        if let [single] = captured[..]
            && probe.stands_alone_without_liberty()
        {
            self.ko = KoBan::of(single, color.opponent());
        }
        // Counts fit in u32: at most 625 stones per move.
        self.prisoners[color.index()] += captured.len() as u32;
        let captured = Captures::from(self.moves.scratch.as_slice());
        self.moves.scratch.clear();
        self.record(color, Move::Play(p), out_of_turn, captured)
    }

    /// Passes (CN2002 art. 2.5).
    fn apply_pass(&mut self, color: Color, out_of_turn: bool) -> &MoveRecord {
        self.ko = KoBan::NONE;
        self.consecutive_passes = self.consecutive_passes.saturating_add(1);
        if self.consecutive_passes >= 2 {
            self.state = GameState::Counting; // CN2002 art. 7.3: two consecutive passes.
        }
        self.record(color, Move::Pass, out_of_turn, Captures::NONE)
    }

    /// Records a move just applied: the position's key and the move's record.
    #[inline(always)]
    fn record(
        &mut self,
        color: Color,
        mv: Move,
        out_of_turn: bool,
        captured: Captures,
    ) -> &MoveRecord {
        let key = self.history.key(self.board.hash(), color.opponent());
        self.history.push(key, self.board.stones_on_board());
        self.next = color.opponent();
        self.moves.push(MoveRecord {
            color,
            mv,
            captured,
            out_of_turn,
            order_known: true,
            seen: true,
        });
        // In bounds: a record was pushed on the line above.
        &self.moves[self.moves.len() - 1]
    }

    /// Back to play after two passes, when dead stones are disputed (CN2002 21.4).
    ///
    /// # Errors
    /// [`RulesError::WrongState`] unless the game is being counted.
    pub fn resume(&mut self) -> Result<(), RulesError> {
        if self.state != GameState::Counting {
            return Err(RulesError::WrongState("resume needs a game being counted"));
        }
        self.state = GameState::Playing;
        self.consecutive_passes = 0;
        Ok(())
    }
}
