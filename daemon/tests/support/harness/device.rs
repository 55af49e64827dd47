//! Board and clock devices written from wire-protocol.md on real pseudo-terminals (raw frames, answering HELLO? and SNAP?).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use goban_hardware::sim::PtyDevice;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// One frame: `$<body>*<CRC-16/CCITT-FALSE as 4 hex digits>\n` (wire-protocol.md "Framing").
pub(crate) fn frame(body: &str) -> Vec<u8> {
    format!("${body}*{:04X}\n", goban_protocol::crc16(body.as_bytes())).into_bytes()
}

#[derive(Debug)]
struct Model {
    /// `Some(size)` for a board, `None` for a clock.
    size: Option<usize>,
    points: Vec<u8>,
    seq: u32,
    started: Instant,
    serial: String,
    /// v1.1 capabilities announced after each HELLO (`$CAPS`), e.g. `ZONE`.
    caps: Option<String>,
}

impl Model {
    fn ms(&self) -> u32 {
        // Device ms wrap at u32 (wire-protocol.md); a test never runs that long.
        u32::try_from(self.started.elapsed().as_millis()).unwrap_or(u32::MAX)
    }

    fn hello(&self) -> Vec<u8> {
        let mut out = match self.size {
            Some(size) => frame(&format!("HELLO,BOARD,1,{size},e2e-1,{}", self.serial)),
            None => frame(&format!("HELLO,CLOCK,1,e2e-1,{}", self.serial)),
        };
        if let Some(caps) = &self.caps {
            // docs/protocol.md 10: the capabilities right after every HELLO.
            out.extend(frame(&format!("CAPS,{caps}")));
        }
        out
    }

    fn snap(&mut self) -> Vec<u8> {
        let points = String::from_utf8_lossy(&self.points).into_owned();
        let out = frame(&format!("SNAP,{},{},{points}", self.seq, self.ms()));
        self.seq = self.seq.wrapping_add(1);
        out
    }

    /// What the device answers to one host line.
    fn answer(&mut self, line: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        if line.starts_with(b"$HELLO?") {
            out.extend(self.hello());
            if self.size.is_some() {
                out.extend(self.snap());
            }
        } else if line.starts_with(b"$SNAP?") && self.size.is_some() {
            out.extend(self.snap());
        }
        out
    }
}

/// A device on a pty; dropping it (or [`Device::unplug`]) closes the master: an unplugged device.
pub(crate) struct Device {
    model: Arc<Mutex<Model>>,
    out: mpsc::UnboundedSender<Vec<u8>>,
    cancel: CancellationToken,
    path: PathBuf,
}

impl Device {
    /// A 9x9 (or `size`) sensor board, all points empty; it sends HELLO and SNAP at once.
    pub(crate) fn board(size: usize) -> Self {
        Self::open(Some(size), "E2E-B-1", None)
    }

    /// A board that reads its off-board zones (v1.1 `ZONE`, docs/protocol.md 10.2).
    pub(crate) fn board_with_zones(size: usize) -> Self {
        Self::open(Some(size), "E2E-B-1", Some("ZONE"))
    }

    /// A clock; it sends HELLO at once.
    pub(crate) fn clock() -> Self {
        Self::open(None, "E2E-C-1", None)
    }

    fn open(size: Option<usize>, serial: &str, caps: Option<&str>) -> Self {
        Self::open_with(size, serial, caps, vec![b'.'; size.map_or(0, |s| s * s)])
    }

    /// The same device unplugged and plugged in again: this pty closes (the daemon sees the
    /// device vanish) and a fresh one opens, its counters restarted and its points as they
    /// were; it says HELLO (a board also SNAP) at once. The caller moves its link to the new path.
    pub(crate) fn replugged(&self) -> Self {
        self.unplug();
        let (size, serial, caps, points) = {
            let m = self.model.lock().expect("device model");
            (m.size, m.serial.clone(), m.caps.clone(), m.points.clone())
        };
        Self::open_with(size, &serial, caps.as_deref(), points)
    }

