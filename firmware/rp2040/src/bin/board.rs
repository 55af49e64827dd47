//! The reference sensor board: 361 hall sensors scanned 200 times a second, wire
//! protocol v1 over USB CDC-ACM (docs/hardware.md).
#![no_std]
#![no_main]

use embassy_executor::Spawner;
use embassy_futures::select::{Either, select};
use embassy_rp::adc::{self, Adc, Channel};
use embassy_rp::gpio::{AnyPin, Level, Output, Pull};
use embassy_time::{Duration, Ticker};
use goban_device::budget::{CONFIRM_SCANS, SCAN_PERIOD_MS};
use goban_device::{Board, BoardConfig, HostLink, Label, Thresholds, WireOut};
use goban_firmware_rp2040::hall::HallMatrix;
use goban_firmware_rp2040::out::TxBuf;
use goban_firmware_rp2040::{FIRMWARE, now_ms, usb};
use goban_protocol::BoardSize;
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

#[embassy_executor::main]
async fn main(spawner: Spawner) {
    let p = embassy_rp::init(Default::default());
    let serial = usb::serial_number(p.FLASH);
    let (device, class) = usb::build(p.USB, "goban-bridge board", usb::PID_BOARD, serial);
    spawner.spawn(usb::run(device)).expect("one USB task");

    let out = |pin: embassy_rp::Peri<'static, AnyPin>| Output::new(pin, Level::Low);
    let mut matrix = HallMatrix {
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
    let mut guide_led = Output::new(p.PIN_25, Level::Low);

    let mut board = Board::new(config(serial));
    let mut link = HostLink::new();
    let mut tx_buf = TxBuf::new();
    let (mut tx, mut rx) = class.split();
    board.power_up(&mut matrix, now_ms(), &mut WireOut(&mut tx_buf));
    let mut ticker = Ticker::every(Duration::from_millis(u64::from(SCAN_PERIOD_MS)));
    let mut packet = [0u8; 64];
    loop {
        rx.wait_connection().await;
        loop {
            match select(ticker.next(), rx.read_packet(&mut packet)).await {
                Either::First(()) => {
                    let now = now_ms();
                    let mut wire = WireOut(&mut tx_buf);
                    board.scan(&mut matrix, now, &mut wire);
                    board.poll(now, &mut wire);
                }
                Either::Second(Ok(n)) => {
                    let now = now_ms();
                    let mut wire = WireOut(&mut tx_buf);
                    link.feed(&packet[..n], |frame| {
                        board.handle_host(frame, now, &mut wire)
                    });
                }
                // Unplugged or reset by the host: wait for the next connection.
                Either::Second(Err(_)) => break,
            }
            guide_led.set_level(Level::from(board.lit().next().is_some()));
            tx_buf.flush(&mut tx).await;
        }
    }
}
