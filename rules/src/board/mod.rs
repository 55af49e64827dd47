//! The stones on the board, kept as chains with pseudo-liberty counts and a zobrist hash.
//!
//! Captures follow CN2002 art. 3-4: after a stone is placed, the opponent's chains left
//! without liberties are removed. Each chain is a ring of points (`next`) with a head;
//! every point keeps its chain's id (`head`: the head's index with the colour's bit, or the
//! id of an empty or off-board point), and the head stores the chain's length and its
//! pseudo-liberties (the number of stone/empty adjacencies, which is zero exactly when the
//! chain has no liberty). A move costs a handful of array writes; nothing is copied and
//! nothing is allocated.
//!
//! The per-point arrays have a fixed power-of-two length ([`SLOTS`]) and every index is
//! masked with `SLOTS - 1` ([`ix`]): the compiler then knows each access is in bounds and
//! emits no check, which is a large share of the cost of a move (see
//! `docs/performance.md`).

use std::cell::RefCell;
use std::sync::OnceLock;

use crate::{BoardSize, Color, Point, zobrist};

mod chain_ids;
mod lanes;
mod neighbours;

use chain_ids::{EMPTY_ID, NO_CHAIN, OFF_ID, chain_id, colour_bit, index_of};
use lanes::{
    HI, LANE_3, LANES_23, LANES_123, LO, LOW15, NO_CHAIN_LANE, is_zero, lane, lane_at, lanes,
};
use neighbours::{NeighbourTable, neighbour_table};

pub(crate) const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
pub(crate) const OFF: u8 = 3;

/// Length of the per-point arrays: a power of two above the largest board (25 x 25 points
/// and one sentinel).
const SLOTS: usize = 1024;

/// A point index as an array index, masked so that it is provably below [`SLOTS`]. Indices
/// of this module are always below `size * size + 1`, so the mask never changes them.
#[inline(always)]
const fn ix(q: u16) -> usize {
    q as usize & (SLOTS - 1)
}

/// `a` if `cond`, else `b`, as a select (`cmov`), not a branch: a plain `if` on a
/// neighbour's content was compiled as a branch, mispredicted a third of the time.
#[inline(always)]
fn select(cond: bool, a: u16, b: u16) -> u16 {
    std::hint::select_unpredictable(cond, a, b)
}

pub(crate) const fn code(color: Color) -> u8 {
    match color {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

const fn color_of(code: u8) -> Option<Color> {
    match code {
        BLACK => Some(Color::Black),
        WHITE => Some(Color::White),
        _ => None,
    }
}

/// What placing a stone would do, computed without changing the board. Playing the stone
/// ([`Board::play_probed`]) reuses what the probe read: the neighbours' chains, the mover's
/// chains the stone joins, the chains it captures and the hash after the move, so none of it
/// is looked up or hashed twice.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Probe {
    /// Bit 0 of a lane set: that neighbour's chain (of the opponent) would be captured, and
    /// the neighbour is the first of its chain. A mask, not an array of heads, so that the
    /// probe stays in registers.
    captured: u64,
    /// Whether the stone would have no liberty and capture nothing.
    suicide: bool,
    /// Stones those chains hold in all.
    pub(crate) n_stones: u16,
    /// The chain id of each neighbour (`Points::head`): one 16-bit lane per neighbour, in
    /// the neighbour table's order. An empty or off-board neighbour's is on the scratch slot.
    around: u64,
    /// Bit 0 of a lane set: that neighbour is the mover's and the first of its chain.
    own_first: u64,
    /// The chain the stone joins: the first of the mover's chains around it, or the stone's
    /// own point when there is none.
    join: u16,
    /// Empty neighbours: the new stone's own pseudo-liberties.
    n_empty: u16,
    /// The zobrist hash of the stones after the move, captures removed.
    pub(crate) hash_after: u64,
}

impl Probe {
    /// A probe before [`Board::probe_into`] fills it.
    pub(crate) const BLANK: Self = Self {
        captured: 0,
        suicide: false,
        n_stones: 0,
        around: NO_CHAIN_LANE * LO,
        own_first: 0,
        join: NO_CHAIN,
        n_empty: 0,
        hash_after: 0,
    };

    /// Suicide per CN2002 art. 5: no liberty and nothing captured.
    pub(crate) const fn is_suicide(&self) -> bool {
        self.suicide
    }

    /// Whether the stone captures.
    pub(crate) const fn captures(&self) -> bool {
        self.captured != 0
    }

    /// The heads of the chains the stone would capture, each once.
    pub(crate) fn captured_heads(&self) -> impl Iterator<Item = u16> + use<> {
        let around = self.around;
        let mut bits = self.captured;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let head = index_of(lane_at(around, bits.trailing_zeros() & 48));
            bits &= bits - 1;
            Some(head)
        })
    }

    /// Whether the stone would stand alone with no empty neighbour. When it captures
    /// exactly one stone, it is then a single stone whose one liberty is the captured
    /// point: the ko shape (CN2002 20.1).
    pub(crate) const fn stands_alone_without_liberty(&self) -> bool {
        self.n_empty == 0 && self.own_first == 0
    }
}

