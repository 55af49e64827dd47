//! Human-like players: thinking time, a hand hiding points on its way, stones sliding in, captures removed one by one, the press.

use crate::sim::timeline::{Act, Step};
use goban_protocol::{Button, PointState};
use rand::rngs::SmallRng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use rand_distr::{Distribution, LogNormal};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// How the simulated players behave; times are real-time values divided by `speed`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HumanProfile {
    /// Speed factor: 1.0 is real time, 60.0 plays a minute in a second. Default 1.0.
    pub speed: f64,
    /// Median thinking time per move in ms (log-normal). Default 8000.
    pub think_median_ms: f64,
    /// Spread of the log-normal thinking time (sigma of its log). Default 0.8.
    pub think_sigma: f64,
    /// Chance that a stone slides across a neighbouring point before settling. Default 0.3.
    pub slide_chance: f64,
    /// At most this many points near the target hide under the hand (read `?`). Default 3.
    pub hover_points: usize,
    /// Chance that one empty point near the target flickers: it reads the stone in the hand
    /// for a moment. Default 0.2.
    pub flicker_chance: f64,
    /// Shortest thinking time in real ms before the speed factor. Default 1000.
    pub min_think_ms: f64,
    /// The soonest, in real ms whatever the speed factor, that a hand comes to the board after
    /// the previous act. Default 600.
    pub min_reply_ms: u64,
    /// The soonest, in real ms whatever the speed factor, that a hand reaches the clock after
    /// its last act on the board. Default 150.
    pub min_press_ms: u64,
    /// Chance that a move is an instant reply: no thinking, the stone lands 200-500 ms (real,
    /// unscaled) after the opponent's press, however fast the referee's settle time. Default 0.
    pub instant_reply_chance: f64,
}

impl Default for HumanProfile {
    fn default() -> Self {
        Self {
            speed: 1.0,
            think_median_ms: 8_000.0,
            think_sigma: 0.8,
            slide_chance: 0.3,
            hover_points: 3,
            flicker_chance: 0.2,
            min_think_ms: THINK_CLAMP_MS.0,
            min_reply_ms: MIN_REPLY_MS,
            min_press_ms: MIN_PRESS_MS,
            instant_reply_chance: 0.0,
        }
    }
}

/// Builds the steps of one table, tracking what the sensors read.
pub(crate) struct Plan {
    pub(crate) steps: Vec<Step>,
    pub(crate) readings: Vec<PointState>,
    pub(crate) size: u8,
    pub(crate) rng: SmallRng,
    profile: HumanProfile,
    /// `None` when the profile's numbers make no distribution: then the median is used.
    think: Option<LogNormal<f64>>,
    median_ms: f64,
    pending: Duration,
}

/// Default fastest and slowest thinking time in real ms: nobody plays in under a second
/// (blitz profiles lower it), and an unscripted think longer than 3 minutes is rare enough to clip.
const THINK_CLAMP_MS: (f64, f64) = (1_000.0, 180_000.0);

/// The default soonest, in real ms and whatever the speed factor, that a hand reaches the
/// clock after its last act on the board.
pub(crate) const MIN_PRESS_MS: u64 = 150;

/// The default soonest, in real ms and whatever the speed factor, that a player's hand comes
/// to the board after the previous act: the opponent must see the stone land before answering. It
/// keeps two moves more than a referee's settle time (300 ms) apart at demo speeds, as at a
/// real table (faster, they would read as one burst of stones).
pub(crate) const MIN_REPLY_MS: u64 = 600;

impl Plan {
    pub(crate) fn new(size: u8, profile: HumanProfile, seed: u64) -> Self {
        let median = profile.think_median_ms.max(1.0);
        let think = LogNormal::new(median.ln(), profile.think_sigma.max(1e-6)).ok();
        Self {
            steps: Vec::new(),
            readings: vec![PointState::Empty; usize::from(size) * usize::from(size)],
            size,
            rng: SmallRng::seed_from_u64(seed),
            profile,
            think,
            median_ms: median,
            pending: Duration::ZERO,
        }
    }

