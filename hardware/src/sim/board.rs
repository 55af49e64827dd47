//! The simulated sensor board: physical stones and stuck sensors feed the firmware core's scan, which makes the frames.

use crate::sim::firmware::{collect, label, text};
use goban_device::{Board, BoardConfig, StateMatrix, Thresholds};
use goban_protocol::{BoardSize, Frame, Point, PointState, Text};
use std::collections::BTreeMap;

/// Identity and style of a simulated board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardIdentity {
    /// Firmware string sent in HELLO.
    pub firmware: Text,
    /// Serial number sent in HELLO.
    pub serial: Text,
    /// `true`: DIFF frames between snapshots; `false`: a SNAP-only board.
    pub diffs: bool,
}

/// A sensor board: the physical world (stones, hands, stuck sensors, zones) read by the
/// firmware core (`goban_device::Board`) as the board's sensors.
#[derive(Debug, Clone)]
pub struct BoardModel {
    size: BoardSize,
    /// What lies on each point (or `Unknown` while a hand hides it).
    physical: Vec<PointState>,
    /// Sensors stuck at a reading, whatever lies there.
    stuck: BTreeMap<u16, PointState>,
    /// What lies in the off-board zones (v1.1 `ZONE`): Black's, then White's.
    zones: [PointState; 2],
    firmware: Board,
}

impl BoardModel {
    /// An empty board.
    pub fn new(size: BoardSize, identity: BoardIdentity) -> Self {
        let config = BoardConfig {
            size,
            firmware: label(&identity.firmware),
            serial: label(&identity.serial),
            diffs: identity.diffs,
            sync: true,
            zones: true,
            thresholds: Thresholds::HALL_12BIT,
            // The simulated sensors have no electrical noise: every reading passes, and
            // the physical noise (hands, chatter) reaches the host raw, as on a real board.
            confirm: 1,
            // The simulator's port sends the periodic snapshots itself.
            snap_every_ms: u32::MAX,
        };
        Self {
            size,
            physical: vec![PointState::Empty; usize::from(size.points())],
            stuck: BTreeMap::new(),
            zones: [PointState::Empty; 2],
            firmware: Board::new(config),
        }
    }

    /// The v1.1 capabilities sent after HELLO: the simulated board echoes `$SYNC` and
    /// reads its off-board zones (docs/protocol.md 10).
    pub fn caps(&self) -> Frame {
        let c = self.firmware.config();
        Frame::Caps {
            sync: c.sync,
            zones: c.zones,
        }
    }

    /// The `$ZONE` frame of the zones now.
    pub fn zone_frame(&self, ms: u32) -> Frame {
        let [black, white] = self.firmware.zone_states();
        Frame::Zone { ms, black, white }
    }

    /// Stones put in or taken out of the off-board zones (Black's, White's); the `$ZONE`
    /// frame to send when a reading changed.
    pub fn set_zones(&mut self, black: PointState, white: PointState, ms: u32) -> Option<Frame> {
        self.zones = [black, white];
        self.scan(ms).into_iter().next()
    }

    /// Board size.
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// The HELLO frame.
    pub fn hello(&self) -> Frame {
        let c = self.firmware.config();
        Frame::BoardHello {
            size: self.size,
            firmware: text(c.firmware.as_str()),
            serial: text(c.serial.as_str()),
        }
    }

    /// What the sensors report now, point by point.
    pub fn readings(&self) -> Vec<PointState> {
        let mut out = self.physical.clone();
        for (&point, &state) in &self.stuck {
            if let Some(slot) = out.get_mut(usize::from(point)) {
                *slot = state;
            }
        }
        out
    }

    /// Power-up: the firmware reads the sensors and says HELLO, CAPS, SNAP and ZONE.
    pub fn power_up(&mut self, ms: u32) -> Vec<Frame> {
        let readings = self.readings();
        let mut matrix = self.matrix(&readings);
        let firmware = &mut self.firmware;
        collect(|out| firmware.power_up(&mut matrix, ms, out))
    }

    /// The firmware's answer to a host frame received at `ms` (`$HELLO?`, `$SNAP?`,
    /// `$LED`, `$SYNC`; the others are ignored).
    pub fn handle_host(&mut self, frame: &Frame, ms: u32) -> Vec<Frame> {
        let firmware = &mut self.firmware;
        collect(|out| firmware.handle_host(frame.as_view(), ms, out))
    }

    /// A SNAP of the readings now, then the ZONE a snapshot refreshes; uses one
    /// sequence number.
    pub fn snap_frames(&mut self, ms: u32) -> Vec<Frame> {
        let firmware = &mut self.firmware;
        collect(|out| firmware.snap(ms, out))
    }

    /// A SNAP of the readings now; uses one sequence number.
    pub fn snap(&mut self, ms: u32) -> Frame {
        let mut frames = self.snap_frames(ms);
        frames.swap_remove(0)
    }

    /// Power-up: the counter restarts at 0 and the LEDs go dark (stones stay where they are).
    pub fn reboot(&mut self) {
        self.firmware.restart();
    }

    /// Lights these points (`$LED`); an empty list clears them.
    pub fn set_leds(&mut self, points: &[Point]) {
        let led = Frame::Led {
            points: points.to_vec(),
        };
        self.handle_host(&led, 0);
    }

