//! The simulated devices of one table (board and clock models with their power-up times), shared by the table's driver and its port tasks.

use crate::sim::board::BoardModel;
use crate::sim::clock::ClockModel;
use goban_protocol::{DeviceKind, Frame};
use tokio::time::Instant;

/// The devices of one table, shared by the driver and the port tasks.
#[derive(Debug)]
pub(crate) struct Devices {
    pub(crate) board: BoardModel,
    pub(crate) clock: ClockModel,
    board_boot: Instant,
    clock_boot: Instant,
}

impl Devices {
    /// A table's board and clock, both powered up now.
    pub(crate) fn new(board: BoardModel, clock: ClockModel) -> Self {
        Self {
            board,
            clock,
            board_boot: Instant::now(),
            clock_boot: Instant::now(),
        }
    }

    /// Device milliseconds since power-up (u32, wraps as the spec says).
    pub(crate) fn ms(&self, kind: DeviceKind) -> u32 {
        let boot = match kind {
            DeviceKind::Board => self.board_boot,
            DeviceKind::Clock => self.clock_boot,
        };
        // Truncation is the wrap of the spec's u32 millisecond counter.
        (boot.elapsed().as_millis() % (1u128 << 32)) as u32
    }

    pub(crate) fn reboot(&mut self, kind: DeviceKind) {
        match kind {
            DeviceKind::Board => {
                self.board.reboot();
                self.board_boot = Instant::now();
            }
            DeviceKind::Clock => {
                self.clock.reboot();
                self.clock_boot = Instant::now();
            }
        }
    }

    /// Power-up of a device's firmware: HELLO and CAPS, and for the board SNAP and ZONE.
    pub(crate) fn power_up(&mut self, kind: DeviceKind) -> Vec<Frame> {
        let ms = self.ms(kind);
        match kind {
            DeviceKind::Board => self.board.power_up(ms),
            DeviceKind::Clock => self.clock.power_up(ms),
        }
    }

    /// A SNAP, then (v1.1 `ZONE`) the zones' reading, which a snapshot refreshes too.
    pub(crate) fn snap(&mut self) -> Vec<Frame> {
        let ms = self.ms(DeviceKind::Board);
        self.board.snap_frames(ms)
    }

    /// Replies of the devices on a port to a host frame: each device's firmware sees
    /// every frame on its port and answers what it supports, with its own ms.
    pub(crate) fn handle_host(
        &mut self,
        frame: &Frame,
        kinds: &[DeviceKind],
    ) -> Vec<(DeviceKind, Frame)> {
        let mut out = Vec::new();
        for &kind in kinds {
            let ms = self.ms(kind);
            let replies = match kind {
                DeviceKind::Board => self.board.handle_host(frame, ms),
                DeviceKind::Clock => self.clock.answer(frame, ms),
            };
            out.extend(replies.into_iter().map(|f| (kind, f)));
        }
        out
    }

    /// The board's sensor readings now.
    pub(crate) fn readings(&self) -> Vec<goban_protocol::PointState> {
        self.board.readings()
    }
}
