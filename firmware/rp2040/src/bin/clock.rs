//! The reference game clock: two player buttons and a buzzer, wire protocol v1 over USB
//! CDC-ACM (docs/hardware.md).
#![no_std]
#![no_main]

use embassy_executor::Spawner;
use embassy_futures::select::{Either, select};
use embassy_rp::gpio::{Input, Level, Output, Pull};
use embassy_time::{Duration, Ticker};
use goban_device::{Clock, ClockConfig, HostLink, Label, WireOut};
use goban_firmware_rp2040::out::TxBuf;
use goban_firmware_rp2040::{FIRMWARE, now_ms, usb};
use panic_halt as _;

/// A beep and the silence after it, in milliseconds.
const BEEP_MS: u32 = 120;

/// Sounds the beeps the host asked for, one after the other.
#[derive(Default)]
struct Beeper {
    left: u32,
    next_ms: u32,
    on: bool,
}

impl Beeper {
    /// The buzzer's level now.
    fn level(&mut self, clock: &mut Clock, now: u32) -> bool {
        self.left = self.left.saturating_add(clock.take_beeps());
        if (self.on || self.left > 0) && now.wrapping_sub(self.next_ms) < u32::MAX / 2 {
            if self.on {
                self.on = false;
            } else {
                self.on = true;
                self.left -= 1;
            }
            self.next_ms = now.wrapping_add(BEEP_MS);
        }
        self.on
    }
}

#[embassy_executor::main]
async fn main(spawner: Spawner) {
    let p = embassy_rp::init(Default::default());
    let serial = usb::serial_number(p.FLASH);
    let (device, class) = usb::build(p.USB, "goban-bridge clock", usb::PID_CLOCK, serial);
    spawner.spawn(usb::run(device)).expect("one USB task");

    // Buttons close to ground; the internal pull-ups hold them high when released.
    let left = Input::new(p.PIN_14, Pull::Up);
    let right = Input::new(p.PIN_15, Pull::Up);
    let mut buzzer = Output::new(p.PIN_16, Level::Low);
    let mut held_led = Output::new(p.PIN_25, Level::Low);

    let mut clock = Clock::new(ClockConfig {
        firmware: Label::new(FIRMWARE).unwrap_or(Label::new("goban-rp2040").unwrap()),
        serial: Label::new(serial).unwrap_or(Label::new("GB-0").unwrap()),
        sync: true,
        settle_ms: 5,
    });
    let mut beeper = Beeper::default();
    let mut link = HostLink::new();
    let mut tx_buf = TxBuf::new();
    let (mut tx, mut rx) = class.split();
    clock.power_up(now_ms(), &mut WireOut(&mut tx_buf));
    let mut ticker = Ticker::every(Duration::from_millis(1));
    let mut packet = [0u8; 64];
    loop {
        rx.wait_connection().await;
        loop {
            match select(ticker.next(), rx.read_packet(&mut packet)).await {
                Either::First(()) => {
                    let now = now_ms();
                    let levels = [left.is_low(), right.is_low()];
                    let mut wire = WireOut(&mut tx_buf);
                    clock.sample_buttons(levels, now, &mut wire);
                    clock.poll(now, &mut wire);
                    held_led.set_level(Level::from(levels[0] || levels[1]));
                    buzzer.set_level(Level::from(beeper.level(&mut clock, now)));
                }
                Either::Second(Ok(n)) => {
                    let now = now_ms();
                    let mut wire = WireOut(&mut tx_buf);
                    link.feed(&packet[..n], |frame| {
                        clock.handle_host(frame, now, &mut wire)
                    });
                }
                Either::Second(Err(_)) => break,
            }
            tx_buf.flush(&mut tx).await;
        }
    }
}