    /// The points lit now.
    pub fn leds(&self) -> Vec<Point> {
        self.firmware.lit().collect()
    }

    /// Applies physical changes; returns the frame that reports the readings that changed
    /// (a DIFF, or a SNAP on a SNAP-only board or when the DIFF would exceed 1024 bytes).
    pub fn apply(&mut self, changes: &[(u16, PointState)], ms: u32) -> Option<Frame> {
        for &(point, state) in changes {
            if let Some(slot) = self.physical.get_mut(usize::from(point)) {
                *slot = state;
            }
        }
        self.scan(ms).into_iter().next()
    }

    /// Sticks a sensor at `state`, or frees it with `None`; reports a visible change.
    pub fn set_stuck(&mut self, point: u16, state: Option<PointState>, ms: u32) -> Option<Frame> {
        match state {
            Some(state) => self.stuck.insert(point, state),
            None => self.stuck.remove(&point),
        };
        self.scan(ms).into_iter().next()
    }

    /// One scan of the firmware over the sensors as they read now.
    fn scan(&mut self, ms: u32) -> Vec<Frame> {
        let readings = self.readings();
        let mut matrix = self.matrix(&readings);
        let firmware = &mut self.firmware;
        collect(|out| {
            firmware.scan(&mut matrix, ms, out);
        })
    }

    fn matrix<'a>(&self, readings: &'a [PointState]) -> StateMatrix<'a> {
        StateMatrix {
            size: self.size,
            points: readings,
            zones: Some(self.zones),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use goban_protocol::{Change, Seq};

    fn build_board(diffs: bool) -> BoardModel {
        let identity = BoardIdentity {
            firmware: Text::new("sim-1").unwrap(),
            serial: Text::new("SIM-B1").unwrap(),
            diffs,
        };
        BoardModel::new(BoardSize::NINE, identity)
    }

    #[test]
    fn diff_reports_only_changed_readings_and_counts_seq() {
        let mut board = build_board(true);
        assert!(matches!(board.snap(0), Frame::Snap { seq: Seq(0), .. }));
        let frame = board
            .apply(&[(40, PointState::Black), (41, PointState::Empty)], 10)
            .unwrap();
        assert_eq!(
            frame,
            Frame::Diff {
                seq: Seq(1),
                ms: 10,
                changes: vec![Change {
                    point: Point(40),
                    state: PointState::Black
                }]
            }
        );
        assert!(board.apply(&[(40, PointState::Black)], 11).is_none());
    }

    #[test]
    fn zones_are_announced_and_reported_on_change_only() {
        let mut board = build_board(true);
        assert!(matches!(board.caps(), Frame::Caps { zones: true, .. }));
        let frame = board.set_zones(PointState::White, PointState::Empty, 9);
        assert_eq!(
            frame,
            Some(Frame::Zone {
                ms: 9,
                black: PointState::White,
                white: PointState::Empty
            })
        );
        assert_eq!(
            board.set_zones(PointState::White, PointState::Empty, 10),
            None
        );
        assert!(
            matches!(board.snap(11), Frame::Snap { seq: Seq(0), .. }),
            "no counter used"
        );
    }

    #[test]
    fn stuck_sensor_hides_the_stone_until_freed() {
        let mut board = build_board(true);
        board.set_stuck(3, Some(PointState::Empty), 0);
        assert!(board.apply(&[(3, PointState::White)], 5).is_none());
        let frame = board.set_stuck(3, None, 6).unwrap();
        assert!(
            matches!(frame, Frame::Diff { ref changes, .. } if changes[0].state == PointState::White)
        );
    }

    #[test]
    fn snap_only_board_and_huge_diffs_send_snapshots() {
        let mut board = build_board(false);
        assert!(matches!(
            board.apply(&[(0, PointState::Black)], 1),
            Some(Frame::Snap { .. })
        ));
        let identity = BoardIdentity {
            firmware: Text::new("sim-1").unwrap(),
            serial: Text::new("SIM-B1").unwrap(),
            diffs: true,
        };
        let mut board = BoardModel::new(BoardSize::NINETEEN, identity);
        let all: Vec<(u16, PointState)> = (0..361).map(|i| (i, PointState::White)).collect();
        assert!(matches!(board.apply(&all, 1), Some(Frame::Snap { .. })));
    }

    #[test]
    fn the_firmware_answers_hello_with_its_caps_a_snapshot_and_the_zones() {
        let mut board = build_board(true);
        assert!(board.apply(&[(40, PointState::Black)], 1).is_some());
        let frames = board.handle_host(&Frame::HelloQuery, 5);
        let kinds: Vec<_> = frames.iter().map(Frame::kind).collect();
        use goban_protocol::FrameKind as K;
        assert_eq!(kinds, [K::BoardHello, K::Caps, K::Snap, K::Zone]);
        assert!(
            matches!(&frames[2], Frame::Snap { seq: Seq(1), points, .. } if points[40] == PointState::Black)
        );
        assert_eq!(
            board.handle_host(&Frame::Sync { token: 7 }, 9),
            [Frame::SyncEcho { token: 7, ms: 9 }]
        );
        assert!(board.handle_host(&Frame::Beep { count: 2 }, 9).is_empty());
    }
}
