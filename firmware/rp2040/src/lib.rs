//! What the board and the clock firmware share on the RP2040: USB CDC-ACM with a serial
//! number, device time, and the buffer frames are written into before they go out.
#![no_std]

pub mod hall;
pub mod out;
pub mod serve;
pub mod usb;

/// The firmware version both binaries send in HELLO.
pub const FIRMWARE: &str = concat!("goban-rp2040-", env!("CARGO_PKG_VERSION"));

/// Device milliseconds since power-up, the `<ms>` of every frame (wraps after 49 days).
pub fn now_ms() -> u32 {
    // Truncation is the wrap the protocol defines.
    embassy_time::Instant::now().as_millis() as u32
}
