//! Empty regions of a counted position: who surrounds them, seki liberties, living blocks.

use crate::{Board, Color, Point};

/// One maximal connected set of empty points.
#[derive(Clone, Debug)]
pub(crate) struct Region {
    /// Its points.
    pub(crate) points: Vec<Point>,
    /// The only colour bordering it, or `None` when both (or neither) do.
    pub(crate) owner: Option<Color>,
    /// Ids (smallest point) of the chains bordering it.
    pub(crate) chains: Vec<Point>,
}

/// Flood-fills the empty points of `board` into regions.
pub(crate) fn empty_regions(board: &Board) -> Vec<Region> {
    let size = board.size();
    let mut seen = vec![false; size.points()];
    let mut regions = Vec::new();
    for start in size.all_points() {
        if seen[start.index()] || board.get(start).is_some() {
            continue;
        }
        regions.push(fill_region(board, start, &mut seen));
    }
    regions
}

fn fill_region(board: &Board, start: Point, seen: &mut [bool]) -> Region {
    let mut points = vec![start];
    let mut border = [false; 2];
    let mut chains = Vec::new();
    seen[start.index()] = true;
    let mut i = 0;
    while let Some(&p) = points.get(i) {
        i += 1;
        for q in board.neighbours(p) {
            match board.get(q) {
                Some(c) => {
                    border[c.index()] = true;
                    chains.extend(board.chain_id(q));
                }
                None if !seen[q.index()] => {
                    seen[q.index()] = true;
                    points.push(q);
                }
                None => {}
            }
        }
    }
    chains.sort_unstable();
    chains.dedup();
    let owner = match border {
        [true, false] => Some(Color::Black),
        [false, true] => Some(Color::White),
        _ => None,
    };
    Region {
        points,
        owner,
        chains,
    }
}

/// Whether a stone of `color` on the empty point `d` would stand in atari or worse
/// without capturing: the mark of a shared liberty neither side can fill (seki).
pub(crate) fn is_self_atari(board: &Board, d: Point, color: Color) -> bool {
    let mut libs: Vec<Point> = Vec::new();
    for q in board.neighbours(d) {
        match board.get(q) {
            None => libs.push(q),
            Some(c) if c == color => {
                libs.extend(board.liberties(q).into_iter().filter(|&l| l != d))
            }
            Some(_) => {
                if board.liberties(q) == [d] {
                    return false; // it would capture
                }
            }
        }
    }
    libs.sort_unstable();
    libs.dedup();
    libs.len() <= 1
}

/// Whether the empty point `d` is a seki liberty: it touches both colours and NEITHER side
/// can fill it without putting itself in atari (a filling stone that captures is safe).
/// When one side can fill it safely it is ordinary dame, however bad it is for the other.
pub(crate) fn is_seki_liberty(board: &Board, d: Point) -> bool {
    let touches_both = Color::BOTH
        .iter()
        .all(|&c| board.neighbours(d).any(|q| board.get(q) == Some(c)));
    touches_both && Color::BOTH.iter().all(|&c| is_self_atari(board, d, c))
}

/// Ids of the chains in seki: those bordering a shared (two-colour) region that holds a
/// seki liberty ([`is_seki_liberty`]). After two passes such a point is a liberty both
/// sides leave alone: ordinary dame can be filled by at least one side safely.
pub(crate) fn seki_chains(board: &Board, regions: &[Region]) -> Vec<Point> {
    let mut out = Vec::new();
    for region in regions.iter().filter(|r| r.owner.is_none()) {
        for &d in &region.points {
            if is_seki_liberty(board, d) {
                out.extend(region.chains.iter().copied());
                break;
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Living blocks (棋头): chains joined when they border the same one-colour region (an eye
/// or territory holds a block together). Indexed by point; roots are chain ids.
pub(crate) struct Blocks {
    parent: Vec<usize>,
}

impl Blocks {
    pub(crate) fn new(board: &Board, regions: &[Region]) -> Self {
        let mut parent: Vec<usize> = (0..board.size().points()).collect();
        for region in regions.iter().filter(|r| r.owner.is_some()) {
            if let Some((first, rest)) = region.chains.split_first() {
                for other in rest {
                    union(&mut parent, first.index(), other.index());
                }
            }
        }
        Self { parent }
    }

    /// The block of the chain whose id is `chain`.
    pub(crate) fn root(&mut self, chain: Point) -> usize {
        find(&mut self.parent, chain.index())
    }

    /// The number of blocks per colour.
    pub(crate) fn count(&mut self, board: &Board) -> [u32; 2] {
        let mut counts = [0u32; 2];
        for p in board.size().all_points() {
            let Some(c) = board.get(p) else { continue };
            if board.chain_id(p) == Some(p) && self.root(p) == p.index() {
                counts[c.index()] += 1;
            }
        }
        counts
    }
}

fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

fn union(parent: &mut [usize], a: usize, b: usize) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    // The smaller id stays the root, so a chain id that is a root identifies its block.
    if ra < rb {
        parent[rb] = ra;
    } else {
        parent[ra] = rb;
    }
}
