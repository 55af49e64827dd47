//! The hardware-free core of the reference board and clock firmware (docs/hardware.md).
//!
//! `no_std`, no allocation, no clock of its own: the firmware (or the simulator) passes
//! the device milliseconds in, reads its sensors through [`SensorMatrix`] and its
//! buttons as levels, and sends the bytes the core writes. Everything the host sees
//! comes from here, so the simulator that runs this core exercises the firmware's logic.
//!
//! - [`Board`]: scans, per-point filtering of raw readings ([`Thresholds`],
//!   [`PointFilter`]), `SNAP`/`DIFF` with their sequence numbers, `HELLO` and `CAPS`,
//!   `ZONE`, heartbeats, and the host's `$HELLO?`, `$SNAP?`, `$LED` and `$SYNC`.
//! - [`Clock`]: two debounced player buttons ([`Debouncer`]), `PRESS`/`KEY` with
//!   device time, heartbeats, and the host's `$HELLO?`, `$SHOW`, `$BEEP` and `$SYNC`.
//! - [`HostLink`]: host bytes in, frames to the device out, without allocation.
//! - [`budget`]: the scan budget (361 points at 50 Hz or more, a change reported
//!   within 20 ms) as numbers the host tests check.
#![no_std]
#![warn(missing_docs)]

mod board;
pub mod budget;
mod button;
mod clock;
mod emit;
mod filter;
mod host;
mod label;
mod sensor;

pub use board::{Board, BoardConfig, MAX_POINTS};
pub use button::Debouncer;
pub use clock::{Clock, ClockConfig, Display};
pub use emit::{Emit, WireOut};
pub use filter::PointFilter;
pub use host::HostLink;
pub use label::Label;
pub use sensor::{Reading, SensorMatrix, StateMatrix, Thresholds};

/// Milliseconds between two frames at most: the spec asks for one a second; half of
/// that leaves room for a busy USB bus.
pub const BEAT_EVERY_MS: u32 = 500;
