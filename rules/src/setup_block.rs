//! A mid-game setup block: moves whose stones are known but whose order is not, taken as one step from the position before them to the position after.
//!
//! A sensor board that could not see for a while (unplugged, its host away) reads
//! again a position reached by several moves. When every order of those moves that
//! the rules allow gives the same stones and the same position, the stones are
//! known and only their order is lost. Guessing an order would invent moves that
//! nobody saw; a [`SetupBlock`] records what is known instead: the moves as an
//! unordered list, the stones put on and taken off (SGF `AB`/`AW`/`AE`), and who
//! moves next. [`crate::Game::play_setup_block`] continues a game from it.
//!
//! A block may also stand for moves nobody saw at all ([`SetupBlock::unseen`]): the
//! clock counted a press, but no stone of that colour is left to show for it. Such a
//! move was a pass or a stone taken off again within the block; which one is unknown,
//! so the block counts it and names no point for it.

use serde::{Deserialize, Serialize};

use crate::{Board, Color, Move, Point, RulesError};

/// Moves of one game whose order is unknown, as one step: [`crate::Game::play_setup_block`].
///
/// ```
/// use goban_rules::{BoardSize, Color, Game, GameSetup, Move, Point, Ruleset, SetupBlock};
/// let size = BoardSize::NINE;
/// let at = |name: &str| Point::parse_human(name, size).unwrap();
/// let mut game = Game::new(GameSetup::new(size, Ruleset::Cn2002))?;
/// game.play(Color::Black, Move::Play(at("E5")))?;
/// // Black G7, White C7 and Black G3, in an order nobody saw.
/// let block = SetupBlock::of_stones(
///     &[(at("G7"), Color::Black), (at("C7"), Color::White), (at("G3"), Color::Black)],
///     Color::White,
/// );
/// game.play_setup_block(block)?;
/// assert_eq!(game.move_number(), 4);
/// assert_eq!(game.to_move(), Color::White);
/// assert!(!game.moves()[1].order_known);
/// game.play(Color::White, Move::Play(at("D4")))?; // move 5, in order again
/// assert!(game.moves()[4].order_known);
/// # Ok::<(), goban_rules::RulesError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetupBlock {
    /// The moves the block stands for, in no order: stones by point, then passes by colour.
    moves: Vec<(Color, Move)>,
    /// Stones on the board after the block that were not there before it, by point (`AB`/`AW`).
    added: Vec<(Point, Color)>,
    /// Points whose stone of before the block is gone after it (`AE`), by point: stones
    /// captured during the block (a point retaken by the other colour is in both lists).
    removed: Vec<Point>,
    /// Who moves after the block.
    to_move: Color,
    /// Moves of the block nobody saw, by colour (Black's first): each a pass or a stone
    /// taken off again within the block. Absent in older records.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    unseen: Vec<Color>,
}

/// The order a block lists its moves in: stones by point (then colour), passes last.
fn move_order(&(color, mv): &(Color, Move)) -> (u32, Color) {
    (mv.point().map_or(u32::MAX, |p| u32::from(p.0)), color)
}

impl SetupBlock {
    /// A block of stones alone, none captured: each stone is one move and stays on the board.
    #[must_use]
    pub fn of_stones(stones: &[(Point, Color)], to_move: Color) -> Self {
        let moves = stones.iter().map(|&(p, c)| (c, Move::Play(p))).collect();
        Self::new(moves, stones.to_vec(), Vec::new(), to_move)
    }

    /// A block from the position `before` it to the position `after` it, through `moves`
    /// (in any order): the stones added and removed are the two positions' difference.
    #[must_use]
    pub fn between(
        before: &Board,
        after: &Board,
        moves: Vec<(Color, Move)>,
        to_move: Color,
    ) -> Self {
        let added = after
            .stones()
            .filter(|&(p, c)| before.get(p) != Some(c))
            .collect();
        let removed = before
            .stones()
            .filter(|&(p, c)| after.get(p) != Some(c))
            .map(|(p, _)| p)
            .collect();
        Self::new(moves, added, removed, to_move)
    }