    /// Real milliseconds scaled by the speed factor.
    fn scaled(&self, ms: f64) -> Duration {
        let speed = if self.profile.speed > 0.0 {
            self.profile.speed
        } else {
            1.0
        };
        Duration::from_secs_f64((ms / speed).max(0.0) / 1_000.0)
    }

    /// Waits a random time in `lo..hi` real ms (scaled).
    pub(crate) fn wait(&mut self, lo: u64, hi: u64) {
        let ms = self.rng.random_range(lo..hi.max(lo + 1));
        self.pending += self.scaled(ms as f64);
    }

    /// Waits exactly `ms`, unscaled (scripted absences and long thinks are meant literally).
    pub(crate) fn wait_literal(&mut self, ms: u64) {
        self.pending += Duration::from_millis(ms);
    }

    /// Real milliseconds scaled by the speed factor.
    pub(crate) fn scaled_ms(&self, ms: u64) -> Duration {
        self.scaled(ms as f64)
    }

    /// Time from the start to the next step (pending wait included).
    pub(crate) fn elapsed(&self) -> Duration {
        self.steps.iter().map(|s| s.delay).sum::<Duration>() + self.pending
    }

    /// The steps with acts at absolute times merged in, delays recomputed.
    pub(crate) fn merge_deferred(&mut self, deferred: Vec<(Duration, Act, String)>) -> Vec<Step> {
        let mut at = Duration::ZERO;
        let mut timed: Vec<(Duration, Act, String)> = std::mem::take(&mut self.steps)
            .into_iter()
            .map(|s| {
                at += s.delay;
                (at, s.act, s.note)
            })
            .collect();
        timed.extend(deferred);
        // Stable: acts at the same time keep their order, deferred ones after.
        timed.sort_by_key(|(at, _, _)| *at);
        let mut last = Duration::ZERO;
        timed
            .into_iter()
            .map(|(at, act, note)| {
                let delay = at.saturating_sub(last);
                last = at;
                Step { delay, act, note }
            })
            .collect()
    }

    /// Thinking time before a move; the opening is played faster.
    pub(crate) fn think(&mut self, move_number: u32) {
        let mut ms = match &self.think {
            Some(dist) => dist.sample(&mut self.rng),
            None => self.median_ms,
        };
        if move_number <= 20 {
            ms *= 0.4;
        }
        ms = ms.clamp(
            self.profile.min_think_ms.min(THINK_CLAMP_MS.1),
            THINK_CLAMP_MS.1,
        );
        self.pending += self.scaled(ms);
    }

    /// However fast the speed factor makes the thinking, the hand needs the profile's
    /// `min_reply_ms` to reach the board.
    pub(crate) fn reach(&mut self) {
        self.pending = self
            .pending
            .max(Duration::from_millis(self.profile.min_reply_ms));
    }

    /// Whether the next move is an instant reply (draws from the RNG only when the profile
    /// has instant replies, so other profiles keep their timelines).
    pub(crate) fn roll_instant(&mut self) -> bool {
        let chance = self.profile.instant_reply_chance.clamp(0.0, 1.0);
        chance > 0.0 && self.rng.random_bool(chance)
    }

    /// An instant reply: the hand was waiting over the board, the stone comes 200-500 ms
    /// (real, unscaled) after the opponent's press.
    pub(crate) fn instant(&mut self) {
        let ms = self.rng.random_range(200..500);
        self.wait_literal(ms);
    }

    pub(crate) fn emit(&mut self, act: Act, note: impl Into<String>) {
        if let Act::Board { changes } = &act {
            for &(point, state) in changes {
                if let Some(slot) = self.readings.get_mut(usize::from(point)) {
                    *slot = state;
                }
            }
        }
        let delay = std::mem::take(&mut self.pending);
        self.steps.push(Step {
            delay,
            act,
            note: note.into(),
        });
    }

    pub(crate) fn board(&mut self, changes: Vec<(u16, PointState)>, note: impl Into<String>) {
        self.emit(Act::Board { changes }, note);
    }

