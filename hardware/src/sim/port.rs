//! One simulated serial port: plug/unplug, HELLO and SNAP answers, BEATs, periodic SNAPs, line faults.

use crate::connector::MemoryPlug;
use crate::error::HardwareError;
use crate::sim::devices::Devices;
use crate::sim::pty::{PtyDevice, StableLink};
use bytes::BytesMut;
use goban_protocol::{Decoder, DeviceKind, Frame};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;
use tokio::time::{MissedTickBehavior, interval, sleep, timeout};
use tokio_util::sync::CancellationToken;

/// A byte stream a simulated device talks over.
pub(crate) trait DeviceIo: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> DeviceIo for T {}

/// Where a simulated port is plugged: a pty behind a stable link, or an in-memory pipe.
#[derive(Debug, Clone)]
pub enum PortSide {
    /// A fresh pseudo-terminal on every plug, reachable through the stable link.
    Pty(StableLink),
    /// An in-memory pipe handed to a [`crate::MemoryConnector`].
    Memory(MemoryPlug),
}

impl PortSide {
    async fn plug(&self) -> Result<Box<dyn DeviceIo>, HardwareError> {
        match self {
            Self::Pty(link) => {
                let device = PtyDevice::open()?;
                link.point_to(device.path())?;
                Ok(Box::new(device))
            }
            Self::Memory(plug) => Ok(Box::new(plug.plug().await?)),
        }
    }

    fn unplug(&self) {
        if let Self::Pty(link) = self {
            link.remove();
        }
    }
}

/// What the table's driver tells a port.
#[derive(Debug)]
pub(crate) enum PortMsg {
    /// Send this device frame.
    Frame(DeviceKind, Frame),
    /// Write noise bytes.
    Garbage(Vec<u8>),
    /// Corrupt the CRC of the device's next frames.
    CorruptNext(DeviceKind, u32),
    /// Lose the device's next frames.
    DropNext(DeviceKind, u32),
    /// Pull the cable for this long.
    Unplug(Duration),
}

/// A write that cannot complete in this time is dropped: a UART transmits into the void
/// when nobody listens, it never stalls the firmware.
const WRITE_TIMEOUT: Duration = Duration::from_millis(200);
/// Host frames kept per port for inspection.
const HOST_LOG_MAX: usize = 10_000;
/// BEAT period (wire protocol v1 asks for at least one a second).
const BEAT_EVERY: Duration = Duration::from_millis(500);
/// Full SNAP period of a board (wire protocol v1: at least every 10 seconds).
const SNAP_EVERY: Duration = Duration::from_secs(10);

pub(crate) struct PortTask {
    pub(crate) side: PortSide,
    pub(crate) kinds: Vec<DeviceKind>,
    pub(crate) devices: Arc<Mutex<Devices>>,
    pub(crate) rx: mpsc::Receiver<PortMsg>,
    pub(crate) host_log: Arc<Mutex<Vec<Frame>>>,
    pub(crate) cancel: CancellationToken,
    corrupt: HashMap<DeviceKind, u32>,
    drop: HashMap<DeviceKind, u32>,
}

/// How a plugged session ended.
enum Unplugged {
    For(Duration),
    Stop,
}

impl PortTask {
    pub(crate) fn new(
        side: PortSide,
        kinds: Vec<DeviceKind>,
        devices: Arc<Mutex<Devices>>,
        rx: mpsc::Receiver<PortMsg>,
        cancel: CancellationToken,
    ) -> Self {
        Self {
            side,
            kinds,
            devices,
            rx,
            host_log: Arc::new(Mutex::new(Vec::new())),
            cancel,
            corrupt: HashMap::new(),
            drop: HashMap::new(),
        }
    }

    /// Runs the port until cancelled: plug, serve, and replug after each unplug.
    pub(crate) async fn run(mut self) -> Result<(), HardwareError> {
        loop {
            let io = self.side.plug().await?;
            match self.serve(io).await {
                Unplugged::Stop => {
                    self.side.unplug();
                    return Ok(());
                }
                Unplugged::For(down) => {
                    self.side.unplug();
                    if !self.stay_unplugged(down).await {
                        return Ok(());
                    }
                }
            }
        }
    }

    /// While unplugged the device is off: its frames are lost.
    async fn stay_unplugged(&mut self, down: Duration) -> bool {
        let until = sleep(down);
        tokio::pin!(until);
        loop {
            tokio::select! {
                () = self.cancel.cancelled() => return false,
                () = &mut until => return true,
                msg = self.rx.recv() => if msg.is_none() { (&mut until).await; return true; },
            }
        }
    }

    /// Power-up on a fresh plug: counters restart, each device's firmware says HELLO and
    /// CAPS, the board a SNAP and ZONE.
    fn boot_frames(&self) -> Vec<(DeviceKind, Frame)> {
        let mut devices = self.devices.lock().unwrap_or_else(PoisonError::into_inner);
        let mut out = Vec::new();
        for &kind in &self.kinds {
            devices.reboot(kind);
            out.extend(devices.power_up(kind).into_iter().map(|f| (kind, f)));
        }
        out
    }