    /// A block of `stones` played on `before`, each one move that stays on the board, and
    /// `unseen` moves (one colour each). A chain of `before` was taken off within the block
    /// (captured) when every point next to it holds a stone of the other colour after the
    /// stones are put on; a stone on a point of such a chain retook it. A stone on a point
    /// still taken stays in the stones added, so that the block is refused when played.
    #[must_use]
    pub fn of_stones_on(
        before: &Board,
        stones: &[(Point, Color)],
        unseen: Vec<Color>,
        to_move: Color,
    ) -> Self {
        let mut after = before.clone();
        for &(p, c) in stones {
            // A point still taken is retaken below, if its chain was captured.
            after.put_setup_stone(p, c);
        }
        let mut captured = Vec::new();
        for (p, color) in before.stones() {
            if before.chain_id(p) != Some(p) {
                // Each chain once, from its smallest point.
                continue;
            }
            let chain = before.chain(p);
            let surrounded = chain.iter().all(|&q| {
                before
                    .neighbours(q)
                    .all(|n| chain.contains(&n) || after.get(n) == Some(color.opponent()))
            });
            if surrounded {
                // Nothing of its colour next to it: the same chain on `after`.
                captured.push(p);
            }
        }
        for p in captured {
            after.remove_chain(p);
        }
        let mut taken = Vec::new();
        for &(p, c) in stones {
            if after.get(p) != Some(c) && !after.put_setup_stone(p, c) {
                taken.push((p, c));
            }
        }
        let moves = stones.iter().map(|&(p, c)| (c, Move::Play(p))).collect();
        let mut block = Self::between(before, &after, moves, to_move);
        // Listed as added on a point still taken: refused when played.
        block.added.extend(taken);
        block.added.sort_unstable();
        block.with_unseen(unseen)
    }

    /// A block as given; every list is sorted (a block has no order to keep). Checked when
    /// played ([`crate::Game::play_setup_block`]).
    #[must_use]
    pub fn new(
        mut moves: Vec<(Color, Move)>,
        mut added: Vec<(Point, Color)>,
        mut removed: Vec<Point>,
        to_move: Color,
    ) -> Self {
        moves.sort_by_key(move_order);
        added.sort_unstable();
        removed.sort_unstable();
        Self {
            moves,
            added,
            removed,
            to_move,
            unseen: Vec::new(),
        }
    }

    /// The block standing also for `unseen` moves nobody saw (one colour per move): each a
    /// pass or a stone taken off again within the block. They are no prisoners: which they
    /// were is unknown.
    #[must_use]
    pub fn with_unseen(mut self, mut unseen: Vec<Color>) -> Self {
        unseen.sort_unstable();
        self.unseen = unseen;
        self
    }

    /// The moves it stands for nobody saw, by colour (Black's first): [`Self::with_unseen`].
    #[must_use]
    pub fn unseen(&self) -> &[Color] {
        &self.unseen
    }

    /// The moves it stands for, in no order: stones by point, then passes; the moves
    /// nobody saw are not among them ([`Self::unseen`]).
    #[must_use]
    pub fn moves(&self) -> &[(Color, Move)] {
        &self.moves
    }

    /// How many moves it stands for (passes and moves nobody saw included).
    #[must_use]
    pub fn len(&self) -> usize {
        self.moves.len() + self.unseen.len()
    }

