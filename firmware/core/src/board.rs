//! The board: filtered sensor states, SNAP/DIFF with their counter, HELLO/CAPS, ZONE, beats, host commands.

use crate::emit::{Emit, Outgoing};
use crate::filter::PointFilter;
use crate::label::Label;
use crate::sensor::{SensorMatrix, Thresholds};
use goban_protocol::{
    BoardSize, Change, Changes, FrameRef, MAX_FRAME_LEN, Point, PointState, Seq, States,
};

/// The points of the largest board.
pub const MAX_POINTS: usize = 361;

/// What a board is and how it reports.
#[derive(Debug, Clone, Copy)]
pub struct BoardConfig {
    /// Board size, sent in HELLO.
    pub size: BoardSize,
    /// Firmware version, sent in HELLO.
    pub firmware: Label,
    /// Serial number, sent in HELLO.
    pub serial: Label,
    /// `true`: DIFF frames between snapshots; `false`: a SNAP-only board.
    pub diffs: bool,
    /// Announce and answer `$SYNC` (docs/protocol.md 10.1).
    pub sync: bool,
    /// Announce and report the off-board zones (docs/protocol.md 10.2).
    pub zones: bool,
    /// Analog levels to point states.
    pub thresholds: Thresholds,
    /// Scans a new reading must hold before the point reads it (see [`PointFilter`]).
    pub confirm: u8,
    /// A SNAP at least this often (the spec's limit is 10 s).
    pub snap_every_ms: u32,
}

/// The board's firmware logic, without its hardware.
#[derive(Debug, Clone)]
pub struct Board {
    config: BoardConfig,
    filters: [PointFilter; MAX_POINTS],
    zones: [PointFilter; 2],
    tx: Outgoing,
    /// Points lit by the host's last `$LED`, one bit each.
    leds: [u32; MAX_POINTS.div_ceil(32)],
    /// The changes of the scan under way, in the order the sensors were read.
    changes: [Change; MAX_POINTS],
    last_snap_ms: u32,
}

impl Board {
    /// A board whose points all read empty until the first scan.
    pub fn new(config: BoardConfig) -> Self {
        let none = Change {
            point: Point(0),
            state: PointState::Empty,
        };
        Self {
            config,
            filters: [PointFilter::default(); MAX_POINTS],
            zones: [PointFilter::default(); 2],
            tx: Outgoing::new(),
            leds: [0; MAX_POINTS.div_ceil(32)],
            changes: [none; MAX_POINTS],
            last_snap_ms: 0,
        }
    }

    /// The configuration.
    pub const fn config(&self) -> &BoardConfig {
        &self.config
    }

    /// The number of points of this board.
    pub fn points(&self) -> usize {
        usize::from(self.config.size.points())
    }

    /// What the point reads now (empty for an index off the board).
    pub fn state(&self, point: u16) -> PointState {
        self.filters
            .get(usize::from(point))
            .map_or(PointState::Empty, PointFilter::state)
    }

    /// What the zones read now: Black's, White's.
    pub fn zone_states(&self) -> [PointState; 2] {
        [self.zones[0].state(), self.zones[1].state()]
    }

    /// The counter the next SNAP or DIFF carries.
    pub const fn seq(&self) -> Seq {
        self.tx.seq
    }

    /// Power-up: reads the sensors as they are (no filtering on the first scan), then
    /// says HELLO (with CAPS, SNAP and ZONE).
    pub fn power_up(&mut self, matrix: &mut impl SensorMatrix, now: u32, out: &mut impl Emit) {
        self.restart();
        self.read(matrix, 1);
        self.hello(now, out);
    }

    /// The counter restarts at 0 and the LEDs go dark; the readings stay.
    pub fn restart(&mut self) {
        self.tx.seq = Seq(0);
        self.leds = [0; MAX_POINTS.div_ceil(32)];
    }

    /// HELLO, then CAPS if the board has a capability, then SNAP (and ZONE): at power-up
    /// and in answer to `$HELLO?`.
    pub fn hello(&mut self, now: u32, out: &mut impl Emit) {
        let c = self.config;
        let hello = FrameRef::BoardHello {
            size: c.size,
            firmware: c.firmware.as_str(),
            serial: c.serial.as_str(),
        };
        let caps = (c.sync || c.zones).then_some(FrameRef::Caps {
            sync: c.sync,
            zones: c.zones,
        });
        self.tx.send(hello, now, out);
        if let Some(caps) = caps {
            self.tx.send(caps, now, out);
        }
        self.snap(now, out);
    }

    /// A SNAP of the readings now (uses one counter value), and ZONE if the board has zones.
    pub fn snap(&mut self, now: u32, out: &mut impl Emit) {
        let mut wire = [b'.'; MAX_POINTS];
        let n = self.points();
        for (slot, filter) in wire.iter_mut().zip(&self.filters[..n]) {
            *slot = filter.state().to_byte();
        }
        let snap = FrameRef::Snap {
            seq: self.tx.take_seq(),
            ms: now,
            points: States::Wire(&wire[..n]),
        };
        self.tx.send(snap, now, out);
        self.last_snap_ms = now;
        self.send_zones(now, out);
    }