/// The per-point arrays, boxed together: one allocation per board.
#[derive(Clone)]
struct Points {
    /// Point states; the sentinel at index `size * size` and every slot after it are `OFF`.
    cells: [u8; SLOTS],
    /// The chain of each point, as a [`chain_id`]: the chain head with the colour's bit, so
    /// that one read tells the probe what a neighbour holds; [`EMPTY_ID`] for an empty point
    /// and [`OFF_ID`] off the board, both on the scratch slot once masked ([`ix`]).
    head: [u16; SLOTS],
    /// The next stone of the chain's ring.
    next: [u16; SLOTS],
    /// Pseudo-liberties, valid at chain heads.
    libs: [u16; SLOTS],
    /// Stones of the chain, valid at chain heads.
    len: [u16; SLOTS],
}

/// A Go board: stones, chains and an incremental zobrist hash.
#[derive(Clone)]
pub struct Board {
    size: BoardSize,
    /// Four neighbours per point; off-board neighbours point at the sentinel. Shared by
    /// every board of this size, so a new board or a clone does not rebuild it.
    nbrs: &'static NeighbourTable,
    /// Always `Some` but while the board is dropped, when the arrays go to [`SPARE`].
    at: Option<Box<Points>>,
    hash: u64,
    stones: [u32; 2],
}

impl PartialEq for Board {
    /// Boards are equal when they hold the same stones.
    fn eq(&self, other: &Self) -> bool {
        self.size == other.size && self.at().cells == other.at().cells
    }
}
impl Eq for Board {}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Board")
            .field("size", &self.size)
            .field("stones", &self.to_wire_text())
            .field("hash", &self.hash)
            .finish()
    }
}

impl Board {
    /// An empty board.
    #[must_use]
    pub fn new(size: BoardSize) -> Self {
        // The arrays of a board dropped earlier on this thread when there is one: only its
        // cells and chain ids need resetting (the other chain arrays are read at stones only,
        // and every stone writes them when it is placed). A new game then copies no 9 KB
        // template.
        let spare = SPARE
            .try_with(|spare| spare.try_borrow_mut().ok()?.pop())
            .ok()
            .flatten();
        let mut at = match spare {
            Some(mut at) => {
                at.cells.fill(OFF);
                at.head.fill(OFF_ID);
                at
            }
            None => Box::new(Points::OFF_BOARD),
        };
        at.cells[..size.points()].fill(EMPTY);
        at.head[..size.points()].fill(EMPTY_ID);
        Self {
            size,
            nbrs: neighbour_table(size),
            at: Some(at),
            hash: 0,
            stones: [0; 2],
        }
    }

