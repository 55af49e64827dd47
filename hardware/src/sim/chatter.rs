//! Staging a chattering sensor: one point's reading flips to a wrong value and back, a few times a second, for a while.

use crate::sim::scenario::Builder;
use crate::sim::script::{ChatterAt, Fault};
use crate::sim::timeline::Act;
use goban_protocol::PointState;
use goban_rules::{Move, Point};
use rand::Rng;
use rand::seq::IndexedRandom;
use std::time::Duration;

impl Builder {
    /// Schedules the flips of a [`Fault::Chatter`] from now on, as deferred acts; records a
    /// skip when no point fits (e.g. `next_to_move` before a pass).
    pub(crate) fn stage_chatter(&mut self, n: u32, mv: Move, fault: Fault) {
        let Fault::Chatter {
            on,
            hz,
            duration_ms,
        } = fault
        else {
            return;
        };
        let Some(point) = self.chatter_point(on, mv) else {
            self.skipped
                .push(format!("chatter {on:?} at move {n}: no such point"));
            return;
        };
        let wrong = match self.plan.reading(point) {
            PointState::Empty if self.plan.rng.random_bool(0.5) => PointState::Black,
            PointState::Empty => PointState::White,
            _ => PointState::Empty,
        };
        let half_ms = 500.0 / f64::from(hz.max(1));
        let flips = (duration_ms as f64 / half_ms).floor() as u64;
        let start = self.plan.elapsed();
        let mut at_ms = 0.0;
        for k in 0..flips {
            let state = (k % 2 == 0).then_some(wrong);
            let act = Act::Stuck { point, state };
            let at = start + Duration::from_secs_f64(at_ms / 1_000.0);
            self.deferred
                .push((at, act, format!("move {n}: sensor {point} chatters")));
            at_ms += half_ms * self.plan.rng.random_range(0.8..1.2);
        }
        // Always end on the true reading.
        let end = start + Duration::from_secs_f64(at_ms / 1_000.0);
        self.deferred.push((
            end,
            Act::Stuck { point, state: None },
            format!("sensor {point} steady again"),
        ));
    }

    fn chatter_point(&mut self, on: ChatterAt, mv: Move) -> Option<u16> {
        let board = self.game.board();
        let all: Vec<Point> = board.size().all_points().collect();
        let candidates: Vec<u16> = match (on, mv) {
            (ChatterAt::NextToMove, Move::Play(p)) => self.plan.empty_neighbours(p.0),
            (ChatterAt::NextToMove, Move::Pass) => Vec::new(),
            (ChatterAt::Stone, _) => all
                .iter()
                .filter(|&&q| board.get(q).is_some())
                .map(|q| q.0)
                .collect(),
            (ChatterAt::Empty, _) => {
                let target = match mv {
                    Move::Play(p) => Some(p),
                    Move::Pass => None,
                };
                all.iter()
                    .filter(|&&q| board.get(q).is_none())
                    .filter(|&&q| target.is_none_or(|t| far_apart(q, t, board.size().lines())))
                    .map(|q| q.0)
                    .collect()
            }
        };
        candidates.choose(&mut self.plan.rng).copied()
    }
}

/// More than two lines apart in both directions: an unused point, away from the move.
fn far_apart(a: Point, b: Point, lines: u8) -> bool {
    let n = i32::from(lines);
    let (ar, ac) = (i32::from(a.0) / n, i32::from(a.0) % n);
    let (br, bc) = (i32::from(b.0) / n, i32::from(b.0) % n);
    (ar - br).abs() > 2 || (ac - bc).abs() > 2
}