    /// One scan: every point's reading through its filter; the points that changed go
    /// out as one DIFF (or a SNAP on a SNAP-only board, or when the DIFF would exceed
    /// 1024 bytes), then a ZONE if a zone changed. Returns the number of changed points.
    pub fn scan(&mut self, matrix: &mut impl SensorMatrix, now: u32, out: &mut impl Emit) -> usize {
        let (changed, zones_changed) = self.read(matrix, self.config.confirm);
        if changed > 0 {
            self.report(changed, now, out);
        }
        if zones_changed && self.config.zones {
            self.send_zones(now, out);
        }
        changed
    }

    /// Runs the filters over one scan; returns the changed points (kept in
    /// `self.changes`) and whether a zone changed.
    fn read(&mut self, matrix: &mut impl SensorMatrix, confirm: u8) -> (usize, bool) {
        let n = self.points();
        let (filters, changes) = (&mut self.filters, &mut self.changes);
        let thresholds = self.config.thresholds;
        let mut changed = 0;
        matrix.scan(&mut |point, reading| {
            let Some(filter) = filters[..n].get_mut(usize::from(point)) else {
                return;
            };
            if let Some(state) = filter.update(reading, &thresholds, confirm) {
                changes[changed] = Change {
                    point: Point(point),
                    state,
                };
                changed += 1;
            }
        });
        let zones_changed = matrix.zones().is_some_and(|readings| {
            let mut any = false;
            for (filter, reading) in self.zones.iter_mut().zip(readings) {
                any |= filter.update(reading, &thresholds, confirm).is_some();
            }
            any
        });
        (changed, zones_changed)
    }

    fn report(&mut self, changed: usize, now: u32, out: &mut impl Emit) {
        if self.config.diffs {
            let diff = FrameRef::Diff {
                seq: self.tx.seq,
                ms: now,
                changes: Changes::Typed(&self.changes[..changed]),
            };
            if diff.encoded_len() <= MAX_FRAME_LEN {
                self.tx.take_seq();
                return self.tx.send(diff, now, out);
            }
        }
        self.snap(now, out);
    }

    fn send_zones(&mut self, now: u32, out: &mut impl Emit) {
        if self.config.zones {
            let [black, white] = self.zone_states();
            self.tx.send(
                FrameRef::Zone {
                    ms: now,
                    black,
                    white,
                },
                now,
                out,
            );
        }
    }

    /// A BEAT if nothing was sent for [`crate::BEAT_EVERY_MS`], a SNAP if none was sent for
    /// `snap_every_ms`. Call it at least every 100 ms.
    pub fn poll(&mut self, now: u32, out: &mut impl Emit) {
        if now.wrapping_sub(self.last_snap_ms) >= self.config.snap_every_ms {
            self.snap(now, out);
        } else {
            self.tx.beat_if_quiet(now, out);
        }
    }

    /// A frame from the host, received at device time `received`: `$HELLO?`, `$SNAP?`,
    /// `$LED` and (with `sync`) `$SYNC`; the others are ignored as the spec says.
    pub fn handle_host(&mut self, frame: FrameRef<'_>, received: u32, out: &mut impl Emit) {
        match frame {
            FrameRef::HelloQuery => self.hello(received, out),
            FrameRef::SnapQuery => self.snap(received, out),
            FrameRef::Led { points } => {
                self.leds = [0; MAX_POINTS.div_ceil(32)];
                for point in points.iter() {
                    self.set_led(point);
                }
            }
            FrameRef::Sync { token } if self.config.sync => self.tx.sync_echo(token, received, out),
            _ => {}
        }
    }

    /// A FAULT: a fault of the device, for information (`code` and `text` are sent as
    /// they are if they are valid wire text, else replaced by `?`).
    pub fn fault(&mut self, code: &str, text: &str, now: u32, out: &mut impl Emit) {
        let frame = crate::emit::fault(code, text);
        self.tx.send(frame, now, out);
    }

    fn set_led(&mut self, point: Point) {
        let i = usize::from(point.0);
        if i < self.points() {
            self.leds[i / 32] |= 1 << (i % 32);
        }
    }

    /// Whether the host asked for this point's light.
    pub fn is_lit(&self, point: u16) -> bool {
        let i = usize::from(point);
        i < self.points() && self.leds[i / 32] & (1 << (i % 32)) != 0
    }

    /// The lit points, in index order.
    pub fn lit(&self) -> impl Iterator<Item = Point> + '_ {
        (0..self.config.size.points())
            .filter(|&p| self.is_lit(p))
            .map(Point)
    }
}