    /// Whether it stands for no move (such a block is refused).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty() && self.unseen.is_empty()
    }

    /// The stones it puts on the board, by point (SGF `AB`/`AW`).
    #[must_use]
    pub fn added(&self) -> &[(Point, Color)] {
        &self.added
    }

    /// The points it empties of the stone they held before it, by point (SGF `AE`).
    #[must_use]
    pub fn removed(&self) -> &[Point] {
        &self.removed
    }

    /// Who moves after it.
    #[must_use]
    pub const fn to_move(&self) -> Color {
        self.to_move
    }

    /// The stones of `color` among its moves.
    fn stones_played(&self, color: Color) -> usize {
        self.moves
            .iter()
            .filter(|(c, mv)| *c == color && mv.point().is_some())
            .count()
    }

    /// The position after the block, played on `before`; why not when the block does not
    /// fit `before` (a removed point empty, an added point taken, more stones added than
    /// played, a chain left without a liberty).
    pub(crate) fn position_after(&self, before: &Board) -> Result<Board, RulesError> {
        let bad = |why: String| Err(RulesError::BadSetupBlock(why));
        if self.is_empty() {
            return bad("a block stands for one move at least".into());
        }
        if let Some(p) = self.removed.iter().find(|&&p| before.get(p).is_none()) {
            return bad(format!("point {} to empty holds no stone", p.0));
        }
        for color in Color::BOTH {
            let added = self.added.iter().filter(|s| s.1 == color).count();
            if added > self.stones_played(color) {
                return bad(format!("{added} {color} stones added for fewer moves"));
            }
        }
        let mut after = Board::new(before.size());
        for (p, c) in before.stones() {
            if self.removed.binary_search(&p).is_err() {
                after.put_setup_stone(p, c);
            }
        }
        for &(p, c) in &self.added {
            if !after.put_setup_stone(p, c) {
                return bad(format!(
                    "point {} to add a stone on is taken or off the board",
                    p.0
                ));
            }
        }
        if let Some((p, _)) = after.stones().find(|&(p, _)| after.liberties(p).is_empty()) {
            return bad(format!("the stone on point {} has no liberty", p.0));
        }
        Ok(after)
    }

    /// The stones each colour captured during the block (Black's first), as prisoners:
    /// the opponent's stones it removed, and the opponent's stones played in it that are
    /// not on the board after it. `before` is the position the block was played on.
    pub(crate) fn prisoners(&self, before: &Board) -> [u32; 2] {
        let mut out = [0u32; 2];
        for color in Color::BOTH {
            let victim = color.opponent();
            let removed = self
                .removed
                .iter()
                .filter(|&&p| before.get(p) == Some(victim))
                .count();
            let added = self.added.iter().filter(|s| s.1 == victim).count();
            let taken_in_block = self.stones_played(victim).saturating_sub(added);
            // At most 625 points: the counts fit.
            out[color.index()] = u32::try_from(removed + taken_in_block).unwrap_or(u32::MAX);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BoardSize, Game, GameSetup, GameState, Ruleset};

    const SIZE: BoardSize = BoardSize::NINE;

    fn at(name: &str) -> Point {
        Point::parse_human(name, SIZE).expect(name)
    }

    fn build_game(moves: &[(&str, Color)]) -> Game {
        let mut game = Game::new(GameSetup::new(SIZE, Ruleset::Cn2002)).expect("game");
        for &(p, c) in moves {
            game.play(c, Move::Play(at(p))).expect(p);
        }
        game
    }

    const B: Color = Color::Black;
    const W: Color = Color::White;

    #[test]
    fn a_block_continues_the_game_with_its_moves_unordered_and_later_moves_numbered_after_it() {
        let mut game = build_game(&[("E5", B), ("C3", W)]);
        let block = SetupBlock::of_stones(&[(at("G7"), B), (at("C7"), W), (at("G3"), B)], W);
        game.play_setup_block(block.clone()).expect("block");
        assert_eq!(game.move_number(), 5);
        assert_eq!(game.to_move(), W);
        assert_eq!(game.ko_point(), None);
        let unordered: Vec<bool> = game.moves().iter().map(|m| m.order_known).collect();
        assert_eq!(unordered, [true, true, false, false, false]);
        // Listed by point, not in a guessed order.
        let points: Vec<Point> = game.moves()[2..]
            .iter()
            .filter_map(|m| m.mv.point())
            .collect();
        let mut sorted = points.clone();
        sorted.sort_unstable();
        assert_eq!(points, sorted);
        assert_eq!(game.setup_block_at(4), Some(&block));
        assert_eq!(game.setup_block_at(2), None);
        assert_eq!(game.setup_block_at(6), None);
        game.play(W, Move::Play(at("D4"))).expect("move 6");
        assert_eq!(game.move_number(), 6);
        assert_eq!(game.board().get(at("G3")), Some(B));
        assert_eq!(game.board().get(at("D4")), Some(W));
    }

    #[test]
    fn stones_taken_off_count_as_prisoners_of_the_other_colour() {
        // White C2 stands alone; Black surrounds it while the board cannot see.
        let mut game = build_game(&[("E5", B), ("C2", W)]);
        let before = game.board().clone();
        let mut after = before.clone();
        after.remove_chain(at("C2"));
        for p in ["B2", "D2", "C1", "C3"] {
            after.put_setup_stone(at(p), B);
        }
        after.put_setup_stone(at("J9"), W);
        after.put_setup_stone(at("J8"), W);
        after.put_setup_stone(at("J7"), W);
        let moves = [
            (B, "B2"),
            (W, "J9"),
            (B, "D2"),
            (W, "J8"),
            (B, "C1"),
            (W, "J7"),
            (B, "C3"),
        ]
        .map(|(c, p)| (c, Move::Play(at(p))))
        .to_vec();
        let block = SetupBlock::between(&before, &after, moves, W);
        assert_eq!(block.removed(), [at("C2")]);
        assert_eq!(block.added().len(), 7);
        game.play_setup_block(block).expect("block");
        assert_eq!(game.captures(B), 1);
        assert_eq!(game.captures(W), 0);
        assert_eq!(game.board().get(at("C2")), None);
        assert_eq!(game.board().hash(), game.board().hash_from_scratch());
    }

    #[test]
    fn a_block_that_does_not_fit_the_position_is_refused_and_changes_nothing() {
        let mut game = build_game(&[("E5", B), ("C3", W)]);
        let hash = game.board().hash();
        let taken = SetupBlock::of_stones(&[(at("E5"), B)], W);
        let empty = SetupBlock::new(
            vec![(B, Move::Play(at("A1")))],
            Vec::new(),
            vec![at("A1")],
            W,
        );
        let unplayed = SetupBlock::new(vec![(W, Move::Pass)], vec![(at("A1"), B)], Vec::new(), B);
        let nothing = SetupBlock::of_stones(&[], B);
        for block in [taken, empty, unplayed, nothing] {
            assert!(
                matches!(
                    game.play_setup_block(block.clone()),
                    Err(RulesError::BadSetupBlock(_))
                ),
                "{block:?}"
            );
        }
        // A stone left without a liberty: the block would hide a capture.
        let mut corner = build_game(&[("E5", B), ("A1", W)]);
        let dead = SetupBlock::of_stones(&[(at("A2"), B), (at("J9"), W), (at("B1"), B)], W);
        assert!(corner.play_setup_block(dead).is_err());
        assert_eq!(game.board().hash(), hash);
        assert_eq!(game.move_number(), 2);
    }

    #[test]
    fn undo_takes_back_the_moves_after_a_block_and_the_block_only_as_a_whole() {
        let mut game = build_game(&[("E5", B), ("C3", W)]);
        let before = game.board().hash();
        let block = SetupBlock::of_stones(&[(at("G7"), B), (at("C7"), W), (at("G3"), B)], W);
        game.play_setup_block(block.clone()).expect("block");
        let after = game.board().hash();
        game.play(W, Move::Play(at("D4"))).expect("D4");
        game.play(B, Move::Play(at("F4"))).expect("F4");
        assert_eq!(game.undo().map(|m| m.mv), Some(Move::Play(at("F4"))));
        assert_eq!(game.undo().map(|m| m.mv), Some(Move::Play(at("D4"))));
        // Replayed from the start with the block where it was.
        assert_eq!(game.board().hash(), after);
        assert_eq!(game.to_move(), W);
        assert_eq!(game.move_number(), 5);
        // One move of a block cannot be taken back alone.
        assert_eq!(game.undo(), None);
        assert_eq!(game.undo_setup_block(), Some(block));
        assert_eq!(game.board().hash(), before);
        assert_eq!(game.move_number(), 2);
        assert_eq!(game.to_move(), B);
        assert_eq!(game.undo_setup_block(), None, "the last move is no block");
        assert_eq!(game.state(), GameState::Playing);
    }

    #[test]
    fn a_move_nobody_saw_is_counted_with_no_point_and_no_prisoner() {
        // Black played somewhere, White took it off with C2 while the board could not see:
        // the clock counted two presses, the board shows White C2 only.
        let mut game = build_game(&[("E5", B), ("C3", W)]);
        let before = game.board().clone();
        let mut after = before.clone();
        after.put_setup_stone(at("C2"), W);
        let block = SetupBlock::between(&before, &after, vec![(W, Move::Play(at("C2")))], B)
            .with_unseen(vec![B]);
        assert_eq!(block.len(), 2);
        assert_eq!(block.unseen(), [B]);
        game.play_setup_block(block.clone()).expect("block");
        assert_eq!(game.move_number(), 4);
        assert_eq!(game.to_move(), B);
        let seen: Vec<(bool, bool)> = game
            .moves()
            .iter()
            .map(|m| (m.order_known, m.seen))
            .collect();
        assert_eq!(
            seen,
            [(true, true), (true, true), (false, true), (false, false)]
        );
        assert_eq!(game.moves()[3].color, B);
        // Whether it was a stone (a prisoner for White) or a pass is unknown: none counted.
        assert_eq!((game.captures(B), game.captures(W)), (0, 0));
        assert_eq!(game.setup_block_at(4), Some(&block));
        // A block read back from an older record, without the field, has no unseen move.
        let json =
            serde_json::to_string(&SetupBlock::of_stones(&[(at("A1"), B)], W)).expect("json");
        assert!(!json.contains("unseen"), "{json}");
        let back: SetupBlock = serde_json::from_str(&json).expect("read");
        assert!(back.unseen().is_empty());
        // Only unseen moves: still a block (the board shows nothing new).
        let mut bare = build_game(&[("E5", B)]);
        let nothing_seen = SetupBlock::of_stones(&[], W).with_unseen(vec![W, B]);
        bare.play_setup_block(nothing_seen).expect("unseen only");
        assert_eq!(bare.move_number(), 3);
        assert!(game.undo().is_none(), "a block goes back whole");
        assert_eq!(game.undo_setup_block(), Some(block));
        assert_eq!(game.move_number(), 2);
    }

    #[test]
    fn stones_that_leave_a_chain_without_a_liberty_took_it_off() {
        // White C2 alone; Black B2, D2, C1 and C3 while the board could not see, White
        // elsewhere twice, and one White move nobody saw.
        let mut game = build_game(&[("E5", B), ("C2", W)]);
        let stones = [
            (at("B2"), B),
            (at("D2"), B),
            (at("C1"), B),
            (at("C3"), B),
            (at("J9"), W),
            (at("J8"), W),
        ];
        let block = SetupBlock::of_stones_on(game.board(), &stones, vec![W], W);
        assert_eq!(block.removed(), [at("C2")]);
        assert_eq!(block.added().len(), 6);
        assert_eq!(block.len(), 7);
        game.play_setup_block(block).expect("block");
        assert_eq!(game.board().get(at("C2")), None);
        assert_eq!(game.captures(B), 1);
        // A point retaken by the other colour: its stone of before was captured first.
        let mut corner = build_game(&[("E5", B), ("A1", W)]);
        let stones = [
            (at("A2"), B),
            (at("J9"), W),
            (at("B1"), B),
            (at("J8"), W),
            (at("A1"), B),
        ];
        let retaken = SetupBlock::of_stones_on(corner.board(), &stones, vec![], W);
        assert_eq!(retaken.removed(), [at("A1")]);
        assert!(retaken.added().contains(&(at("A1"), B)));
        corner.play_setup_block(retaken).expect("retaken");
        assert_eq!(corner.board().get(at("A1")), Some(B));
        assert_eq!(corner.captures(B), 1);
        // A stone put on another colour's stone that nothing surrounds: no capture, refused.
        let mut bare = build_game(&[("E5", B), ("A1", W)]);
        let swapped =
            SetupBlock::of_stones_on(bare.board(), &[(at("A1"), B), (at("J9"), W)], vec![], B);
        assert!(swapped.removed().is_empty());
        assert!(bare.play_setup_block(swapped).is_err());
    }

    #[test]
    fn a_pass_inside_a_block_never_ends_the_game_with_the_next_pass() {
        // Whether White's pass was the block's last move is unknown: no end is guessed.
        let mut game = build_game(&[("E5", B)]);
        let block = SetupBlock::new(
            vec![(W, Move::Pass), (B, Move::Play(at("C3")))],
            vec![(at("C3"), B)],
            Vec::new(),
            W,
        );
        assert_eq!(block.moves()[1], (W, Move::Pass), "passes listed last");
        game.play_setup_block(block).expect("block");
        game.play(W, Move::Pass).expect("pass");
        assert_eq!(game.state(), GameState::Playing);
        game.play(B, Move::Pass).expect("pass");
        assert_eq!(game.state(), GameState::Counting);
    }
}
