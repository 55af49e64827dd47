//! The simulated sensor board: physical stones, sensor readings (stuck sensors), SEQ counter, SNAP and DIFF frames.

use goban_protocol::{BoardSize, Change, Frame, MAX_FRAME_LEN, Point, PointState, Seq, Text};
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

/// A sensor board's state as the device firmware sees it.
#[derive(Debug, Clone)]
pub struct BoardModel {
    size: BoardSize,
    identity: BoardIdentity,
    /// What lies on each point (or `Unknown` while a hand hides it).
    physical: Vec<PointState>,
    /// Sensors stuck at a reading, whatever lies there.
    stuck: BTreeMap<u16, PointState>,
    seq: Seq,
    /// Points lit by the host's last `$LED`.
    leds: Vec<Point>,
    /// What lies in the off-board zones (v1.1 `ZONE`): Black's, then White's.
    zones: [PointState; 2],
}

impl BoardModel {
    /// An empty board.
    pub fn new(size: BoardSize, identity: BoardIdentity) -> Self {
        Self {
            size,
            identity,
            physical: vec![PointState::Empty; usize::from(size.points())],
            stuck: BTreeMap::new(),
            seq: Seq(0),
            leds: Vec::new(),
            zones: [PointState::Empty; 2],
        }
    }

    /// The v1.1 capabilities sent after HELLO: the simulated board echoes `$SYNC` and
    /// reads its off-board zones (docs/protocol.md 10).
    pub fn caps(&self) -> Frame {
        Frame::Caps {
            sync: true,
            zones: true,
        }
    }

    /// The `$ZONE` frame of the zones now.
    pub fn zone_frame(&self, ms: u32) -> Frame {
        let [black, white] = self.zones;
        Frame::Zone { ms, black, white }
    }

    /// Stones put in or taken out of the off-board zones (Black's, White's); the `$ZONE`
    /// frame to send when a reading changed.
    pub fn set_zones(&mut self, black: PointState, white: PointState, ms: u32) -> Option<Frame> {
        if self.zones == [black, white] {
            return None;
        }
        self.zones = [black, white];
        Some(self.zone_frame(ms))
    }

    /// Board size.
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// The HELLO frame.
    pub fn hello(&self) -> Frame {
        Frame::BoardHello {
            size: self.size,
            firmware: self.identity.firmware.clone(),
            serial: self.identity.serial.clone(),
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

    /// A SNAP of the readings now; uses one sequence number.
    pub fn snap(&mut self, ms: u32) -> Frame {
        let frame = Frame::Snap {
            seq: self.seq,
            ms,
            points: self.readings(),
        };
        self.seq = self.seq.next();
        frame
    }

    /// Power-up: the counter restarts at 0 and the LEDs go dark (stones stay where they are).
    pub fn reboot(&mut self) {
        self.seq = Seq(0);
        self.leds.clear();
    }

    /// Lights these points (`$LED`); an empty list clears them.
    pub fn set_leds(&mut self, points: &[Point]) {
        self.leds = points.to_vec();
    }

    /// The points lit now.
    pub fn leds(&self) -> &[Point] {
        &self.leds
    }

    /// Applies physical changes; returns the frame that reports the readings that changed
    /// (a DIFF, or a SNAP on a SNAP-only board or when the DIFF would exceed 1024 bytes).
    pub fn apply(&mut self, changes: &[(u16, PointState)], ms: u32) -> Option<Frame> {
        let before = self.readings();
        for &(point, state) in changes {
            if let Some(slot) = self.physical.get_mut(usize::from(point)) {
                *slot = state;
            }
        }
        self.report(&before, ms)
    }

    /// Sticks a sensor at `state`, or frees it with `None`; reports a visible change.
    pub fn set_stuck(&mut self, point: u16, state: Option<PointState>, ms: u32) -> Option<Frame> {
        let before = self.readings();
        match state {
            Some(state) => self.stuck.insert(point, state),
            None => self.stuck.remove(&point),
        };
        self.report(&before, ms)
    }

    fn report(&mut self, before: &[PointState], ms: u32) -> Option<Frame> {
        let after = self.readings();
        let changes: Vec<Change> = before
            .iter()
            .zip(&after)
            .enumerate()
            .filter(|(_, (old, new))| old != new)
            .filter_map(|(i, (_, new))| {
                Some(Change {
                    point: Point(u16::try_from(i).ok()?),
                    state: *new,
                })
            })
            .collect();
        if changes.is_empty() {
            return None;
        }
        if self.identity.diffs {
            let diff = Frame::Diff {
                seq: self.seq,
                ms,
                changes,
            };
            if diff.encoded_len() <= MAX_FRAME_LEN {
                self.seq = self.seq.next();
                return Some(diff);
            }
        }
        Some(self.snap(ms))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let mut board = BoardModel::new(BoardSize::NINETEEN, build_board(true).identity);
        let all: Vec<(u16, PointState)> = (0..361).map(|i| (i, PointState::White)).collect();
        assert!(matches!(board.apply(&all, 1), Some(Frame::Snap { .. })));
    }
}
