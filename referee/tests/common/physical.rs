//! Turns a game record into human-like physical play on the table: hands hovering, slides, lifts, captures off one by one, flicker.

use goban_referee::{Button, Reading};
use goban_rules::{Color, Game, Move, Point};
use rand::rngs::SmallRng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};

use super::table::{Table, stone};

/// How noisy the hands are; every duration is in virtual ms.
#[derive(Clone, Copy, Debug)]
pub struct Noise {
    /// Probability that a hand hovering over the board flickers nearby sensors before a move.
    pub hover: f64,
    /// Probability that the stone slides in across a neighbouring point.
    pub slide: f64,
    /// Probability that the stone is lifted and put back on the same point.
    pub lift: f64,
    /// Probability of a single-reading flicker somewhere during the move.
    pub flicker: f64,
    /// Probability that a move follows the previous one within a fraction of a second (blitz bursts).
    pub fast: f64,
    /// Whether the players press the clock.
    pub presses: bool,
}

impl Default for Noise {
    fn default() -> Self {
        Self {
            hover: 0.5,
            slide: 0.2,
            lift: 0.05,
            flicker: 0.1,
            fast: 0.0,
            presses: true,
        }
    }
}

/// Plays records on a table with noise; `game` is the shadow of what was really played.
pub struct Hands {
    pub rng: SmallRng,
    pub noise: Noise,
    pub game: Game,
    /// Black's button (swapped when the players hold each other's colours).
    pub black_button: Button,
}

impl Hands {
    pub fn new(seed: u64, game: Game) -> Self {
        Self {
            rng: SmallRng::seed_from_u64(seed),
            noise: Noise::default(),
            game,
            black_button: Button::L,
        }
    }

    /// The button of `color`.
    pub fn button(&self, color: Color) -> Button {
        if color == Color::Black {
            self.black_button
        } else {
            self.black_button.other()
        }
    }

    /// One move, physically, ending with the clock press.
    pub fn play(&mut self, t: &mut Table, color: Color, mv: Move) {
        // Nobody takes stones off within a fraction of a second: capturing moves are never blitzed.
        let captures = mv
            .point()
            .is_some_and(|p| self.game.preview(color, p).is_ok_and(|c| !c.is_empty()));
        if !self.noise.presses
            && !captures
            && mv != Move::Pass
            && self.rng.random_bool(self.noise.fast)
        {
            self.blitz(t, color, mv);
            return;
        }
        self.think(t);
        self.place(t, color, mv);
        if !self.noise.presses && mv != Move::Pass {
            return;
        }
        let wait = self.rng.random_range(200..800);
        t.wait(wait);
        t.press(self.button(color));
    }

    /// A blitz move: the stone lands a fraction of a second after the previous one, no press
    /// (several such moves make one burst, igoki's case).
    fn blitz(&mut self, t: &mut Table, color: Color, mv: Move) {
        let Move::Play(p) = mv else { return };
        t.wait(self.rng.random_range(60..200));
        t.set(&[(p.index(), stone(color))]);
        self.game.play(color, mv).expect("record is legal");
    }

    /// A pause before the move.
    pub fn think(&mut self, t: &mut Table) {
        let think = self.rng.random_range(800..4_000);
        t.wait(think);
    }

    /// The stone and its captures, without the press.
    pub fn place(&mut self, t: &mut Table, color: Color, mv: Move) {
        let Move::Play(p) = mv else {
            self.game.play(color, mv).expect("record is legal");
            return;
        };
        let x = p.index();
        if self.rng.random_bool(self.noise.hover) {
            self.hover(t, x);
        }
        if self.rng.random_bool(self.noise.slide) {
            self.slide(t, x, color);
        }
        t.set(&[(x, stone(color))]);
        let mut captured = self.game.play(color, mv).expect("record is legal");
        if self.rng.random_bool(self.noise.lift) {
            self.lift(t, x, color);
        }
        captured.shuffle(&mut self.rng);
        for c in captured {
            let gap = self.rng.random_range(300..1_500);
            t.wait(gap);
            t.set(&[(c.index(), Reading::Empty)]);
        }
        if self.rng.random_bool(self.noise.flicker) {
            self.flicker(t);
        }
    }

    /// A hand over the board: sensors near `x` read a stone for a moment (shorter than the settle time).
    fn hover(&mut self, t: &mut Table, x: usize) {
        let n = self.rng.random_range(1..5);
        for _ in 0..n {
            let q = self.near(t, x);
            let before = t.board[q];
            let ghost = if self.rng.random_bool(0.5) {
                Reading::Black
            } else {
                Reading::White
            };
            let ghost = if before == Reading::Empty {
                ghost
            } else {
                Reading::Empty
            };
            t.set(&[(q, ghost)]);
            t.wait(self.rng.random_range(30..200));
            t.set(&[(q, before)]);
            t.wait(self.rng.random_range(20..150));
        }
    }

    /// The stone touches an empty neighbour first, then lands on `x`.
    fn slide(&mut self, t: &mut Table, x: usize, color: Color) {
        let size = usize::from(t.size.lines());
        let empty: Vec<usize> = neighbours(x, size)
            .into_iter()
            .filter(|&q| t.board[q] == Reading::Empty)
            .collect();
        let Some(&y) = empty.choose(&mut self.rng) else {
            return;
        };
        t.set(&[(y, stone(color))]);
        t.wait(self.rng.random_range(40..220));
        t.set(&[(y, Reading::Empty)]);
        t.wait(self.rng.random_range(0..60));
    }

    /// The stone is picked up again and put back on the same point (within the grace time).
    fn lift(&mut self, t: &mut Table, x: usize, color: Color) {
        t.wait(self.rng.random_range(300..900));
        t.set(&[(x, Reading::Empty)]);
        t.wait(self.rng.random_range(100..1_500));
        t.set(&[(x, stone(color))]);
    }

    /// One sensor misreads for one frame.
    fn flicker(&mut self, t: &mut Table) {
        let q = self.rng.random_range(0..t.board.len());
        let before = t.board[q];
        let other = if before == Reading::Empty {
            Reading::Black
        } else {
            Reading::Empty
        };
        t.set(&[(q, other)]);
        t.wait(self.rng.random_range(20..120));
        t.set(&[(q, before)]);
    }

    fn near(&mut self, t: &Table, x: usize) -> usize {
        let size = usize::from(t.size.lines());
        let (r, c) = ((x / size) as i64, (x % size) as i64);
        let dr = self.rng.random_range(-2..=2);
        let dc = self.rng.random_range(-2..=2);
        let r = (r + dr).clamp(0, size as i64 - 1) as usize;
        let c = (c + dc).clamp(0, size as i64 - 1) as usize;
        if r * size + c == x {
            (x + 1) % t.board.len()
        } else {
            r * size + c
        }
    }
}

/// Orthogonal neighbours of a wire index.
pub fn neighbours(x: usize, size: usize) -> Vec<usize> {
    let (r, c) = (x / size, x % size);
    let mut out = Vec::with_capacity(4);
    if r > 0 {
        out.push(x - size);
    }
    if r + 1 < size {
        out.push(x + size);
    }
    if c > 0 {
        out.push(x - 1);
    }
    if c + 1 < size {
        out.push(x + 1);
    }
    out
}

/// The shadow position as readings.
pub fn readings(game: &Game) -> Vec<Reading> {
    let n = game.setup().size.points();
    (0..n)
        .map(|i| match game.board().get(Point(i as u16)) {
            Some(c) => stone(c),
            None => Reading::Empty,
        })
        .collect()
}
