//! Serial transports for real devices and simulated devices on pseudo-terminals, both speaking wire protocol v1.
//!
//! # Device links (production)
//! The daemon spawns one link per port with [`spawn_link`] (or [`spawn_link_with_clock`] in
//! tests), giving it a [`Connector`] ([`SerialConnector`] for a path such as
//! `/dev/serial/by-id/...` or a pty; [`MemoryConnector`] for in-memory pipes), a [`LinkConfig`]
//! (which devices to expect, watchdog, backoff), an mpsc sender of [`LinkEvent`] and a
//! `CancellationToken`. It gets back a cloneable [`LinkHandle`] to queue host commands
//! (`$SNAP?`, `$LED`, `$SHOW`, `$BEEP`) without ever blocking the reader, and to read
//! [`LinkStats`].
//!
//! Events, in order: [`LinkEvent::Connected`] after a handshake (`$HELLO?` → HELLO, kind and
//! version 1 checked); [`LinkEvent::Frame`] for each device frame with the host receive time
//! (board frames only once a SNAP made the board trusted, after connect and after a
//! sequence gap); [`LinkEvent::SequenceGap`]; [`LinkEvent::WrongDevice`] (a device alert);
//! [`LinkEvent::Disconnected`] (3 s without a frame, end of file, I/O error);
//! [`LinkEvent::Unavailable`] (port missing, once per outage); [`LinkEvent::Stats`].
//! Reconnection uses a capped backoff (500 ms), so a replugged device is in use within 1 s.
//!
//! ```no_run
//! use goban_hardware::{LinkConfig, LinkEvent, SerialConnector, spawn_link};
//! use goban_protocol::DeviceKind;
//! use tokio_util::sync::CancellationToken;
//!
//! # async fn run() {
//! let cancel = CancellationToken::new();
//! let (tx, mut events) = tokio::sync::mpsc::channel(1024);
//! let connector = SerialConnector::new("/dev/serial/by-id/usb-Goban_Board_SB-000417-if00");
//! let (handle, _task) = spawn_link(connector, LinkConfig::expecting(&[DeviceKind::Board]), tx, cancel.clone());
//! while let Some(event) = events.recv().await {
//!     match event {
//!         LinkEvent::Frame { frame, at_ms, .. } => { /* to the referee, ordered by at_ms */ }
//!         LinkEvent::Connected { .. } => { handle.request_snap().ok(); }
//!         _ => {}
//!     }
//! }
//! # }
//! ```
//!
//! # Ports
//! [`list_ports`] lists serial ports with USB vendor, product and serial where known (sysfs;
//! libudev only with the `libudev` feature), and their `/dev/serial/by-id` links.
//!
//! # Simulator
//! [`sim`] holds board and clock devices on pseudo-terminals (behind stable symlinks that
//! vanish on unplug and return on replug) or in-memory pipes, human-like players replaying
//! games, and scripted faults and infractions. Entry points: [`sim::simulate`] for
//! `goban-bridge simulate --games <dir|file> --boards N` (print [`sim::SimTable::paths`]) and
//! [`sim::spawn_tables`] for `demo` (in-process tables, [`sim::Transport::Memory`] gives
//! [`MemoryConnector`]s for [`spawn_link`]).
#![warn(missing_docs)]

mod command;
mod connector;
mod error;
mod handshake;
mod link;
mod link_state;
mod outbox;
mod ports;
mod reconnect;
mod serial;
mod session;
pub mod sim;
mod stamp;
mod stats;
mod sync;
mod watchdog;
mod wire;

pub use crate::command::LinkHandle;
pub use crate::connector::{Connector, MemoryConnector, MemoryPlug, SerialConnector, memory_port};
pub use crate::error::HardwareError;
pub use crate::handshake::{DeviceInfo, HandshakeTiming};
pub use crate::link::{spawn_link, spawn_link_with_clock};
pub use crate::link_state::{DisconnectReason, LinkConfig, LinkEvent};
pub use crate::ports::{PortInfo, PortKind, list_ports};
pub use crate::reconnect::{Backoff, ReconnectPolicy};
pub use crate::serial::{DataBits, FlowControl, Parity, SerialSettings, StopBits, open_serial};
pub use crate::stamp::{SystemWallClock, TokioWallClock, WallClock};
pub use crate::stats::LinkStats;
pub use crate::sync::ClockMap;
pub use crate::watchdog::{DEFAULT_SILENCE, Watchdog};
