//! Raw sensor readings and the trait through which the core scans a board's sensors.

use goban_protocol::{BoardSize, PointState};

/// One raw reading of one point (or one off-board zone).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// An analog level, e.g. a 12-bit ADC sample of a linear hall sensor: a stone's
    /// magnet moves it up (north up: black) or down (south up: white) from the middle.
    Level(u16),
    /// A sensor that already tells the state (a digital sensor pair, the simulator).
    State(PointState),
}

/// How analog levels become point states, with hysteresis so a level near a threshold
/// does not flicker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Thresholds {
    /// The level with no magnet near (half the supply for a ratiometric sensor).
    pub mid: u16,
    /// Distance from `mid` at which a stone starts to read.
    pub enter: u16,
    /// Distance from `mid` below which a stone that reads stops reading (< `enter`).
    pub leave: u16,
    /// Levels at or below this, or at or above `full - rail`, are a broken sensor or
    /// wire: the point reads `?`.
    pub rail: u16,
    /// The largest level (4095 for a 12-bit ADC).
    pub full: u16,
}

impl Thresholds {
    /// A ratiometric linear hall sensor (DRV5055A1, SS49E class) on the RP2040's 12-bit
    /// ADC with neodymium stone magnets 3 mm under the surface; see docs/hardware.md.
    pub const HALL_12BIT: Self = Self {
        mid: 2048,
        enter: 400,
        leave: 250,
        rail: 40,
        full: 4095,
    };

    /// The state of `level`, given the state the point reads now.
    pub fn classify(&self, level: u16, now: PointState) -> PointState {
        if level <= self.rail || level >= self.full.saturating_sub(self.rail) {
            return PointState::Unknown;
        }
        let up = level.saturating_sub(self.mid);
        let down = self.mid.saturating_sub(level);
        let (black_at, white_at) = match now {
            PointState::Black => (self.leave, self.enter),
            PointState::White => (self.enter, self.leave),
            _ => (self.enter, self.enter),
        };
        if up >= black_at {
            PointState::Black
        } else if down >= white_at {
            PointState::White
        } else {
            PointState::Empty
        }
    }
}

/// A board's sensors, scanned by the core: the pins and multiplexers are the board's,
/// the logic is the core's.
pub trait SensorMatrix {
    /// The board's size.
    fn size(&self) -> BoardSize;

    /// Reads every point once, in the board's own order (its multiplexer wiring),
    /// calling `visit` with each point's index and reading. A point not visited keeps
    /// its state.
    fn scan(&mut self, visit: &mut dyn FnMut(u16, Reading));

    /// The off-board zones (docs/protocol.md 10.2), Black's then White's, if the board
    /// has them.
    fn zones(&mut self) -> Option<[Reading; 2]> {
        None
    }
}

/// A matrix whose readings are states given in a slice, in index order: the
/// simulator's sensors, and tests.
#[derive(Debug, Clone, Copy)]
pub struct StateMatrix<'a> {
    /// The board's size.
    pub size: BoardSize,
    /// One reading per point, in index order.
    pub points: &'a [PointState],
    /// The zones' readings, if the board has zones.
    pub zones: Option<[PointState; 2]>,
}

impl SensorMatrix for StateMatrix<'_> {
    fn size(&self) -> BoardSize {
        self.size
    }

    fn scan(&mut self, visit: &mut dyn FnMut(u16, Reading)) {
        for (point, &state) in (0..u16::MAX).zip(self.points) {
            visit(point, Reading::State(state));
        }
    }

    fn zones(&mut self) -> Option<[Reading; 2]> {
        self.zones.map(|z| z.map(Reading::State))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hysteresis_keeps_a_stone_until_its_level_falls_below_leave() {
        let t = Thresholds::HALL_12BIT;
        assert_eq!(t.classify(2048, PointState::Empty), PointState::Empty);
        assert_eq!(t.classify(2048 + 300, PointState::Empty), PointState::Empty);
        assert_eq!(t.classify(2048 + 300, PointState::Black), PointState::Black);
        assert_eq!(t.classify(2048 + 200, PointState::Black), PointState::Empty);
        assert_eq!(t.classify(2048 + 450, PointState::Empty), PointState::Black);
        assert_eq!(t.classify(2048 - 450, PointState::Empty), PointState::White);
        assert_eq!(t.classify(2048 - 300, PointState::White), PointState::White);
        assert_eq!(t.classify(2048 - 300, PointState::Black), PointState::Empty);
    }

    #[test]
    fn a_level_at_a_rail_is_a_broken_sensor() {
        let t = Thresholds::HALL_12BIT;
        for level in [0, 40, 4055, 4095] {
            assert_eq!(t.classify(level, PointState::Empty), PointState::Unknown);
        }
        assert_eq!(t.classify(41, PointState::Unknown), PointState::White);
    }
}
