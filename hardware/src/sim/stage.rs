//! Staging the infractions of the rules digest physically: void moves, double moves, takebacks, displaced stones, knocks.

use crate::sim::scenario::{Builder, stone};
use crate::sim::script::Fault;
use goban_protocol::PointState;
use goban_rules::{Color, Illegal, IllegalReason, Move, Point};
use rand::Rng;
use rand::seq::{IndexedRandom, SliceRandom};

/// Which void move to stage before the recorded one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Void {
    /// `forbidden_point`, CN2002 19.
    Forbidden,
    /// `ko_violation`, CN2002 18.3, 20.1.
    Ko,
    /// `occupied_point`, CN2002 2.3.
    Occupied,
}

impl Void {
    fn label(self) -> &'static str {
        match self {
            Self::Forbidden => "forbidden_point (CN2002 19)",
            Self::Ko => "ko_violation (CN2002 18.3, 20.1)",
            Self::Occupied => "occupied_point (CN2002 2.3)",
        }
    }
}

impl Builder {
    /// Stages the pending faults that this move allows; the others wait for a later move.
    pub(crate) fn try_pending(&mut self, n: u32, color: Color) {
        for (at, fault) in std::mem::take(&mut self.pending) {
            let staged = match &fault {
                Fault::ForbiddenPoint => self.stage_void(n, color, Void::Forbidden),
                Fault::KoViolation => self.stage_void(n, color, Void::Ko),
                Fault::OccupiedPoint => self.stage_void(n, color, Void::Occupied),
                Fault::DisplacedStones { corrected_ms } => self.stage_displaced(n, *corrected_ms),
                Fault::BoardDisturbed { stones } => self.stage_knock(n, *stones),
                // A missed capture waits for a capturing move (see `play_stone`).
                _ => false,
            };
            if !staged {
                self.pending.push((at, fault));
            }
        }
    }

    /// Stages faults that follow the move just played.
    pub(crate) fn stage_after(&mut self, n: u32, color: Color, mv: Move, fault: Fault) {
        let staged = match (&fault, mv) {
            (Fault::DoubleMove { corrected_ms }, _) => self.stage_double(n, color, *corrected_ms),
            (Fault::Takeback { corrected_ms }, Move::Play(p)) => {
                self.stage_takeback(n, color, p.0, *corrected_ms)
            }
            _ => false,
        };
        if !staged {
            self.skipped.push(format!(
                "{fault:?} at move {n}: not possible after this move"
            ));
        }
    }

    /// Puts the readings back to the position of the game record (the arbiter's correction
    /// after 3-10 s).
    fn restore_position(&mut self, note: String) {
        self.restore_after(None, note);
    }

    /// Puts the readings back to the position of the game record: the arbiter's correction
    /// after 3-10 s, or the players' own after `corrected_ms` (unscaled).
    fn restore_after(&mut self, corrected_ms: Option<u64>, note: String) {
        let changes: Vec<(u16, PointState)> = self
            .game
            .board()
            .size()
            .all_points()
            .filter_map(|p| {
                let truth = self.game.board().get(p).map_or(PointState::Empty, stone);
                (self.plan.reading(p.0) != truth).then_some((p.0, truth))
            })
            .collect();
        if changes.is_empty() {
            return;
        }
        match corrected_ms {
            Some(ms) => self.plan.wait_literal(ms),
            None => self.plan.wait(3_000, 10_000),
        }
        self.plan.board(changes, note);
    }

    fn void_candidates(&self, color: Color, kind: Void) -> Vec<u16> {
        let board = self.game.board();
        board
            .size()
            .all_points()
            .filter(|&p| match kind {
                Void::Occupied => board.get(p) == Some(color.opponent()),
                Void::Forbidden => matches!(
                    self.game.preview(color, p),
                    Err(Illegal {
                        reason: IllegalReason::Suicide,
                        ..
                    })
                ),
                Void::Ko => matches!(
                    self.game.preview(color, p),
                    Err(Illegal {
                        reason: IllegalReason::Ko | IllegalReason::Superko { .. },
                        ..
                    })
                ),
            })
            .map(|p| p.0)
            .collect()
    }

    /// The mover tries an illegal point; the arbiter voids it (it counts as the offender's
    /// pass), and the opponent passes so the recorded move can follow.
    fn stage_void(&mut self, n: u32, color: Color, kind: Void) -> bool {
        let Some(&p) = self.void_candidates(color, kind).choose(&mut self.plan.rng) else {
            return false;
        };
        let note = format!("move {n}: {}", kind.label());
        self.plan.wait(2_000, 8_000);
        self.plan.hover(p, stone(color), &note);
        match kind {
            Void::Occupied => self.plan.board(
                vec![(p, stone(color))],
                format!("{note}: stone put on an occupied point"),
            ),
            _ => self.plan.place(p, stone(color), &note),
        }
        if kind == Void::Ko {
            let taken = self.ko_captures(color, p);
            self.plan.remove_one_by_one(&taken, &note);
        }
        self.plan.press(self.button(color), &note);
        self.restore_position(format!(
            "{note}: arbiter voids the move, it counts as a pass"
        ));
        self.plan.wait(1_000, 3_000);
        self.plan.press(
            self.button(color.opponent()),
            &format!("{note}: opponent passes, play resumes"),
        );
        true
    }

