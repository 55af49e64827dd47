//! The reference board's sensors: 361 linear hall sensors behind two levels of 16-channel
//! analog multiplexers, read by the RP2040's ADC (docs/hardware.md, "Wiring").
//!
//! Point `p` is on first-level mux `p / 16`, channel `p % 16`; first-level muxes 0-15
//! feed bank mux A (ADC0), 16-22 bank mux B (ADC1). Mux 22's channels 9 and 10 carry the
//! two off-board zones.

use embassy_rp::adc::{Adc, Blocking, Channel};
use embassy_rp::gpio::{Level, Output};
use embassy_time::{Duration, block_for};
use goban_device::{Reading, SensorMatrix};
use goban_protocol::{BoardSize, PointState};

/// Microseconds for a multiplexer output to settle after its select lines change.
const SETTLE_US: u64 = 5;
/// First-level multiplexers: 23 x 16 = 368 channels for 361 points and 2 zones.
const MUXES: u16 = 23;
/// Mux 22, channels 9 and 10: Black's zone, White's zone.
const ZONES: [u16; 2] = [22 * 16 + 9, 22 * 16 + 10];

/// The pins of the sensor matrix.
pub struct HallMatrix<'d> {
    /// S0..S3 of every first-level mux (the channel).
    pub channel_select: [Output<'d>; 4],
    /// S0..S3 of both bank muxes (which first-level mux).
    pub bank_select: [Output<'d>; 4],
    /// The ADC.
    pub adc: Adc<'d, Blocking>,
    /// Bank mux A's output (ADC0), bank mux B's (ADC1).
    pub banks: [Channel<'d>; 2],
}

fn select(pins: &mut [Output<'_>; 4], value: u16) {
    for (bit, pin) in pins.iter_mut().enumerate() {
        pin.set_level(Level::from(value & (1 << bit) != 0));
    }
}

impl HallMatrix<'_> {
    /// Reads first-level mux `mux`, whose channel is already selected.
    fn read_mux(&mut self, mux: u16) -> Reading {
        select(&mut self.bank_select, mux % 16);
        block_for(Duration::from_micros(SETTLE_US));
        let bank = &mut self.banks[usize::from(mux / 16)];
        match self.adc.blocking_read(bank) {
            Ok(level) => Reading::Level(level),
            Err(_) => Reading::State(PointState::Unknown),
        }
    }

    fn read_input(&mut self, input: u16) -> Reading {
        select(&mut self.channel_select, input % 16);
        self.read_mux(input / 16)
    }
}

impl SensorMatrix for HallMatrix<'_> {
    fn size(&self) -> BoardSize {
        BoardSize::NINETEEN
    }

    /// Channel by channel, then mux by mux: the channel lines change 16 times a scan.
    fn scan(&mut self, visit: &mut dyn FnMut(u16, Reading)) {
        for channel in 0..16 {
            select(&mut self.channel_select, channel);
            for mux in 0..MUXES {
                let point = mux * 16 + channel;
                if point < 361 {
                    visit(point, self.read_mux(mux));
                }
            }
        }
    }

    fn zones(&mut self) -> Option<[Reading; 2]> {
        Some([self.read_input(ZONES[0]), self.read_input(ZONES[1])])
    }
}
