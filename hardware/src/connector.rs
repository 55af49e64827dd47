//! How a device link (re)opens its transport: a serial path, or an in-memory pipe for tests and demos.

use crate::error::HardwareError;
use crate::serial::{SerialSettings, open_serial};
use std::future::Future;
use std::path::PathBuf;
use tokio::io::{AsyncRead, AsyncWrite, DuplexStream};
use tokio::sync::mpsc;

/// Opens a fresh transport each time the link (re)connects; the link is generic over it, so a
/// serial port, a pseudo-terminal and `tokio::io::duplex` all run the same production code.
pub trait Connector: Send + 'static {
    /// The byte stream this connector yields.
    type Io: AsyncRead + AsyncWrite + Unpin + Send + 'static;

    /// A label for logs, stats and alerts (the port path).
    fn label(&self) -> String;

    /// Opens the transport; an error means "missing or failing, try again after a backoff".
    fn connect(&mut self) -> impl Future<Output = Result<Self::Io, HardwareError>> + Send;
}

/// Opens a serial port by path (`/dev/ttyACM0`, `/dev/serial/by-id/...`, a pty) with given settings.
#[derive(Debug, Clone)]
pub struct SerialConnector {
    /// Path of the port; a `/dev/serial/by-id` link survives replugging into another USB socket.
    pub path: PathBuf,
    /// Baud rate and framing.
    pub settings: SerialSettings,
}

impl SerialConnector {
    /// A connector for `path` with the protocol's default settings (115200 8N1).
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self {
            path: path.into(),
            settings: SerialSettings::default(),
        }
    }
}

impl Connector for SerialConnector {
    type Io = tokio_serial::SerialStream;

    fn label(&self) -> String {
        self.path.display().to_string()
    }

    async fn connect(&mut self) -> Result<Self::Io, HardwareError> {
        open_serial(&self.path, &self.settings)
    }
}

/// Host side of an in-memory port: each `connect` takes the next pipe plugged in by a [`MemoryPlug`].
#[derive(Debug)]
pub struct MemoryConnector {
    label: String,
    plugs: mpsc::Receiver<DuplexStream>,
}

/// Device side of an in-memory port: [`MemoryPlug::plug`] hands a new pipe to the host, like
/// plugging a USB cable in; dropping the device half is unplugging it.
#[derive(Debug, Clone)]
pub struct MemoryPlug {
    plugs: mpsc::Sender<DuplexStream>,
}

/// Buffer of each direction of an in-memory pipe; a few full 19x19 snapshots.
const PIPE_BYTES: usize = 64 * 1024;

/// Creates the two ends of an in-memory port labelled `label`.
pub fn memory_port(label: impl Into<String>) -> (MemoryPlug, MemoryConnector) {
    let (tx, rx) = mpsc::channel(4);
    (
        MemoryPlug { plugs: tx },
        MemoryConnector {
            label: label.into(),
            plugs: rx,
        },
    )
}

impl MemoryPlug {
    /// Plugs in a new pipe and returns the device's half of it.
    pub async fn plug(&self) -> Result<DuplexStream, HardwareError> {
        let (device, host) = tokio::io::duplex(PIPE_BYTES);
        self.plugs
            .send(host)
            .await
            .map_err(|_| HardwareError::LinkStopped)?;
        Ok(device)
    }
}

impl Connector for MemoryConnector {
    type Io = DuplexStream;

    fn label(&self) -> String {
        self.label.clone()
    }

    async fn connect(&mut self) -> Result<Self::Io, HardwareError> {
        self.plugs
            .recv()
            .await
            .ok_or_else(|| HardwareError::Closed {
                port: self.label.clone(),
            })
    }
}
