//! The stones on the board, kept as chains with pseudo-liberty counts and a zobrist hash.
//!
//! Captures follow CN2002 art. 3-4: after a stone is placed, the opponent's chains left
//! without liberties are removed. Each chain is a ring of points (`next`) with a head
//! (`head`); the head stores the chain's length and its pseudo-liberties (the number of
//! stone/empty adjacencies, which is zero exactly when the chain has no liberty). A move
//! costs a handful of array writes; nothing is copied.

use crate::{BoardSize, Color, Point, zobrist};

pub(crate) const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
pub(crate) const OFF: u8 = 3;

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

/// What placing a stone would do, computed without changing the board.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Probe {
    /// Heads of the opponent chains that would be captured (at most four).
    pub(crate) heads: [u16; 4],
    /// How many entries of `heads` are used.
    pub(crate) n_heads: usize,
    /// Stones those chains hold in all.
    pub(crate) n_stones: usize,
    /// Whether the new stone's chain keeps a liberty before any capture.
    pub(crate) has_liberty: bool,
}

impl Probe {
    /// Suicide per CN2002 art. 5: no liberty and nothing captured.
    pub(crate) const fn is_suicide(&self) -> bool {
        !self.has_liberty && self.n_heads == 0
    }
}

/// A Go board: stones, chains and an incremental zobrist hash.
#[derive(Clone, Debug)]
pub struct Board {
    size: BoardSize,
    /// Point states, plus one off-board sentinel at index `size*size`.
    cells: Vec<u8>,
    /// Four neighbours per point; off-board neighbours point at the sentinel.
    nbrs: Vec<[u16; 4]>,
    head: Vec<u16>,
    next: Vec<u16>,
    libs: Vec<u16>,
    len: Vec<u16>,
    hash: u64,
    stones: [u32; 2],
}

impl PartialEq for Board {
    /// Boards are equal when they hold the same stones.
    fn eq(&self, other: &Self) -> bool {
        self.size == other.size && self.cells == other.cells
    }
}
impl Eq for Board {}

impl Board {
    /// An empty board.
    #[must_use]
    pub fn new(size: BoardSize) -> Self {
        let n = size.points();
        let mut cells = vec![EMPTY; n + 1];
        cells[n] = OFF;
        Self {
            size,
            cells,
            nbrs: neighbour_table(size),
            head: vec![0; n + 1],
            next: vec![0; n + 1],
            libs: vec![0; n + 1],
            len: vec![0; n + 1],
            hash: 0,
            stones: [0; 2],
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
            color_of(self.cells[p.index()])
        } else {
            None
        }
    }