    fn open_with(size: Option<usize>, serial: &str, caps: Option<&str>, points: Vec<u8>) -> Self {
        let pty = PtyDevice::open().expect("open a pseudo-terminal");
        let path = pty.path().to_path_buf();
        let model = Arc::new(Mutex::new(Model {
            size,
            points,
            seq: 0,
            started: Instant::now(),
            serial: serial.into(),
            caps: caps.map(str::to_owned),
        }));
        let (out, rx) = mpsc::unbounded_channel();
        let cancel = CancellationToken::new();
        tokio::spawn(serve(pty, Arc::clone(&model), rx, cancel.clone()));
        let device = Self {
            model,
            out,
            cancel,
            path,
        };
        let first = {
            let mut m = device.model.lock().expect("device model");
            let mut bytes = m.hello();
            if size.is_some() {
                bytes.extend(m.snap());
            }
            bytes
        };
        device.send(first);
        device
    }

    /// The slave path to put in the daemon's config.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Raw bytes on the line (noise, broken frames).
    pub(crate) fn send(&self, bytes: Vec<u8>) {
        let _ = self.out.send(bytes);
    }

    /// Board: points change (`(index, b'B' | b'W' | b'.')`), sent as one DIFF.
    pub(crate) fn set(&self, changes: &[(usize, u8)]) {
        let bytes = {
            let mut m = self.model.lock().expect("device model");
            for &(index, state) in changes {
                m.points[index] = state;
            }
            let body: Vec<String> = changes
                .iter()
                .map(|&(i, s)| format!("{i}{}", s as char))
                .collect();
            let out = frame(&format!("DIFF,{},{},{}", m.seq, m.ms(), body.join(";")));
            m.seq = m.seq.wrapping_add(1);
            out
        };
        self.send(bytes);
    }

    /// Board (v1.1 `ZONE`): what lies in the zones at Black's and White's lower right
    /// (`b'.'`, `b'B'`, `b'W'`), one `$ZONE` frame.
    pub(crate) fn zones(&self, black: u8, white: u8) {
        let bytes = {
            let m = self.model.lock().expect("device model");
            frame(&format!(
                "ZONE,{},{}{}",
                m.ms(),
                black as char,
                white as char
            ))
        };
        self.send(bytes);
    }

    /// Clock: a button press, `'L'` or `'R'`.
    pub(crate) fn press(&self, button: char) {
        let bytes = {
            let mut m = self.model.lock().expect("device model");
            let out = frame(&format!("PRESS,{},{},{button}", m.seq, m.ms()));
            m.seq = m.seq.wrapping_add(1);
            out
        };
        self.send(bytes);
    }

    /// Clock: another key (`RESIGN_L`, `DONE_R`, `PAUSE`, ...), wire-protocol `$KEY`.
    pub(crate) fn key(&self, key: &str) {
        let bytes = {
            let mut m = self.model.lock().expect("device model");
            let out = frame(&format!("KEY,{},{},{key}", m.seq, m.ms()));
            m.seq = m.seq.wrapping_add(1);
            out
        };
        self.send(bytes);
    }

    /// Closes the pty: the daemon sees the device vanish.
    pub(crate) fn unplug(&self) {
        self.cancel.cancel();
    }
}

impl Drop for Device {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

async fn serve(
    pty: PtyDevice,
    model: Arc<Mutex<Model>>,
    mut rx: mpsc::UnboundedReceiver<Vec<u8>>,
    cancel: CancellationToken,
) {
    let (mut reader, mut writer) = tokio::io::split(pty);
    let mut beat = tokio::time::interval(Duration::from_millis(500));
    let mut line = Vec::new();
    let mut chunk = [0u8; 1024];
    loop {
        tokio::select! {
            () = cancel.cancelled() => break,
            Some(bytes) = rx.recv() => { let _ = writer.write_all(&bytes).await; }
            _ = beat.tick() => {
                let ms = model.lock().expect("device model").ms();
                let _ = writer.write_all(&frame(&format!("BEAT,{ms}"))).await;
            }
            read = reader.read(&mut chunk) => match read {
                Ok(0) | Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
                Ok(n) => {
                    for &byte in &chunk[..n] {
                        if byte == b'\n' {
                            let answer = model.lock().expect("device model").answer(&line);
                            let _ = writer.write_all(&answer).await;
                            line.clear();
                        } else {
                            line.push(byte);
                        }
                    }
                }
            },
        }
    }
}
