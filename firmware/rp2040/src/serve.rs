//! The loop both devices run: a tick for the hardware, host frames in, frames out over USB.

use crate::now_ms;
use crate::out::TxBuf;
use crate::usb::UsbDriver;
use embassy_futures::select::{Either, select};
use embassy_time::{Duration, Ticker};
use embassy_usb::class::cdc_acm::CdcAcmClass;
use goban_device::{Emit, HostLink, WireOut};
use goban_protocol::FrameRef;

/// A device's firmware on its hardware.
pub trait Firmware {
    /// Every tick: read the hardware and send what changed.
    fn tick(&mut self, now: u32, out: &mut impl Emit);
    /// A frame from the host, received at device time `now`.
    fn host(&mut self, frame: FrameRef<'_>, now: u32, out: &mut impl Emit);
}

/// Runs `device` forever: a tick every `every`, host frames as they come, and after
/// each step the frames it made go out (frames written to `tx_buf` before, e.g. the
/// power-up HELLO, go out first).
pub async fn serve(
    class: CdcAcmClass<'static, UsbDriver>,
    every: Duration,
    tx_buf: &mut TxBuf,
    device: &mut impl Firmware,
) -> ! {
    let (mut tx, mut rx) = class.split();
    let mut link = HostLink::new();
    let mut ticker = Ticker::every(every);
    let mut packet = [0u8; 64];
    loop {
        rx.wait_connection().await;
        loop {
            match select(ticker.next(), rx.read_packet(&mut packet)).await {
                Either::First(()) => device.tick(now_ms(), &mut WireOut(&mut *tx_buf)),
                Either::Second(Ok(n)) => {
                    let now = now_ms();
                    let mut wire = WireOut(&mut *tx_buf);
                    link.feed(&packet[..n], |frame| device.host(frame, now, &mut wire));
                }
                // Unplugged or reset by the host: wait for the next connection.
                Either::Second(Err(_)) => break,
            }
            tx_buf.flush(&mut tx).await;
        }
    }
}
