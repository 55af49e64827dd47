//! USB CDC-ACM: the device appears as /dev/ttyACM* with the flash chip's unique id as serial.

use embassy_rp::flash::{Blocking, Flash};
use embassy_rp::peripherals::{FLASH, USB};
use embassy_rp::usb::{Driver, InterruptHandler};
use embassy_rp::{Peri, bind_interrupts};
use embassy_usb::class::cdc_acm::{CdcAcmClass, State};
use embassy_usb::{Builder, Config, UsbDevice};
use static_cell::StaticCell;

bind_interrupts!(struct Irqs {
    USBCTRL_IRQ => InterruptHandler<USB>;
});

/// The pid.codes vendor id, shared by open-source hardware projects.
pub const VID: u16 = 0x1209;
/// pid.codes test product ids: for development only, until the project has its own
/// (docs/hardware.md, "USB identity").
pub const PID_BOARD: u16 = 0x0001;
/// The clock's test product id.
pub const PID_CLOCK: u16 = 0x0002;

/// The USB driver of the RP2040.
pub type UsbDriver = Driver<'static, USB>;

/// `GB-` and the 16 hex digits of the flash chip's 64-bit unique id: every Pico has its
/// own, so /dev/serial/by-id tells two boards apart.
pub fn serial_number(flash: Peri<'static, FLASH>) -> &'static str {
    static SERIAL: StaticCell<[u8; 19]> = StaticCell::new();
    let mut id = [0u8; 8];
    let mut flash = Flash::<_, Blocking, { 2 * 1024 * 1024 }>::new_blocking(flash);
    // A failed read leaves zeros: the device still works, with serial GB-000...
    let _ = flash.blocking_unique_id(&mut id);
    let text = SERIAL.init([0; 19]);
    text[..3].copy_from_slice(b"GB-");
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for (i, byte) in id.iter().enumerate() {
        text[3 + 2 * i] = HEX[usize::from(byte >> 4)];
        text[4 + 2 * i] = HEX[usize::from(byte & 0xF)];
    }
    core::str::from_utf8(text).unwrap_or("GB-0")
}

/// The USB device and its CDC-ACM class, named `product`.
pub fn build(
    usb: Peri<'static, USB>,
    product: &'static str,
    pid: u16,
    serial: &'static str,
) -> (
    UsbDevice<'static, UsbDriver>,
    CdcAcmClass<'static, UsbDriver>,
) {
    static CONFIG_DESC: StaticCell<[u8; 256]> = StaticCell::new();
    static BOS_DESC: StaticCell<[u8; 256]> = StaticCell::new();
    static CONTROL_BUF: StaticCell<[u8; 64]> = StaticCell::new();
    static STATE: StaticCell<State> = StaticCell::new();

    let mut config = Config::new(VID, pid);
    config.manufacturer = Some("goban-bridge");
    config.product = Some(product);
    config.serial_number = Some(serial);
    config.max_power = 100;
    config.max_packet_size_0 = 64;

    let mut builder = Builder::new(
        Driver::new(usb, Irqs),
        config,
        CONFIG_DESC.init([0; 256]),
        BOS_DESC.init([0; 256]),
        &mut [],
        CONTROL_BUF.init([0; 64]),
    );
    let class = CdcAcmClass::new(&mut builder, STATE.init(State::new()), 64);
    (builder.build(), class)
}

/// Runs the USB device stack.
#[embassy_executor::task]
pub async fn run(mut usb: UsbDevice<'static, UsbDriver>) -> ! {
    usb.run().await
}
