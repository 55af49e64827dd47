//! Which position the engine takes next, pure: at most K boards at once, featured boards first, and only a board's latest position (a newer one replaces the queued one).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::position::Position;

/// The analysis queue: one waiting position per board.
#[derive(Debug)]
pub struct Schedule {
    /// Boards that go first.
    featured: HashSet<Arc<str>>,
    /// Positions at most analysed at once.
    limit: usize,
    /// Per board: when its first waiting position arrived (for fairness) and its latest one.
    waiting: HashMap<Arc<str>, (u64, Position)>,
    /// Boards being analysed now.
    busy: HashSet<Arc<str>>,
    /// Arrival counter.
    arrivals: u64,
    /// Positions replaced by a newer one of their board before the engine took them.
    skipped: u64,
}

impl Schedule {
    /// A queue taking `limit` positions at once (at least one), `featured` boards first.
    pub fn new(limit: usize, featured: impl IntoIterator<Item = Arc<str>>) -> Self {
        Self {
            featured: featured.into_iter().collect(),
            limit: limit.max(1),
            waiting: HashMap::new(),
            busy: HashSet::new(),
            arrivals: 0,
            skipped: 0,
        }
    }

    /// A new position of a board: it replaces the board's waiting one, keeping its turn.
    pub fn handle_position(&mut self, position: Position) {
        self.arrivals += 1;
        let arrival = self.arrivals;
        match self.waiting.get_mut(&position.board) {
            Some(slot) => {
                slot.1 = position;
                self.skipped += 1;
            }
            None => {
                self.waiting
                    .insert(position.board.clone(), (arrival, position));
            }
        }
    }

    /// The next position to analyse, if the limit allows and one waits on a board not being
    /// analysed: featured boards first, then the board waiting longest.
    pub fn poll_next(&mut self) -> Option<Position> {
        if self.busy.len() >= self.limit {
            return None;
        }
        let board = self
            .waiting
            .iter()
            .filter(|(board, _)| !self.busy.contains(*board))
            .min_by_key(|(board, (arrival, _))| (!self.featured.contains(*board), *arrival))
            .map(|(board, _)| board.clone())?;
        let (_, position) = self.waiting.remove(&board)?;
        self.busy.insert(board);
        Some(position)
    }

    /// The engine is done with `board`'s position (answered, failed or timed out).
    pub fn handle_done(&mut self, board: &str) {
        self.busy.remove(board);
    }

    /// Positions waiting.
    pub fn waiting(&self) -> usize {
        self.waiting.len()
    }

    /// Positions skipped for a newer one so far.
    pub fn skipped(&self) -> u64 {
        self.skipped
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::tests_support::build_position;

    fn build_schedule(limit: usize, featured: &[&str]) -> Schedule {
        Schedule::new(limit, featured.iter().map(|b| Arc::from(*b)))
    }

    #[test]
    fn featured_boards_go_first_then_the_longest_waiting() {
        let mut schedule = build_schedule(3, &["t-9"]);
        schedule.handle_position(build_position("t-1", 2, 1));
        schedule.handle_position(build_position("t-2", 3, 1));
        schedule.handle_position(build_position("t-9", 4, 1));
        let order: Vec<String> = std::iter::from_fn(|| schedule.poll_next())
            .map(|p| p.board.to_string())
            .collect();
        assert_eq!(order, ["t-9", "t-1", "t-2"]);
    }

    #[test]
    fn a_newer_position_replaces_the_waiting_one() {
        let mut schedule = build_schedule(1, &[]);
        schedule.handle_position(build_position("t-1", 2, 1));
        schedule.handle_position(build_position("t-2", 3, 1));
        schedule.handle_position(build_position("t-1", 5, 2));
        assert_eq!(schedule.waiting(), 2);
        assert_eq!(schedule.skipped(), 1);
        let first = schedule.poll_next().unwrap();
        assert_eq!(
            (&*first.board, first.seq()),
            ("t-1", 5),
            "latest, keeping its turn"
        );
    }

    #[test]
    fn at_most_k_boards_and_one_position_per_board_at_once() {
        let mut schedule = build_schedule(1, &[]);
        schedule.handle_position(build_position("t-1", 2, 1));
        schedule.handle_position(build_position("t-2", 3, 1));
        assert!(schedule.poll_next().is_some());
        assert!(schedule.poll_next().is_none(), "limit reached");
        schedule.handle_done("t-1");
        schedule.handle_position(build_position("t-1", 6, 2));
        let mut wide = build_schedule(4, &[]);
        wide.handle_position(build_position("t-1", 2, 1));
        assert!(wide.poll_next().is_some());
        wide.handle_position(build_position("t-1", 3, 2));
        assert!(wide.poll_next().is_none(), "t-1 is being analysed");
        wide.handle_done("t-1");
        assert_eq!(wide.poll_next().map(|p| p.seq()), Some(3));
        assert_eq!(
            schedule.poll_next().map(|p| p.seq()),
            Some(3),
            "t-2 waited longer"
        );
    }
}
