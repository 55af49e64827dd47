//! The scan budget of the reference board, as numbers the host tests check.
//!
//! Target (issue 45, docs/hardware.md "Scan budget"): all 361 points read at 50 Hz or
//! more, and a change reported within 20 ms. The firmware scans every
//! [`SCAN_PERIOD_MS`] and a reading must hold [`CONFIRM_SCANS`] scans. A change that
//! happens just after its point was read is read on the next scan, confirmed
//! `CONFIRM_SCANS - 1` scans later, and sent at the end of that scan, which takes less
//! than a period: at most `(CONFIRM_SCANS + 1) * SCAN_PERIOD_MS` in all.

/// Points of the largest board.
pub const POINTS: u32 = 361;
/// The slowest full scan allowed, in scans per second.
pub const MIN_SCAN_HZ: u32 = 50;
/// The longest time from a stone's arrival to the frame that reports it.
pub const REPORT_WITHIN_MS: u32 = 20;

/// The reference firmware's scan period: 200 scans a second.
pub const SCAN_PERIOD_MS: u32 = 5;
/// Scans a new reading must hold (see [`crate::PointFilter`]).
pub const CONFIRM_SCANS: u8 = 2;
/// Microseconds the reference wiring needs per point: mux select, 5 us of settling,
/// one 2 us ADC conversion (RP2040 ADC at 500 ksps), with margin.
pub const POINT_READ_US: u32 = 10;

/// Scans per second at a scan period.
pub const fn scan_hz(period_ms: u32) -> u32 {
    1000 / period_ms
}

/// The worst delay from a change to the frame reporting it, for a scan period and
/// a confirm count (a scan lasts less than a period).
pub const fn worst_report_ms(period_ms: u32, confirm: u8) -> u32 {
    let confirm = if confirm == 0 { 1 } else { confirm as u32 };
    (confirm + 1) * period_ms
}

/// Microseconds one scan of `points` points takes at [`POINT_READ_US`].
pub const fn scan_us(points: u32) -> u32 {
    points * POINT_READ_US
}

// The budget holds at compile time for the reference settings.
const _: () = assert!(scan_hz(SCAN_PERIOD_MS) >= MIN_SCAN_HZ);
const _: () = assert!(worst_report_ms(SCAN_PERIOD_MS, CONFIRM_SCANS) <= REPORT_WITHIN_MS);
const _: () = assert!(scan_us(POINTS) < SCAN_PERIOD_MS * 1000);