    /// The on-board orthogonal neighbours of `p` (none for an off-board point).
    pub fn neighbours(&self, p: Point) -> impl Iterator<Item = Point> + '_ {
        let sentinel = self.sentinel();
        let list = if p.is_on(self.size) {
            self.nbrs[p.index()]
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
        let mut out = Vec::with_capacity(usize::from(self.len[self.head[p.index()] as usize]));
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
            for &r in &self.nbrs[usize::from(q)] {
                if self.cells[usize::from(r)] == EMPTY {
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
        if !p.is_on(self.size) || self.cells[p.index()] != EMPTY {
            return false;
        }
        self.place_and_merge(p.0, code(color));
        true
    }

    /// Removes the whole chain through `p` (dead stones at the count, CN2002 art. 8) and
    /// returns its points; empty if `p` is empty.
    pub fn remove_chain(&mut self, p: Point) -> Vec<Point> {
        let mut out = Vec::new();
        if self.get(p).is_some() {
            self.remove_chain_at(self.head[p.index()], &mut out);
        }
        out.sort_unstable();
        out
    }

    /// What a stone of `color` on the empty on-board point `p` would capture.
    pub(crate) fn probe(&self, p: Point, color: Color) -> Probe {
        let me = code(color);
        let mut probe = Probe::default();
        let around = self.nbrs[p.index()];
        for (i, &q) in around.iter().enumerate() {
            let c = self.cells[usize::from(q)];
            if c == EMPTY {
                probe.has_liberty = true;
                continue;
            }
            if c == OFF {
                continue;
            }
            let h = self.head[usize::from(q)];
            if around[..i].iter().any(|&r| self.is_stone_of_chain(r, h)) {
                continue; // this chain was already looked at through an earlier neighbour
            }
            let adjacent = around
                .iter()
                .filter(|&&r| self.is_stone_of_chain(r, h))
                .count();
            let libs = usize::from(self.libs[usize::from(h)]);
            if c == me {
                probe.has_liberty |= libs > adjacent;
            } else if libs == adjacent {
                probe.heads[probe.n_heads] = h;
                probe.n_heads += 1;
                probe.n_stones += usize::from(self.len[usize::from(h)]);
            }
        }
        probe
    }

    /// The hash after `color` plays `p` with the captures `probe` found.
    pub(crate) fn hash_after(&self, p: Point, color: Color, probe: &Probe) -> u64 {
        let mut h = self.hash ^ zobrist::stone_key(color, p);
        let them = color.opponent();
        for &head in &probe.heads[..probe.n_heads] {
            self.for_each_in_chain(head, |q| h ^= zobrist::stone_key(them, Point(q)));
        }
        h
    }

    /// The points the chains of `probe` hold, for reporting captures.
    pub(crate) fn probe_points(&self, probe: &Probe, out: &mut Vec<Point>) {
        for &head in &probe.heads[..probe.n_heads] {
            self.for_each_in_chain(head, |q| out.push(Point(q)));
        }
    }

    /// Plays a stone known to be legal and pushes the captured points onto `captured`
    /// (CN2002 art. 4.1: opponent chains without liberties are removed).
    pub(crate) fn play_unchecked(&mut self, p: Point, color: Color, captured: &mut Vec<Point>) {
        let them = code(color.opponent());
        self.place_and_merge(p.0, code(color));
        for q in self.nbrs[p.index()] {
            let qi = usize::from(q);
            if self.cells[qi] == them && self.libs[usize::from(self.head[qi])] == 0 {
                self.remove_chain_at(self.head[qi], captured);
            }
        }
    }

    /// Whether `p` holds a single-stone chain with exactly one liberty (the ko shape).
    pub(crate) fn is_lone_stone_in_atari(&self, p: Point) -> bool {
        if self.get(p).is_none() {
            return false;
        }
        let h = usize::from(self.head[p.index()]);
        self.len[h] == 1 && self.libs[h] == 1
    }

    fn sentinel(&self) -> u16 {
        // size.points() <= 625, fits in u16.
        self.size.points() as u16
    }

    #[inline]
    fn is_stone_of_chain(&self, q: u16, head: u16) -> bool {
        let c = self.cells[usize::from(q)];
        c != EMPTY && c != OFF && self.head[usize::from(q)] == head
    }

    fn for_each_in_chain(&self, start: u16, mut f: impl FnMut(u16)) {
        let mut q = start;
        loop {
            f(q);
            q = self.next[usize::from(q)];
            if q == start {
                break;
            }
        }
    }

    /// Puts a stone on `p`, updates neighbouring liberties and merges own chains.
    fn place_and_merge(&mut self, p: u16, me: u8) {
        let pi = usize::from(p);
        self.cells[pi] = me;
        let color = color_of(me).unwrap_or(Color::Black);
        self.hash ^= zobrist::stone_key(color, Point(p));
        self.stones[color.index()] += 1;
        self.head[pi] = p;
        self.next[pi] = p;
        self.len[pi] = 1;
        self.libs[pi] = 0;
        for q in self.nbrs[pi] {
            let qi = usize::from(q);
            match self.cells[qi] {
                EMPTY => self.libs[pi] += 1,
                OFF => {}
                _ => self.libs[usize::from(self.head[qi])] -= 1,
            }
        }
        for q in self.nbrs[pi] {
            let qi = usize::from(q);
            if self.cells[qi] == me && self.head[qi] != self.head[pi] {
                self.merge(self.head[pi], self.head[qi]);
            }
        }
    }

    /// Joins two chains, relabelling the smaller one.
    fn merge(&mut self, a: u16, b: u16) {
        let (big, small) = if self.len[usize::from(a)] >= self.len[usize::from(b)] {
            (a, b)
        } else {
            (b, a)
        };
        let mut q = small;
        loop {
            self.head[usize::from(q)] = big;
            q = self.next[usize::from(q)];
            if q == small {
                break;
            }
        }
        self.next.swap(usize::from(big), usize::from(small));
        self.len[usize::from(big)] += self.len[usize::from(small)];
        self.libs[usize::from(big)] += self.libs[usize::from(small)];
    }

    fn remove_chain_at(&mut self, head: u16, out: &mut Vec<Point>) {
        let start = out.len();
        let Some(color) = color_of(self.cells[usize::from(head)]) else {
            return;
        };
        self.for_each_in_chain(head, |q| out.push(Point(q)));
        for &Point(q) in &out[start..] {
            self.cells[usize::from(q)] = EMPTY;
            self.hash ^= zobrist::stone_key(color, Point(q));
        }
        // The count cannot underflow: these stones were counted when placed.
        self.stones[color.index()] -= (out.len() - start) as u32;
        for &Point(q) in &out[start..] {
            for r in self.nbrs[usize::from(q)] {
                let ri = usize::from(r);
                if self.cells[ri] != EMPTY && self.cells[ri] != OFF {
                    self.libs[usize::from(self.head[ri])] += 1;
                }
            }
        }
    }
}

fn neighbour_table(size: BoardSize) -> Vec<[u16; 4]> {
    let n = u16::from(size.lines());
    let off = n * n;
    (0..off)
        .map(|i| {
            let (r, c) = (i / n, i % n);
            [
                if r > 0 { i - n } else { off },
                if c > 0 { i - 1 } else { off },
                if c + 1 < n { i + 1 } else { off },
                if r + 1 < n { i + n } else { off },
            ]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build_board(rows: &[&str]) -> Board {
        let size = BoardSize::new(rows.len() as u8).unwrap();
        let mut b = Board::new(size);
        for (r, line) in rows.iter().enumerate() {
            for (c, ch) in line.chars().enumerate() {
                let p = Point::from_row_col(r as u8, c as u8, size).unwrap();
                match ch {
                    'X' => assert!(b.put_setup_stone(p, Color::Black)),
                    'O' => assert!(b.put_setup_stone(p, Color::White)),
                    _ => {}
                }
            }
        }
        b
    }

    #[test]
    fn corner_capture_and_liberties() {
        let mut b = build_board(&["O....", "X....", ".....", ".....", "....."]);
        let a = Point(0);
        assert_eq!(b.liberties(a), vec![Point(1)]);
        let probe = b.probe(Point(1), Color::Black);
        assert_eq!((probe.n_heads, probe.n_stones), (1, 1));
        let mut caps = Vec::new();
        b.play_unchecked(Point(1), Color::Black, &mut caps);
        assert_eq!(caps, vec![a]);
        assert_eq!(b.get(a), None);
        assert_eq!(b.hash(), b.hash_from_scratch());
        assert_eq!(b.liberties(Point(1)).len(), 3);
    }

    #[test]
    fn merged_chain_counts_shared_liberty_once() {
        let b = build_board(&["XX...", "X....", ".....", ".....", "....."]);
        assert_eq!(b.chain(Point(0)).len(), 3);
        assert_eq!(b.liberties(Point(0)), vec![Point(2), Point(6), Point(10)]);
        assert_eq!(b.chain_id(Point(5)), Some(Point(0)));
    }

    #[test]
    fn probe_sees_suicide_and_non_suicide() {
        let b = build_board(&[".X...", "X....", ".....", ".....", "....."]);
        assert!(b.probe(Point(0), Color::White).is_suicide());
        assert!(!b.probe(Point(0), Color::Black).is_suicide());
    }

    #[test]
    fn neighbours_of_a_corner_are_two() {
        let b = Board::new(BoardSize::NINE);
        assert_eq!(b.neighbours(Point(0)).count(), 2);
        assert_eq!(b.neighbours(Point(40)).count(), 4);
        assert_eq!(b.neighbours(Point(81)).count(), 0);
    }
}