    /// The empty board of `size`, made once per size for the life of the program.
    pub(crate) fn empty(size: BoardSize) -> &'static Self {
        static EMPTY: [OnceLock<Board>; BoardSize::MAX as usize + 1] =
            [const { OnceLock::new() }; BoardSize::MAX as usize + 1];
        EMPTY[usize::from(size.lines())].get_or_init(|| Self::new(size))
    }

    /// The per-point arrays.
    #[inline(always)]
    fn at(&self) -> &Points {
        match &self.at {
            Some(at) => at,
            None => unreachable!("a board's arrays are taken only when it is dropped"),
        }
    }

    /// The per-point arrays, to change.
    #[inline(always)]
    fn at_mut(&mut self) -> &mut Points {
        match &mut self.at {
            Some(at) => at,
            None => unreachable!("a board's arrays are taken only when it is dropped"),
        }
    }

    /// The board size.
    #[must_use]
    pub const fn size(&self) -> BoardSize {
        self.size
    }

    /// The stone on `p`, if any (`None` also for off-board points).
    #[inline]
    #[must_use]
    pub fn get(&self, p: Point) -> Option<Color> {
        if p.is_on(self.size) {
            color_of(self.at().cells[ix(p.0)])
        } else {
            None
        }
    }

    /// Whether `p` holds a stone: [`Board::get`]`(p).is_some()` for any `p` below
    /// [`SLOTS`] (off-board slots are `OFF`), without its on-board check. For callers that
    /// have checked `p` against a board size already.
    #[inline(always)]
    pub(crate) fn holds_stone(&self, p: Point) -> bool {
        matches!(self.at().cells[ix(p.0)], BLACK | WHITE)
    }

    /// The on-board orthogonal neighbours of `p` (none for an off-board point).
    pub fn neighbours(&self, p: Point) -> impl Iterator<Item = Point> + '_ {
        let sentinel = self.sentinel();
        let list = if p.is_on(self.size) {
            self.nbrs[ix(p.0)]
        } else {
            [sentinel; 4]
        };
        list.into_iter().filter(move |&q| q != sentinel).map(Point)
    }

    /// The zobrist hash of the stones (no side-to-move component).
    #[must_use]
    pub const fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash recomputed from every point: equals [`Board::hash`] unless there is a bug.
    #[must_use]
    pub fn hash_from_scratch(&self) -> u64 {
        self.stones()
            .fold(0, |h, (p, c)| h ^ zobrist::stone_key(c, p))
    }

    /// The number of stones of `color` on the board.
    #[must_use]
    pub const fn stone_count(&self, color: Color) -> u32 {
        self.stones[color.index()]
    }

    /// The number of stones of both colours.
    #[inline(always)]
    pub(crate) const fn stones_on_board(&self) -> u32 {
        self.stones[0] + self.stones[1]
    }

    /// Every stone on the board, in index order.
    pub fn stones(&self) -> impl Iterator<Item = (Point, Color)> + '_ {
        self.size
            .all_points()
            .filter_map(|p| self.get(p).map(|c| (p, c)))
    }

    /// The stones of the chain (group, CN2002 art. 3) through `p`; empty if `p` is empty.
    #[must_use]
    pub fn chain(&self, p: Point) -> Vec<Point> {
        if self.get(p).is_none() {
            return Vec::new();
        }
        let mut out = Vec::with_capacity(usize::from(self.at().len[ix(self.at().head[ix(p.0)])]));
        self.for_each_in_chain(p.0, |q| out.push(Point(q)));
        out.sort_unstable();
        out
    }

    /// The distinct liberties of the chain through `p`, sorted; empty if `p` is empty.
    #[must_use]
    pub fn liberties(&self, p: Point) -> Vec<Point> {
        let mut out = Vec::new();
        if self.get(p).is_none() {
            return out;
        }
        self.for_each_in_chain(p.0, |q| {
            for &r in &self.nbrs[ix(q)] {
                if self.at().cells[ix(r)] == EMPTY {
                    out.push(Point(r));
                }
            }
        });
        out.sort_unstable();
        out.dedup();
        out
    }

    /// A canonical id of the chain through `p` (its smallest point), if `p` holds a stone.
    #[must_use]
    pub fn chain_id(&self, p: Point) -> Option<Point> {
        self.get(p)?;
        let mut min = p.0;
        self.for_each_in_chain(p.0, |q| min = min.min(q));
        Some(Point(min))
    }

    /// Places a stone without any legality check or capture: for setup stones (SGF `AB`/`AW`,
    /// handicap). Returns `false` and changes nothing if the point is off-board or occupied.
    pub fn put_setup_stone(&mut self, p: Point, color: Color) -> bool {
        if !p.is_on(self.size) || self.at().cells[ix(p.0)] != EMPTY {
            return false;
        }
        self.place_and_merge(p.0, color);
        true
    }

    /// Removes the whole chain through `p` (dead stones at the count, CN2002 art. 8) and
    /// returns its points; empty if `p` is empty.
    pub fn remove_chain(&mut self, p: Point) -> Vec<Point> {
        let mut out = Vec::new();
        if self.get(p).is_some() {
            self.remove_chain_at(self.at().head[ix(p.0)], &mut out);
        }
        out.sort_unstable();
        out
    }

    /// What a stone of `color` on the empty on-board point `p` would capture.
    #[inline(always)]
    pub(crate) fn probe(&self, p: Point, color: Color) -> Probe {
        let mut probe = Probe::BLANK;
        self.probe_into(p, color, &mut probe);
        probe
    }

    /// [`Board::probe`] written into `probe` (which must be [`Probe::BLANK`]), so that a
    /// caller keeps it in its own frame: returned by value, it was copied field by field.
    ///
    /// Without a branch on the neighbours' content, which the processor cannot predict (it
    /// was most of the mispredicted branches of a move, see `docs/performance.md`), and four
    /// neighbours at a time: each neighbour's chain id (which says empty, off the board or
    /// whose chain) and its chain's pseudo-liberty count are one 16-bit lane of a `u64`
    /// ([`lanes`]), and the tests are lane-wise arithmetic. The chains are told apart by
    /// comparing the ids with the ids rotated by one, two and three lanes. A neighbouring
    /// chain loses as many pseudo-liberties as it has stones next to the point; it then has
    /// no liberty left exactly when its count equals that number (a pseudo-liberty count is
    /// zero exactly when the chain has no liberty). The only branch left is on a capture,
    /// which is rare.
    #[inline(always)]
    pub(crate) fn probe_into(&self, p: Point, color: Color, probe: &mut Probe) {
        let at = self.at();
        let around = self.nbrs[ix(p.0)];
        // Each neighbour's chain id: its chain head and colour bit, or EMPTY_ID / OFF_ID.
        let heads = lanes(around.map(|q| at.head[ix(q)]));
        let empty = is_zero(heads ^ (u64::from(EMPTY_ID) * LO));
        let own = (heads >> colour_bit(code(color))) & LO;
        let theirs = (heads >> colour_bit(code(color.opponent()))) & LO;
        // The pseudo-liberties of each lane's chain (the scratch slot's for an empty or
        // off-board neighbour, masked below 0x8000 so that the lane-wise arithmetic below
        // cannot carry).
        let libs = lanes(std::array::from_fn(|i| at.libs[ix(lane(heads, i))])) & LOW15;
        // Bit 0 of lane i: the neighbour i + 1, i + 2, i + 3 (mod 4) is in the same chain
        // (the third is the first one rotated: lane i against i - 1).
        let same1 = is_zero(heads ^ heads.rotate_right(16));
        let same2 = is_zero(heads ^ heads.rotate_right(32));
        let same3 = same1.rotate_left(16);
        // Stones of each lane's chain next to the point: the pseudo-liberties it loses.
        let touching = LO + same1 + same2 + same3;
        // No earlier lane in the same chain: lane 1 against 0, 2 against 1 and 0, 3 against
        // 2, 1 and 0.
        let first = LO & !(same3 & LANES_123 | same2 & LANES_23 | same1 & LANE_3);
        // Lane-wise `libs > touching` (`libs >= touching + 1`) and `libs == touching`.
        let more = (((libs | HI) - (touching + LO)) & HI) >> 15;
        let as_many = is_zero(libs ^ touching);
        let captured = theirs & first & as_many;
        // A liberty: an empty neighbour, or a chain of the mover's that keeps one; or else a
        // capture.
        probe.suicide = (empty | (own & more) | captured) == 0;
        probe.n_empty = (empty.wrapping_mul(LO) >> 48) as u16;
        let own_first = own & first;
        probe.own_first = own_first;
        // The lane of the lowest set bit: `trailing_zeros / 16`, as a shift in bits.
        let join = lane_at(heads, own_first.trailing_zeros() & 48);
        probe.join = select(own_first == 0, chain_id(code(color), p.0), join);
        probe.around = heads;
        probe.hash_after = self.hash ^ zobrist::stone_key(color, p);
        probe.captured = captured;
        if captured != 0 {
            self.probe_captures(color.opponent(), probe);
        }
    }

    /// The rest of [`Board::probe`] for a stone that captures: the stones it takes and the
    /// hash without them.
    #[inline(always)]
    fn probe_captures(&self, them: Color, probe: &mut Probe) {
        let at = self.at();
        for h in probe.captured_heads() {
            probe.n_stones += at.len[ix(h)];
            self.for_each_in_chain(h, |q| {
                probe.hash_after ^= zobrist::stone_key(them, Point(q));
            });
        }
    }

    /// The points the chains of `probe` hold, for reporting captures.
    pub(crate) fn probe_points(&self, probe: &Probe, out: &mut Vec<Point>) {
        for head in probe.captured_heads() {
            self.for_each_in_chain(head, |q| out.push(Point(q)));
        }
    }

    /// Plays a stone known to be legal and pushes the captured points onto `captured`
    /// (CN2002 art. 4.1: opponent chains without liberties are removed).
    #[cfg(test)]
    pub(crate) fn play_unchecked(&mut self, p: Point, color: Color, captured: &mut Vec<Point>) {
        let probe = self.probe(p, color);
        self.play_probed(p, color, &probe, captured);
    }

    /// Plays a stone on the empty point `p` whose [`Board::probe`] on this very position is
    /// `probe`: the neighbours, their chains, the chains left without liberty and the hash
    /// after the move are the probe's, so none is looked up again.
    #[inline(always)]
    pub(crate) fn play_probed(
        &mut self,
        p: Point,
        color: Color,
        probe: &Probe,
        captured: &mut Vec<Point>,
    ) {
        self.hash = probe.hash_after;
        self.stones[color.index()] += 1;
        let me = code(color);
        let pi = ix(p.0);
        let at = self.at_mut();
        at.cells[pi] = me;
        // Every neighbouring chain loses a pseudo-liberty per stone next to `p`; an empty or
        // off-board neighbour has the head NO_CHAIN, whose slot (`SLOTS - 1`, above every
        // point and the sentinel) is scratch that nothing reads as a count, so it takes the
        // decrement without a branch.
        for i in 0..4 {
            let h = lane(probe.around, i);
            at.libs[ix(h)] = at.libs[ix(h)].wrapping_sub(1);
        }
        // The stone joins the first of the mover's chains around it, or stands as a chain of
        // its own (`t == p`), in one sequence without a branch: with `t == p` the ring splice
        // reads back the `next` just written, and the length and count start from 0.
        let t = probe.join;
        at.head[pi] = t;
        at.next[pi] = p.0;
        at.len[pi] = 0;
        at.libs[pi] = 0;
        let after = at.next[ix(t)];
        at.next[pi] = after;
        at.next[ix(t)] = p.0;
        at.len[ix(t)] += 1;
        at.libs[ix(t)] += probe.n_empty;
        let mut more = probe.own_first & probe.own_first.wrapping_sub(1);
        if more != 0 {
            // The stone joins two chains or more (a few moves in a hundred).
            let mut cur = t;
            while more != 0 {
                cur = at.merge(cur, lane_at(probe.around, more.trailing_zeros() & 48));
                more &= more - 1;
            }
        }
        if probe.captures() {
            let them = color.opponent();
            for head in probe.captured_heads() {
                self.take_off(head, them, captured);
            }
        }
    }

    fn sentinel(&self) -> u16 {
        // size.points() <= 625, fits in u16.
        self.size.points() as u16
    }

    #[inline]
    fn for_each_in_chain(&self, start: u16, mut f: impl FnMut(u16)) {
        let mut q = start;
        loop {
            f(q);
            q = self.at().next[ix(q)];
            if q == start {
                break;
            }
        }
    }

    /// Puts a stone on `p`, updates neighbouring liberties and merges own chains.
    #[inline]
    fn place_and_merge(&mut self, p: u16, color: Color) {
        let me = code(color);
        let pi = ix(p);
        self.hash ^= zobrist::stone_key(color, Point(p));
        self.stones[color.index()] += 1;
        let nbrs = self.nbrs;
        let at = self.at_mut();
        at.cells[pi] = me;
        at.head[pi] = chain_id(me, p);
        at.next[pi] = p;
        at.len[pi] = 1;
        let mut libs = 0;
        let around = nbrs[pi];
        for q in around {
            match at.cells[ix(q)] {
                EMPTY => libs += 1,
                OFF => {}
                _ => at.libs[ix(at.head[ix(q)])] -= 1,
            }
        }
        at.libs[pi] = libs;
        for q in around {
            if at.cells[ix(q)] == me && at.head[ix(q)] != at.head[pi] {
                _ = at.merge(at.head[pi], at.head[ix(q)]);
            }
        }
    }

    /// Removes the chain through `head` and pushes its points onto `out`, hash included.
    fn remove_chain_at(&mut self, head: u16, out: &mut Vec<Point>) {
        let head = index_of(head);
        let Some(color) = color_of(self.at().cells[ix(head)]) else {
            return;
        };
        let start = out.len();
        self.take_off(head, color, out);
        for &q in &out[start..] {
            self.hash ^= zobrist::stone_key(color, q);
        }
    }

    /// Takes the chain of `color` headed by `head` off the board and pushes its points onto
    /// `out`, in one walk of its ring; the hash is left to the caller. A stone next to the
    /// chain is either in it or of the other colour, so only the other colour's chains get
    /// their liberty back.
    #[inline(always)]
    fn take_off(&mut self, head: u16, color: Color, out: &mut Vec<Point>) {
        let nbrs = self.nbrs;
        let other = code(color.opponent());
        let at = self.at_mut();
        let mut n = 0;
        let mut q = head;
        loop {
            out.push(Point(q));
            at.cells[ix(q)] = EMPTY;
            at.head[ix(q)] = EMPTY_ID;
            for r in nbrs[ix(q)] {
                // Without a branch: a neighbour not of `other` gives the scratch slot its
                // liberty (see `play_probed`).
                let h = select(at.cells[ix(r)] == other, at.head[ix(r)], NO_CHAIN);
                at.libs[ix(h)] = at.libs[ix(h)].wrapping_add(1);
            }
            n += 1;
            q = at.next[ix(q)];
            if q == head {
                break;
            }
        }
        // The count cannot underflow: these stones were counted when placed.
        self.stones[color.index()] -= n;
    }
}

