//! Helpers shared by the device core's tests: configurations, a recording output, matrices.
#![allow(dead_code, unreachable_pub)]

use goban_device::{
    Board, BoardConfig, ClockConfig, Emit, Label, Reading, SensorMatrix, Thresholds, WireOut,
};
use goban_protocol::{BoardSize, FrameRef, PointState};

/// The frames a device wrote, one wire line each (without the LF).
#[derive(Debug, Default)]
pub struct Lines(pub Vec<u8>);

impl Lines {
    pub fn take(&mut self) -> Vec<String> {
        let text = String::from_utf8(std::mem::take(&mut self.0)).expect("ASCII");
        text.lines().map(str::to_owned).collect()
    }
}

impl Emit for Lines {
    fn frame(&mut self, frame: FrameRef<'_>) {
        WireOut(&mut self.0).frame(frame);
    }
}

pub fn label(s: &str) -> Label {
    Label::new(s).expect("valid label")
}

pub fn board_config(size: BoardSize, firmware: &str, serial: &str) -> BoardConfig {
    BoardConfig {
        size,
        firmware: label(firmware),
        serial: label(serial),
        diffs: true,
        sync: false,
        zones: false,
        thresholds: Thresholds::HALL_12BIT,
        confirm: 1,
        snap_every_ms: 5000,
    }
}

pub fn clock_config(firmware: &str, serial: &str) -> ClockConfig {
    ClockConfig {
        firmware: label(firmware),
        serial: label(serial),
        sync: false,
        settle_ms: 5,
    }
}

/// A board's sensors as states, scanned in index order or from the last point down
/// (a board whose multiplexer chain starts at the far corner), with optional zones.
#[derive(Debug, Clone)]
pub struct Stones {
    pub size: BoardSize,
    pub points: Vec<PointState>,
    pub zones: Option<[PointState; 2]>,
    pub reversed: bool,
    /// Readings handed out so far (a count of sensor reads, for the budget test).
    pub reads: u64,
}

impl Stones {
    pub fn new(size: BoardSize) -> Self {
        Self {
            size,
            points: vec![PointState::Empty; usize::from(size.points())],
            zones: None,
            reversed: false,
            reads: 0,
        }
    }

    pub fn set(&mut self, point: usize, state: PointState) -> &mut Self {
        self.points[point] = state;
        self
    }
}

impl SensorMatrix for Stones {
    fn size(&self) -> BoardSize {
        self.size
    }

    fn scan(&mut self, visit: &mut dyn FnMut(u16, Reading)) {
        let n = self.points.len();
        for k in 0..n {
            let i = if self.reversed { n - 1 - k } else { k };
            self.reads += 1;
            visit(i as u16, Reading::State(self.points[i]));
        }
    }

    fn zones(&mut self) -> Option<[Reading; 2]> {
        self.zones.map(|z| z.map(Reading::State))
    }
}

/// A board powered up at `now` on `stones`, its HELLO/SNAP taken.
pub fn powered(config: BoardConfig, stones: &mut Stones, now: u32, out: &mut Lines) -> Board {
    let mut board = Board::new(config);
    board.power_up(stones, now, out);
    board
}
