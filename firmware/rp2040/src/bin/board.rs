//! The reference sensor board: 361 hall sensors scanned 200 times a second, wire
//! protocol v1 over USB CDC-ACM (docs/hardware.md).
#![no_std]
#![no_main]

use embassy_executor::Spawner;
use embassy_rp::adc::{self, Adc, Channel};
use embassy_rp::gpio::{AnyPin, Level, Output, Pull};
use embassy_time::Duration;
use goban_device::budget::{CONFIRM_SCANS, SCAN_PERIOD_MS};
use goban_device::{Board, BoardConfig, Emit, Label, Thresholds, WireOut};
use goban_firmware_rp2040::hall::HallMatrix;
use goban_firmware_rp2040::out::TxBuf;
use goban_firmware_rp2040::serve::{Firmware, serve};
use goban_firmware_rp2040::{FIRMWARE, now_ms, usb};
use goban_protocol::{BoardSize, FrameRef};
use panic_halt as _;

fn config(serial: &str) -> BoardConfig {
    BoardConfig {
        size: BoardSize::NINETEEN,
        firmware: Label::new(FIRMWARE).unwrap_or(Label::new("goban-rp2040").unwrap()),
        serial: Label::new(serial).unwrap_or(Label::new("GB-0").unwrap()),
        diffs: true,
        sync: true,
        zones: true,
        thresholds: Thresholds::HALL_12BIT,
        confirm: CONFIRM_SCANS,
        snap_every_ms: 5_000,
    }
}

/// The board's firmware on the reference hardware.
struct Device {
    board: Board,
    matrix: HallMatrix<'static>,
    guide_led: Output<'static>,
}

impl Firmware for Device {
    fn tick(&mut self, now: u32, out: &mut impl Emit) {
        self.board.scan(&mut self.matrix, now, out);
        self.board.poll(now, out);
    }

    fn host(&mut self, frame: FrameRef<'_>, now: u32, out: &mut impl Emit) {
        self.board.handle_host(frame, now, out);
        self.guide_led
            .set_level(Level::from(self.board.lit().next().is_some()));
    }
}

#[embassy_executor::main]
async fn main(spawner: Spawner) {
    let p = embassy_rp::init(Default::default());
    let serial = usb::serial_number(p.FLASH);
    let (device, class) = usb::build(p.USB, "goban-bridge board", usb::PID_BOARD, serial);
    spawner.spawn(usb::run(device)).expect("one USB task");

    let out = |pin: embassy_rp::Peri<'static, AnyPin>| Output::new(pin, Level::Low);
    let matrix = HallMatrix {
        channel_select: [
            out(p.PIN_2.into()),
            out(p.PIN_3.into()),
            out(p.PIN_4.into()),
            out(p.PIN_5.into()),
        ],
        bank_select: [
            out(p.PIN_6.into()),
            out(p.PIN_7.into()),
            out(p.PIN_8.into()),
            out(p.PIN_9.into()),
        ],
        adc: Adc::new_blocking(p.ADC, adc::Config::default()),
        banks: [
            Channel::new_pin(p.PIN_26, Pull::None),
            Channel::new_pin(p.PIN_27, Pull::None),
        ],
    };
    let mut device = Device {
        board: Board::new(config(serial)),
        matrix,
        guide_led: Output::new(p.PIN_25, Level::Low),
    };
    let mut tx_buf = TxBuf::new();
    device
        .board
        .power_up(&mut device.matrix, now_ms(), &mut WireOut(&mut tx_buf));
    let every = Duration::from_millis(u64::from(SCAN_PERIOD_MS));
    serve(class, every, &mut tx_buf, &mut device).await
}