impl Drop for Board {
    /// Hands the arrays to the next [`Board::new`] on this thread.
    fn drop(&mut self) {
        if let Some(at) = self.at.take() {
            let _ = SPARE.try_with(|spare| {
                if let Ok(mut spare) = spare.try_borrow_mut()
                    && spare.len() < SPARE_MAX
                {
                    spare.push(at);
                }
            });
        }
    }
}

/// Boards' arrays kept for reuse per thread, at most [`SPARE_MAX`] (a replay holds a few
/// boards at a time: the game's, a count's).
const SPARE_MAX: usize = 4;

thread_local! {
    static SPARE: RefCell<Vec<Box<Points>>> = const { RefCell::new(Vec::new()) };
}

impl Points {
    /// Every slot off the board: `Board::new` then empties the board's points.
    const OFF_BOARD: Self = Self {
        cells: [OFF; SLOTS],
        head: [OFF_ID; SLOTS],
        next: [0; SLOTS],
        libs: [0; SLOTS],
        len: [0; SLOTS],
    };

    /// Joins two chains, relabelling the smaller one; returns the head of the joined chain.
    #[inline]
    fn merge(&mut self, a: u16, b: u16) -> u16 {
        let (big, small) = if self.len[ix(a)] >= self.len[ix(b)] {
            (a, b)
        } else {
            (b, a)
        };
        let start = index_of(small);
        // The first four stones of the ring without a loop exit to predict (a ring of fewer
        // stones is walked round again, writing the same ids), then the rest if any.
        let mut q = start;
        for _ in 0..4 {
            self.head[ix(q)] = big;
            q = self.next[ix(q)];
        }
        if self.len[ix(small)] > 4 {
            while q != start {
                self.head[ix(q)] = big;
                q = self.next[ix(q)];
            }
        }
        self.next.swap(ix(big), ix(small));
        self.len[ix(big)] += self.len[ix(small)];
        self.libs[ix(big)] += self.libs[ix(small)];
        big
    }
}

#[cfg(test)]
mod tests;
