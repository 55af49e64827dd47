//! A position to analyse: one board's view as of one `seq`, read as stones and side to move for the engines.

use std::sync::Arc;

use goban_referee::Phase;
use goban_rules::{BoardSize, Color, Point};

use crate::message::BoardView;

/// One board's position as of one `seq`; shares the view, copies nothing.
#[derive(Clone, Debug)]
pub struct Position {
    /// Board id.
    pub board: Arc<str>,
    /// The board as of the analysed `seq`.
    pub view: Arc<BoardView>,
}

impl Position {
    /// The position of `view` if a game is under way on it (playing, paused or counting).
    pub fn of(board: Arc<str>, view: Arc<BoardView>) -> Option<Self> {
        let state = &view.state;
        let live = matches!(
            state.phase,
            Phase::Playing | Phase::Paused | Phase::Counting
        );
        (live && state.game.is_some() && BoardSize::new(state.size).is_ok())
            .then_some(Self { board, view })
    }

    /// The `seq` of the analysed state.
    pub fn seq(&self) -> u64 {
        self.view.seq()
    }

    /// What distinguishes this position from the board's previous one: a new state that
    /// only changed the clock or an alert is not analysed again.
    pub fn key(&self) -> (Option<&str>, u32, &str, Color) {
        let state = &self.view.state;
        (
            state.game.as_deref(),
            state.move_number,
            state.position.as_str(),
            state.to_move,
        )
    }

    /// Board size (checked in [`Position::of`]).
    pub fn size(&self) -> BoardSize {
        BoardSize::new(self.view.state.size).unwrap_or(BoardSize::NINETEEN)
    }

    /// Komi in points.
    pub fn komi(&self) -> f64 {
        self.view.state.komi
    }

    /// The side to move.
    pub fn to_move(&self) -> Color {
        self.view.state.to_move
    }

    /// Every stone on the board with its GTP vertex (`"D4"`), in index order. Bounded by the
    /// board's area, not by the game's length.
    pub fn stones(&self) -> impl Iterator<Item = (Color, String)> + '_ {
        let size = self.size();
        self.view
            .state
            .position
            .chars()
            .enumerate()
            .filter_map(move |(i, ch)| {
                let color = match ch {
                    'B' => Color::Black,
                    'W' => Color::White,
                    _ => return None,
                };
                // The index is below size*size <= 625.
                let point = Point(u16::try_from(i).ok()?);
                Some((color, point.display(size).to_string()))
            })
    }
}

/// `B` or `W`, as GTP and KataGo name a colour.
pub(crate) fn letter(color: Color) -> &'static str {
    match color {
        Color::Black => "B",
        Color::White => "W",
    }
}
