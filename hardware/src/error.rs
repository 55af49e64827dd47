//! The crate's one error type: what can go wrong opening ports, shaking hands and simulating.

use goban_protocol::DeviceKind;
use std::path::PathBuf;

/// Everything that can fail in `goban-hardware`.
#[derive(Debug, thiserror::Error)]
pub enum HardwareError {
    /// The serial port could not be opened (missing, busy, no permission).
    #[error("cannot open serial port {path}: {source}")]
    Open {
        /// The path given in the configuration.
        path: PathBuf,
        /// What the operating system said.
        #[source]
        source: tokio_serial::Error,
    },
    /// Reading or writing an open port failed (device unplugged, I/O error).
    #[error("I/O error on {port}: {source}")]
    Io {
        /// Port label (path or simulator name).
        port: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// The port reached end of file: the other side closed it.
    #[error("{port} closed by the device side")]
    Closed {
        /// Port label.
        port: String,
    },
    /// No HELLO arrived in answer to `$HELLO?` in time.
    #[error("no HELLO from {port} within {waited_ms} ms (wire protocol v1, Host to devices)")]
    HandshakeTimeout {
        /// Port label.
        port: String,
        /// How long the link waited.
        waited_ms: u64,
    },
    /// The device on the port is not the one configured, or speaks another protocol version.
    #[error("wrong device on {port}: expected {expected:?}, found {found}")]
    WrongDevice {
        /// Port label.
        port: String,
        /// The device kinds the port was configured for.
        expected: Vec<DeviceKind>,
        /// What answered instead, in words.
        found: String,
    },
    /// Listing the serial ports of the system failed.
    #[error("cannot list serial ports: {0}")]
    PortList(#[source] tokio_serial::Error),
    /// Creating a pseudo-terminal for a simulated device failed.
    #[error("cannot create pseudo-terminal: {0}")]
    Pty(#[from] nix::Error),
    /// A stable link path for a simulated device could not be written.
    #[error("cannot create link {path}: {source}")]
    Link {
        /// The symlink path.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// A fault script could not be parsed.
    #[error("fault script {origin}: {source}")]
    Script {
        /// File name or "inline".
        origin: String,
        /// The parser's message, with line and column.
        #[source]
        source: serde_json::Error,
    },
    /// A game for the simulator could not be loaded or replayed.
    #[error("game {origin}: {detail}")]
    Game {
        /// File name or label.
        origin: String,
        /// What was wrong.
        detail: String,
    },
    /// A file or directory of games could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The path.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// Only host frames (`$HELLO?`, `$SNAP?`, `$LED`, `$SHOW`, `$BEEP`) can be sent to a device.
    #[error("{0} is not a host frame")]
    NotHostFrame(&'static str),
    /// The link task is gone, so host commands cannot be queued.
    #[error("device link stopped")]
    LinkStopped,
    /// The host command queue is full (the port is slow or stalled); the command was dropped.
    #[error("host command queue full, command dropped")]
    QueueFull,
}
