//! The reference game clock: two player buttons and a buzzer, wire protocol v1 over USB
//! CDC-ACM (docs/hardware.md).
#![no_std]
#![no_main]

use embassy_executor::Spawner;
use embassy_rp::gpio::{Input, Level, Output, Pull};
use embassy_time::Duration;
use goban_device::{Clock, ClockConfig, Emit, Label, WireOut};
use goban_firmware_rp2040::out::TxBuf;
use goban_firmware_rp2040::serve::{Firmware, serve};
use goban_firmware_rp2040::{FIRMWARE, now_ms, usb};
use goban_protocol::FrameRef;
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

/// The clock's firmware on the reference hardware.
struct Device {
    clock: Clock,
    buttons: [Input<'static>; 2],
    buzzer: Output<'static>,
    held_led: Output<'static>,
    beeper: Beeper,
}

impl Firmware for Device {
    fn tick(&mut self, now: u32, out: &mut impl Emit) {
        let levels = [self.buttons[0].is_low(), self.buttons[1].is_low()];
        self.clock.sample_buttons(levels, now, out);
        self.clock.poll(now, out);
        self.held_led.set_level(Level::from(levels[0] || levels[1]));
        let beep = self.beeper.level(&mut self.clock, now);
        self.buzzer.set_level(Level::from(beep));
    }

    fn host(&mut self, frame: FrameRef<'_>, now: u32, out: &mut impl Emit) {
        self.clock.handle_host(frame, now, out);
    }
}

#[embassy_executor::main]
async fn main(spawner: Spawner) {
    let p = embassy_rp::init(Default::default());
    let serial = usb::serial_number(p.FLASH);
    let (device, class) = usb::build(p.USB, "goban-bridge clock", usb::PID_CLOCK, serial);
    spawner.spawn(usb::run(device)).expect("one USB task");

    let mut device = Device {
        clock: Clock::new(ClockConfig {
            firmware: Label::new(FIRMWARE).unwrap_or(Label::new("goban-rp2040").unwrap()),
            serial: Label::new(serial).unwrap_or(Label::new("GB-0").unwrap()),
            sync: true,
            settle_ms: 5,
        }),
        // Buttons close to ground; the internal pull-ups hold them high when released.
        buttons: [
            Input::new(p.PIN_14, Pull::Up),
            Input::new(p.PIN_15, Pull::Up),
        ],
        buzzer: Output::new(p.PIN_16, Level::Low),
        held_led: Output::new(p.PIN_25, Level::Low),
        beeper: Beeper::default(),
    };
    let mut tx_buf = TxBuf::new();
    device.clock.power_up(now_ms(), &mut WireOut(&mut tx_buf));
    serve(class, Duration::from_millis(1), &mut tx_buf, &mut device).await
}
