//! The cloneable handle to a device link: queue host commands (SNAP?, LED, SHOW, BEEP) and read counters.

use crate::error::HardwareError;
use crate::stats::LinkStats;
use goban_protocol::{Frame, Point, Running};
use tokio::sync::{mpsc, watch};

/// Cheap, cloneable handle to one running device link.
///
/// Commands are queued without waiting: a full queue drops the command (counted) rather than
/// stall the caller, and the link writes from its own task so reading never waits on writing.
#[derive(Debug, Clone)]
pub struct LinkHandle {
    commands: mpsc::Sender<Frame>,
    stats: watch::Receiver<LinkStats>,
}

impl LinkHandle {
    pub(crate) fn new(commands: mpsc::Sender<Frame>, stats: watch::Receiver<LinkStats>) -> Self {
        Self { commands, stats }
    }

    /// Queues a host frame (`$HELLO?`, `$SNAP?`, `$LED`, `$SHOW`, `$BEEP`); device frames are refused.
    pub fn send(&self, frame: Frame) -> Result<(), HardwareError> {
        if !frame.kind().is_host() {
            return Err(HardwareError::NotHostFrame(frame.kind().wire_kind()));
        }
        self.commands.try_send(frame).map_err(|err| match err {
            mpsc::error::TrySendError::Full(_) => HardwareError::QueueFull,
            mpsc::error::TrySendError::Closed(_) => HardwareError::LinkStopped,
        })
    }

    /// Asks the board for a full snapshot (`$SNAP?`).
    pub fn request_snap(&self) -> Result<(), HardwareError> {
        self.send(Frame::SnapQuery)
    }

    /// Lights these points (`$LED,...`); an empty list clears them.
    pub fn led(&self, points: Vec<Point>) -> Result<(), HardwareError> {
        self.send(Frame::Led { points })
    }

    /// Sets the clock display (`$SHOW`): remaining ms and periods per side, and who runs.
    pub fn show(
        &self,
        black_ms: u32,
        white_ms: u32,
        periods: (u32, u32),
        running: Running,
    ) -> Result<(), HardwareError> {
        self.send(Frame::Show {
            black_ms,
            white_ms,
            black_periods: periods.0,
            white_periods: periods.1,
            running,
        })
    }

    /// Sounds `count` short beeps (`$BEEP`).
    pub fn beep(&self, count: u32) -> Result<(), HardwareError> {
        self.send(Frame::Beep { count })
    }

    /// The link's counters now.
    pub fn stats(&self) -> LinkStats {
        self.stats.borrow().clone()
    }

    /// A receiver that sees every update of the counters.
    pub fn watch_stats(&self) -> watch::Receiver<LinkStats> {
        self.stats.clone()
    }
}
