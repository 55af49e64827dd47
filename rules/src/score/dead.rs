//! Dead stones given to the count (CN2002 art. 8, 21.4): points, chains or whole groups.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::{Board, Point, RulesError};

/// The stones both players (or the arbiter) agree are dead. Serialised as a list of points.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct DeadStones(BTreeSet<Point>);

impl DeadStones {
    /// No dead stones.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Dead stones from a list of points (each must hold a stone when counted).
    #[must_use]
    pub fn from_points(points: impl IntoIterator<Item = Point>) -> Self {
        Self(points.into_iter().collect())
    }

    /// Marks one point.
    pub fn mark_point(&mut self, p: Point) {
        self.0.insert(p);
    }

    /// Unmarks one point.
    pub fn unmark_point(&mut self, p: Point) {
        self.0.remove(&p);
    }

    /// Marks the chain through `p` and every stone of its colour reachable through empty
    /// points and its own colour's stones without crossing an opponent stone: a whole dead
    /// group in one click. Returns the points added.
    pub fn mark_group(&mut self, board: &Board, p: Point) -> Vec<Point> {
        let group = group_through(board, p);
        self.0.extend(group.iter().copied());
        group
    }

    /// Unmarks the group `mark_group` would mark.
    pub fn unmark_group(&mut self, board: &Board, p: Point) {
        for q in group_through(board, p) {
            self.0.remove(&q);
        }
    }

    /// Whether `p` is marked.
    #[must_use]
    pub fn contains(&self, p: Point) -> bool {
        self.0.contains(&p)
    }

    /// The marked points in index order.
    pub fn iter(&self) -> impl Iterator<Item = Point> + '_ {
        self.0.iter().copied()
    }

    /// How many points are marked.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether nothing is marked.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Checks that every marked point holds a stone of `board`.
    ///
    /// # Errors
    /// [`RulesError::BadDeadStones`] naming the first empty or off-board point.
    pub fn check(&self, board: &Board) -> Result<(), RulesError> {
        match self.iter().find(|&p| board.get(p).is_none()) {
            Some(p) => Err(RulesError::BadDeadStones(format!(
                "{} holds no stone",
                p.display(board.size())
            ))),
            None => Ok(()),
        }
    }
}

/// The stones of `p`'s colour connected to it through that colour and empty points.
fn group_through(board: &Board, p: Point) -> Vec<Point> {
    let Some(color) = board.get(p) else {
        return Vec::new();
    };
    let mut seen = vec![false; board.size().points()];
    let mut stack = vec![p];
    let mut out = Vec::new();
    seen[p.index()] = true;
    while let Some(q) = stack.pop() {
        if board.get(q) == Some(color) {
            out.push(q);
        }
        for r in board.neighbours(q) {
            if !seen[r.index()] && board.get(r) != Some(color.opponent()) {
                seen[r.index()] = true;
                stack.push(r);
            }
        }
    }
    out.sort_unstable();
    out
}