    pub(crate) fn reading(&self, point: u16) -> PointState {
        self.readings
            .get(usize::from(point))
            .copied()
            .unwrap_or(PointState::Unknown)
    }

    /// Points within two lines of `target` (not `target` itself).
    fn near(&self, target: u16) -> Vec<u16> {
        let n = i32::from(self.size);
        let (row, col) = (i32::from(target) / n, i32::from(target) % n);
        let mut out = Vec::new();
        for dr in -2..=2 {
            for dc in -2..=2 {
                let (r, c) = (row + dr, col + dc);
                if (dr, dc) != (0, 0) && (0..n).contains(&r) && (0..n).contains(&c) {
                    out.extend(u16::try_from(r * n + c).ok());
                }
            }
        }
        out
    }

    /// The empty orthogonal neighbours of `target`.
    pub(crate) fn empty_neighbours(&self, target: u16) -> Vec<u16> {
        let n = i32::from(self.size);
        let (row, col) = (i32::from(target) / n, i32::from(target) % n);
        [(-1, 0), (1, 0), (0, -1), (0, 1)]
            .into_iter()
            .filter_map(|(dr, dc)| {
                let (r, c) = (row + dr, col + dc);
                ((0..n).contains(&r) && (0..n).contains(&c))
                    .then(|| u16::try_from(r * n + c).ok())?
            })
            .filter(|&p| self.reading(p) == PointState::Empty)
            .collect()
    }

    /// The hand approaches `target` holding `stone`: a few nearby points read `?` (hidden),
    /// perhaps one empty point flickers with the stone's colour, then all recover.
    pub(crate) fn hover(&mut self, target: u16, stone: PointState, note: &str) {
        let count = self.rng.random_range(0..=self.profile.hover_points);
        let mut near = self.near(target);
        near.shuffle(&mut self.rng);
        let flicker = self
            .rng
            .random_bool(self.profile.flicker_chance.clamp(0.0, 1.0));
        let flicker = near
            .iter()
            .copied()
            .find(|&p| flicker && self.reading(p) == PointState::Empty);
        near.retain(|&p| Some(p) != flicker);
        near.truncate(count);
        let mut hidden: Vec<(u16, PointState)> =
            near.iter().map(|&p| (p, PointState::Unknown)).collect();
        hidden.extend(flicker.map(|p| (p, stone)));
        if hidden.is_empty() {
            return;
        }
        let restore: Vec<(u16, PointState)> =
            hidden.iter().map(|&(p, _)| (p, self.reading(p))).collect();
        self.wait(50, 250);
        self.board(hidden, format!("{note}: hand over the board"));
        self.wait(60, 300);
        self.board(restore, format!("{note}: hand moves on"));
    }

    /// The stone lands on `target`, perhaps sliding across an empty neighbour first.
    pub(crate) fn place(&mut self, target: u16, state: PointState, note: &str) {
        let neighbours = self.empty_neighbours(target);
        let slide = self
            .rng
            .random_bool(self.profile.slide_chance.clamp(0.0, 1.0));
        if let (true, Some(&via)) = (slide, neighbours.choose(&mut self.rng)) {
            self.wait(80, 300);
            self.board(vec![(via, state)], format!("{note}: stone slides in"));
            self.wait(40, 160);
            self.board(
                vec![(via, PointState::Empty), (target, state)],
                format!("{note}: stone settles"),
            );
        } else {
            self.wait(80, 300);
            self.board(vec![(target, state)], format!("{note}: stone placed"));
        }
    }

    /// Captured stones come off one at a time, in the order the hand finds them.
    pub(crate) fn remove_one_by_one(&mut self, points: &[u16], note: &str) {
        let mut order = points.to_vec();
        order.shuffle(&mut self.rng);
        for p in order {
            self.wait(250, 900);
            self.board(
                vec![(p, PointState::Empty)],
                format!("{note}: captured stone removed"),
            );
        }
    }