    /// The stones a retake on `p` would take: opponent chains whose only liberty is `p`.
    fn ko_captures(&self, color: Color, p: u16) -> Vec<u16> {
        let board = self.game.board();
        let mut out: Vec<u16> = board
            .neighbours(Point(p))
            .filter(|&q| board.get(q) == Some(color.opponent()) && board.liberties(q) == [Point(p)])
            .flat_map(|q| board.chain(q))
            .map(|q| q.0)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Right after its move, the same colour places another stone and presses (CN2002 17.2);
    /// or, with `corrected_ms`, lifts it again that much later without pressing.
    fn stage_double(&mut self, n: u32, color: Color, corrected_ms: Option<u64>) -> bool {
        let board = self.game.board();
        let candidates: Vec<u16> = board
            .size()
            .all_points()
            .filter(|&p| self.game.preview(color, p).is_ok_and(|c| c.is_empty()))
            .map(|p| p.0)
            .collect();
        let Some(&q) = candidates.choose(&mut self.plan.rng) else {
            return false;
        };
        let note = format!("move {n}: double_move (CN2002 17.2)");
        self.plan.wait(1_500, 5_000);
        self.plan.hover(q, stone(color), &note);
        self.plan.place(q, stone(color), &note);
        if corrected_ms.is_none() {
            self.plan.press(self.button(color), &note);
        }
        self.restore_after(corrected_ms, format!("{note}: the second stone is removed"));
        true
    }

    /// After the press the stone is lifted and put elsewhere; the arbiter puts it back (CN2002 17.3).
    fn stage_takeback(&mut self, n: u32, color: Color, p: u16, corrected_ms: Option<u64>) -> bool {
        let mut targets = self.plan.empty_neighbours(p);
        if targets.is_empty() {
            targets = (0..self.plan.readings.len())
                .filter_map(|i| u16::try_from(i).ok())
                .filter(|&q| self.plan.reading(q) == PointState::Empty)
                .collect();
        }
        let Some(&r) = targets.choose(&mut self.plan.rng) else {
            return false;
        };
        let note = format!("move {n}: takeback (CN2002 17.3)");
        self.plan.wait(500, 2_000);
        self.plan.board(
            vec![(p, PointState::Empty)],
            format!("{note}: stone lifted after the press"),
        );
        self.plan.place(r, stone(color), &note);
        self.restore_after(
            corrected_ms,
            format!("{note}: the stone goes back on its first point"),
        );
        true
    }

    /// A stone already on the board moves to a neighbouring point (CN2002 17.5).
    fn stage_displaced(&mut self, n: u32, corrected_ms: Option<u64>) -> bool {
        let mut stones: Vec<(u16, Color)> =
            self.game.board().stones().map(|(p, c)| (p.0, c)).collect();
        stones.shuffle(&mut self.plan.rng);
        let found = stones.into_iter().find_map(|(s, c)| {
            let to = *self.plan.empty_neighbours(s).first()?;
            Some((s, to, c))
        });
        let Some((s, to, c)) = found else {
            return false;
        };
        let note = format!("move {n}: displaced_stones (CN2002 17.5)");
        self.plan.wait(1_000, 4_000);
        self.plan.board(
            vec![(s, PointState::Empty), (to, stone(c))],
            format!("{note}: a stone is pushed aside"),
        );
        self.restore_after(corrected_ms, format!("{note}: it is put back"));
        true
    }

    /// The board is knocked: several stones vanish or shift at once (CN2002 17.6).
    fn stage_knock(&mut self, n: u32, stones: Option<usize>) -> bool {
        let mut all: Vec<(u16, Color)> =
            self.game.board().stones().map(|(p, c)| (p.0, c)).collect();
        if all.len() < 3 {
            return false;
        }
        let count = stones.unwrap_or(all.len() / 3).clamp(3, all.len());
        all.shuffle(&mut self.plan.rng);
        let mut changes = Vec::new();
        for &(s, c) in all.iter().take(count) {
            changes.push((s, PointState::Empty));
            let to = self
                .plan
                .empty_neighbours(s)
                .into_iter()
                .find(|t| !changes.iter().any(|(q, _)| q == t));
            if let (true, Some(t)) = (self.plan.rng.random_bool(0.5), to) {
                changes.push((t, stone(c)));
            }
        }
        let note = format!("move {n}: board_disturbed (CN2002 17.6)");
        self.plan.wait(1_000, 4_000);
        self.plan
            .board(changes, format!("{note}: the board is knocked"));
        self.restore_position(format!(
            "{note}: arbiter rebuilds the position from the record"
        ));
        true
    }
}
