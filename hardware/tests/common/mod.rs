//! Shared helpers of the integration tests: a host-side board picture, games, event collection.
#![allow(dead_code, unreachable_pub)]

use goban_hardware::sim::SimGame;
use goban_hardware::{LinkEvent, LinkStats};
use goban_protocol::{Frame, PointState};
use goban_rules::{BoardSize, Color, Move, Point};
use std::time::Duration;
use tokio::sync::mpsc;

/// What a host sees of the board: SNAPs replace it, DIFFs patch it.
#[derive(Debug, Default)]
pub struct HostBoard {
    pub points: Vec<PointState>,
    pub snaps: usize,
    pub diffs: usize,
}

impl HostBoard {
    pub fn handle(&mut self, frame: &Frame) {
        match frame {
            Frame::Snap { points, .. } => {
                self.points = points.clone();
                self.snaps += 1;
            }
            Frame::Diff { changes, .. } => {
                for c in changes {
                    self.points[usize::from(c.point.0)] = c.state;
                }
                self.diffs += 1;
            }
            _ => {}
        }
    }
}

/// A short 9x9 game where Black captures at move 7 (D5 surrounded), then both pass.
pub fn build_capture_game() -> SimGame {
    let size = BoardSize::NINE;
    let p = |s: &str| Move::Play(Point::parse_human(s, size).unwrap());
    let moves = vec![
        (Color::Black, p("D4")),
        (Color::White, p("D5")),
        (Color::Black, p("C5")),
        (Color::White, p("F5")),
        (Color::Black, p("E5")),
        (Color::White, p("F6")),
        (Color::Black, p("D6")),
        (Color::White, p("G4")),
        (Color::Black, Move::Pass),
        (Color::White, Move::Pass),
    ];
    SimGame::from_moves("capture-9x9", 9, moves)
}

/// The rules' final position as wire point states.
pub fn expected_position(game: &SimGame) -> Vec<PointState> {
    let board = game.final_board().unwrap();
    board
        .size()
        .all_points()
        .map(|p| match board.get(p) {
            Some(Color::Black) => PointState::Black,
            Some(Color::White) => PointState::White,
            None => PointState::Empty,
        })
        .collect()
}

/// Events received within `within` (virtual or real time), the last Stats aside.
pub async fn collect(rx: &mut mpsc::Receiver<LinkEvent>, within: Duration) -> Vec<LinkEvent> {
    let mut out = Vec::new();
    let deadline = tokio::time::Instant::now() + within;
    while let Ok(Some(event)) = tokio::time::timeout_at(deadline, rx.recv()).await {
        out.push(event);
    }
    out
}

pub fn frames(events: &[LinkEvent]) -> Vec<&Frame> {
    events
        .iter()
        .filter_map(|e| match e {
            LinkEvent::Frame { frame, .. } => Some(frame),
            _ => None,
        })
        .collect()
}

pub fn last_stats(events: &[LinkEvent]) -> Option<&LinkStats> {
    events.iter().rev().find_map(|e| match e {
        LinkEvent::Stats(s) => Some(s.as_ref()),
        _ => None,
    })
}

/// Paces tokio's paused clock for tests over real pseudo-terminals: 1 ms of virtual time per
/// ~200 µs of real time, instead of auto-advancing. Auto-advance jumps straight to the next
/// timer whenever the runtime looks idle, even while the kernel still holds pty bytes in
/// flight, which would fire the 3 s watchdog spuriously; this task is always runnable, so
/// auto-advance never kicks in, and every virtual millisecond gives the kernel real time to
/// deliver. Assertions stay on virtual time, so no test depends on machine speed.
pub fn spawn_pacer() -> tokio::task::JoinHandle<()> {
    tokio::spawn(async {
        loop {
            std::thread::sleep(Duration::from_micros(200));
            tokio::time::advance(Duration::from_millis(1)).await;
        }
    })
}

/// A 9x9 game with a ko: Black takes at C4 (move 9), so White may not retake B4 at move 10.
pub fn build_ko_game() -> SimGame {
    let size = BoardSize::NINE;
    let p = |s: &str| Move::Play(Point::parse_human(s, size).unwrap());
    let moves = vec![
        (Color::Black, p("B5")),
        (Color::White, p("C5")),
        (Color::Black, p("A4")),
        (Color::White, p("B4")),
        (Color::Black, p("B3")),
        (Color::White, p("D4")),
        (Color::Black, p("G7")),
        (Color::White, p("C3")),
        (Color::Black, p("C4")),
        (Color::White, p("G3")),
        (Color::Black, p("G5")),
        (Color::White, Move::Pass),
    ];
    SimGame::from_moves("ko-9x9", 9, moves)
}