    async fn serve(&mut self, mut io: Box<dyn DeviceIo>) -> Unplugged {
        for (kind, frame) in self.boot_frames() {
            self.send(&mut io, kind, &frame).await;
        }
        let mut decoder = Decoder::new();
        let mut buf = BytesMut::with_capacity(1024);
        let mut beat = interval(BEAT_EVERY);
        beat.set_missed_tick_behavior(MissedTickBehavior::Delay);
        let mut snap = interval(SNAP_EVERY);
        snap.set_missed_tick_behavior(MissedTickBehavior::Delay);
        snap.reset();
        let mut driver_done = false;
        loop {
            tokio::select! {
                () = self.cancel.cancelled() => return Unplugged::Stop,
                msg = self.rx.recv(), if !driver_done => match msg {
                    Some(PortMsg::Unplug(down)) => return Unplugged::For(down),
                    Some(msg) => self.handle_msg(&mut io, msg).await,
                    // The driver is done; the devices stay on the table and keep beating.
                    None => driver_done = true,
                },
                read = io.read_buf(&mut buf) => match read {
                    Ok(0) | Err(_) => return Unplugged::For(Duration::from_millis(100)),
                    Ok(_) => self.handle_host_bytes(&mut io, &mut decoder, &mut buf).await,
                },
                _ = beat.tick() => self.send_beats(&mut io).await,
                _ = snap.tick() => {
                    if self.kinds.contains(&DeviceKind::Board) {
                        let frames = self.lock().snap();
                        for frame in frames {
                            self.send(&mut io, DeviceKind::Board, &frame).await;
                        }
                    }
                }
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Devices> {
        self.devices.lock().unwrap_or_else(PoisonError::into_inner)
    }

    async fn handle_msg(&mut self, io: &mut Box<dyn DeviceIo>, msg: PortMsg) {
        match msg {
            PortMsg::Frame(kind, frame) => self.send(io, kind, &frame).await,
            PortMsg::Garbage(bytes) => write_or_drop(io, &bytes).await,
            PortMsg::CorruptNext(kind, n) => *self.corrupt.entry(kind).or_default() += n,
            PortMsg::DropNext(kind, n) => *self.drop.entry(kind).or_default() += n,
            PortMsg::Unplug(_) => {}
        }
    }

    async fn send_beats(&mut self, io: &mut Box<dyn DeviceIo>) {
        let beats: Vec<(DeviceKind, Frame)> = {
            let devices = self.lock();
            self.kinds
                .iter()
                .map(|&k| (k, Frame::Beat { ms: devices.ms(k) }))
                .collect()
        };
        for (kind, frame) in beats {
            self.send(io, kind, &frame).await;
        }
    }

    /// Answers host frames: HELLO? from every device here, SNAP? from the board; SHOW and BEEP
    /// go to the clock; everything is logged for tests.
    async fn handle_host_bytes(
        &mut self,
        io: &mut Box<dyn DeviceIo>,
        decoder: &mut Decoder,
        buf: &mut BytesMut,
    ) {
        loop {
            let frame = match decoder.decode(buf) {
                Ok(Some(frame)) => frame,
                Ok(None) => return,
                Err(_) => continue,
            };
            {
                let mut log = self.host_log.lock().unwrap_or_else(PoisonError::into_inner);
                if log.len() >= HOST_LOG_MAX {
                    // A simulation runs for hours: keep the most recent frames only.
                    log.drain(..HOST_LOG_MAX / 2);
                }
                log.push(frame.clone());
            }
            let replies = self.lock().handle_host(&frame, &self.kinds);
            for (kind, reply) in replies {
                self.send(io, kind, &reply).await;
            }
        }
    }

    /// Writes a device frame, unless a scripted fault drops or corrupts it.
    /// Faults hit frames that carry a sequence number (SNAP, DIFF, PRESS, KEY), so a script
    /// knows it costs the host a state change, not a BEAT.
    async fn send(&mut self, io: &mut Box<dyn DeviceIo>, kind: DeviceKind, frame: &Frame) {
        let counted = frame.seq().is_some();
        if counted && take_one(&mut self.drop, kind) {
            return;
        }
        let mut bytes = frame.to_bytes();
        if counted && take_one(&mut self.corrupt, kind) {
            corrupt_crc(&mut bytes);
        }
        write_or_drop(io, &bytes).await;
    }
}

fn take_one(counts: &mut HashMap<DeviceKind, u32>, kind: DeviceKind) -> bool {
    match counts.get_mut(&kind) {
        Some(n) if *n > 0 => {
            *n -= 1;
            true
        }
        _ => false,
    }
}

/// Changes one hex digit of the CRC (the 4 bytes before LF), so the frame fails its check.
pub(crate) fn corrupt_crc(bytes: &mut [u8]) {
    let len = bytes.len();
    if len >= 5 {
        let digit = &mut bytes[len - 2];
        *digit = if *digit == b'0' { b'1' } else { b'0' };
    }
}

async fn write_or_drop(io: &mut Box<dyn DeviceIo>, bytes: &[u8]) {
    let write = async {
        io.write_all(bytes).await?;
        io.flush().await
    };
    if let Ok(Err(err)) | Err(err) = timeout(WRITE_TIMEOUT, write)
        .await
        .map_err(std::io::Error::other)
    {
        tracing::debug!(cause = %err, "simulated device write dropped");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrupting_changes_only_the_crc() {
        let mut bytes = Frame::Beat { ms: 7 }.to_bytes();
        let good = bytes.clone();
        corrupt_crc(&mut bytes);
        assert_ne!(bytes, good);
        assert_eq!(bytes[..bytes.len() - 2], good[..good.len() - 2]);
        let mut decoder = Decoder::new();
        let mut buf = BytesMut::from(&bytes[..]);
        let err = decoder.decode(&mut buf).unwrap_err();
        assert_eq!(err.reason, goban_protocol::RejectReason::BadCrc);
    }
}