    /// The same hand presses the clock (CN2002 12.4.2); the hand needs at least
    /// [`MIN_PRESS_MS`] to travel from the stone to the clock, whatever the speed factor.
    pub(crate) fn press(&mut self, button: Button, note: &str) {
        self.wait(150, 600);
        self.pending = self
            .pending
            .max(Duration::from_millis(self.profile.min_press_ms));
        self.emit(Act::Press { button }, format!("{note}: clock pressed"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hover_and_slide_leave_the_readings_as_the_stone_left_them() {
        for seed in 0..50 {
            let mut plan = Plan::new(
                9,
                HumanProfile {
                    slide_chance: 0.5,
                    flicker_chance: 0.5,
                    ..HumanProfile::default()
                },
                seed,
            );
            plan.board(vec![(39, PointState::White)], "setup");
            plan.hover(40, PointState::Black, "m1");
            if let Some(Act::Board { changes }) = plan.steps.get(1).map(|s| &s.act) {
                // Hidden points read `?`, a flicker reads the stone in the hand, nothing else.
                assert!(
                    changes
                        .iter()
                        .all(|c| matches!(c.1, PointState::Unknown | PointState::Black))
                );
            }
            plan.place(40, PointState::Black, "m1");
            let mut expected = vec![PointState::Empty; 81];
            expected[39] = PointState::White;
            expected[40] = PointState::Black;
            assert_eq!(plan.readings, expected, "seed {seed}");
        }
    }

    #[test]
    fn thinking_is_scaled_by_speed_and_seeded() {
        let think = |speed: f64, seed| {
            let mut plan = Plan::new(
                9,
                HumanProfile {
                    speed,
                    ..HumanProfile::default()
                },
                seed,
            );
            plan.think(50);
            plan.pending
        };
        assert_eq!(think(1.0, 7), think(1.0, 7));
        let real = think(1.0, 7);
        let fast = think(100.0, 7);
        assert!(real >= Duration::from_secs(1) && real <= Duration::from_secs(180));
        let ratio = real.as_secs_f64() / fast.as_secs_f64();
        assert!((ratio - 100.0).abs() < 0.01, "ratio {ratio}");
    }

    #[test]
    fn the_hand_never_reaches_the_board_faster_than_a_human() {
        let mut plan = Plan::new(
            9,
            HumanProfile {
                speed: 100.0,
                ..HumanProfile::default()
            },
            1,
        );
        plan.think(5);
        assert!(plan.pending < Duration::from_millis(MIN_REPLY_MS));
        plan.reach();
        assert_eq!(plan.pending, Duration::from_millis(MIN_REPLY_MS));
        let mut slow = Plan::new(9, HumanProfile::default(), 1);
        slow.think(50);
        let thought = slow.pending;
        slow.reach();
        assert_eq!(slow.pending, thought, "a human think is left as it is");
    }

    #[test]
    fn a_fast_profile_still_presses_at_human_speed() {
        for seed in 0..20 {
            let mut plan = Plan::new(
                9,
                HumanProfile {
                    speed: 60.0,
                    ..HumanProfile::default()
                },
                seed,
            );
            plan.place(40, PointState::Black, "m1");
            plan.press(Button::L, "m1");
            let press = plan.steps.last().map(|s| s.delay);
            assert_eq!(
                press,
                Some(Duration::from_millis(MIN_PRESS_MS)),
                "seed {seed}"
            );
        }
    }

    #[test]
    fn captures_come_off_one_by_one() {
        let mut plan = Plan::new(9, HumanProfile::default(), 3);
        plan.board(
            vec![(0, PointState::White), (1, PointState::White)],
            "setup",
        );
        plan.remove_one_by_one(&[0, 1], "m5");
        let removals: Vec<_> = plan.steps[1..].iter().map(|s| s.act.clone()).collect();
        assert_eq!(removals.len(), 2);
        assert!(plan.steps[1..].iter().all(|s| s.delay > Duration::ZERO));
        assert!(plan.readings.iter().all(|&s| s == PointState::Empty));
    }
}
