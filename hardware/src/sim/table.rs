//! A simulated table: a board and a clock on one shared port or two, driven by a timeline.

use crate::connector::{MemoryConnector, memory_port};
use crate::error::HardwareError;
use crate::sim::board::{BoardIdentity, BoardModel};
use crate::sim::clock::ClockModel;
use crate::sim::devices::Devices;
use crate::sim::port::{PortMsg, PortSide, PortTask};
use crate::sim::pty::StableLink;
use crate::sim::timeline::{Act, Timeline};
use goban_protocol::{BoardSize, DeviceKind, Frame, Text};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::sleep;
use tokio_util::sync::CancellationToken;

/// How the table's devices are reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transport {
    /// Pseudo-terminals behind stable symlinks in this directory (created if missing).
    Pty(PathBuf),
    /// In-memory pipes.
    Memory,
}

/// A table's settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableConfig {
    /// Name used in link file names and serial numbers, e.g. `table-1`.
    pub name: String,
    /// Board and clock on one port.
    pub shared_port: bool,
    /// `true`: the board sends DIFFs; `false`: SNAP only.
    pub diffs: bool,
    /// How the ports are reached.
    pub transport: Transport,
}

/// Where the host finds a simulated port.
#[derive(Debug)]
pub enum Endpoint {
    /// A stable path to open as a serial port.
    Path(PathBuf),
    /// An in-memory connector for [`crate::spawn_link`].
    Memory(MemoryConnector),
}

/// A running table.
#[derive(Debug)]
pub struct Table {
    /// The board's port (also the clock's when shared).
    pub board_port: Endpoint,
    /// The clock's port, `None` when shared with the board.
    pub clock_port: Option<Endpoint>,
    /// Finishes when the timeline has been played (the devices keep beating until cancelled).
    pub driver: JoinHandle<()>,
    /// The port tasks; they end on cancel, or with an error if a pty cannot be created.
    pub ports: Vec<JoinHandle<Result<(), HardwareError>>>,
    devices: Arc<Mutex<Devices>>,
    host_logs: Vec<Arc<Mutex<Vec<Frame>>>>,
    senders: Senders,
}

impl Table {
    /// Plays another timeline on the same devices and ports, e.g. the next game at this table
    /// once [`Table::driver`] has finished; the new driver replaces it.
    pub fn play(&mut self, timeline: Timeline, cancel: CancellationToken) {
        let senders = self.senders.clone();
        self.driver = tokio::spawn(drive(timeline, self.devices.clone(), senders, cancel));
    }

    /// The board's sensor readings now.
    pub fn readings(&self) -> Vec<goban_protocol::PointState> {
        self.devices
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .readings()
    }

    /// The points the board has lit (`$LED`), e.g. stones the host wants removed.
    pub fn leds(&self) -> Vec<goban_protocol::Point> {
        self.devices
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .board
            .leds()
    }

    /// The clock's last display command (`$SHOW`) and the beeps sounded so far.
    pub fn clock_display(&self) -> (Option<Frame>, u64) {
        let devices = self.devices.lock().unwrap_or_else(PoisonError::into_inner);
        (devices.clock.display(), devices.clock.beeps())
    }

    /// Every host frame the devices received so far (all ports), in order per port.
    pub fn host_frames(&self) -> Vec<Frame> {
        self.host_logs
            .iter()
            .flat_map(|log| log.lock().unwrap_or_else(PoisonError::into_inner).clone())
            .collect()
    }
}

/// Starts a table playing `timeline`: port tasks plug in (ptys or pipes) and the driver plays
/// each step in time. Must be called inside a tokio runtime.
pub fn spawn_table(
    config: &TableConfig,
    timeline: Timeline,
    cancel: CancellationToken,
) -> Result<Table, HardwareError> {
    let devices = Arc::new(Mutex::new(build_devices(config, timeline.size)?));
    let layout: Vec<Vec<DeviceKind>> = if config.shared_port {
        vec![vec![DeviceKind::Board, DeviceKind::Clock]]
    } else {
        vec![vec![DeviceKind::Board], vec![DeviceKind::Clock]]
    };
    let mut endpoints = Vec::new();
    let mut senders = Vec::new();
    let mut ports = Vec::new();
    let mut host_logs = Vec::new();
    for kinds in layout {
        let names: Vec<String> = kinds.iter().map(|k| k.as_str().to_lowercase()).collect();
        let label = format!("{}-{}", config.name, names.join("+"));
        let (side, endpoint) = build_side(&config.transport, &label)?;
        let (tx, rx) = mpsc::channel(256);
        let task = PortTask::new(side, kinds.clone(), devices.clone(), rx, cancel.clone());
        host_logs.push(task.host_log.clone());
        ports.push(tokio::spawn(task.run()));
        endpoints.push(endpoint);
        senders.push((kinds, tx));
    }
    let driver = tokio::spawn(drive(timeline, devices.clone(), senders.clone(), cancel));
    let mut endpoints = endpoints.into_iter();
    let board_port = endpoints.next().ok_or(HardwareError::LinkStopped)?;
    Ok(Table {
        board_port,
        clock_port: endpoints.next(),
        driver,
        ports,
        devices,
        host_logs,
        senders,
    })
}

/// A board of `size` lines and a clock, named after the table.
fn build_devices(config: &TableConfig, size: u8) -> Result<Devices, HardwareError> {
    let error = |detail: String| HardwareError::Game {
        origin: config.name.clone(),
        detail,
    };
    let size = BoardSize::new(u32::from(size)).map_err(|e| error(e.to_string()))?;
    let text = |s: String| Text::new(s).map_err(|e| error(e.to_string()));
    let identity = BoardIdentity {
        firmware: text("sim-1.0".into())?,
        serial: text(format!("SIM-B-{}", config.name))?,
        diffs: config.diffs,
    };
    Ok(Devices::new(
        BoardModel::new(size, identity),
        ClockModel::new(
            text("sim-1.0".into())?,
            text(format!("SIM-C-{}", config.name))?,
        ),
    ))
}

fn build_side(transport: &Transport, label: &str) -> Result<(PortSide, Endpoint), HardwareError> {
    match transport {
        Transport::Pty(dir) => {
            std::fs::create_dir_all(dir).map_err(|source| HardwareError::Link {
                path: dir.clone(),
                source,
            })?;
            let link = StableLink::new(dir.join(format!("usb-goban-sim-{label}")));
            let path = link.path().to_path_buf();
            Ok((PortSide::Pty(link), Endpoint::Path(path)))
        }
        Transport::Memory => {
            let (plug, connector) = memory_port(label);
            Ok((PortSide::Memory(plug), Endpoint::Memory(connector)))
        }
    }
}

type Senders = Vec<(Vec<DeviceKind>, mpsc::Sender<PortMsg>)>;

/// Plays the timeline: waits each step's delay, applies its act, routes frames to ports.
async fn drive(
    timeline: Timeline,
    devices: Arc<Mutex<Devices>>,
    senders: Senders,
    cancel: CancellationToken,
) {
    for step in timeline.steps {
        tokio::select! {
            () = cancel.cancelled() => return,
            () = sleep(step.delay) => {}
        }
        tracing::debug!(note = %step.note, "simulated act");
        let (kind, msg) = {
            let mut devices = devices.lock().unwrap_or_else(PoisonError::into_inner);
            match apply(&mut devices, step.act) {
                Some(routed) => routed,
                None => continue,
            }
        };
        let Some((_, tx)) = senders.iter().find(|(kinds, _)| kinds.contains(&kind)) else {
            continue;
        };
        if tx.send(msg).await.is_err() {
            return;
        }
    }
}

/// Applies one act to the devices; returns the message for the port of the device concerned.
fn apply(devices: &mut Devices, act: Act) -> Option<(DeviceKind, PortMsg)> {
    let board = DeviceKind::Board;
    let clock = DeviceKind::Clock;
    match act {
        Act::Board { changes } => {
            let ms = devices.ms(board);
            devices
                .board
                .apply(&changes, ms)
                .map(|f| (board, PortMsg::Frame(board, f)))
        }
        Act::Zones { black, white } => {
            let ms = devices.ms(board);
            devices
                .board
                .set_zones(black, white, ms)
                .map(|f| (board, PortMsg::Frame(board, f)))
        }
        Act::Stuck { point, state } => {
            let ms = devices.ms(board);
            devices
                .board
                .set_stuck(point, state, ms)
                .map(|f| (board, PortMsg::Frame(board, f)))
        }
        Act::Press { button } => {
            let ms = devices.ms(clock);
            Some((
                clock,
                PortMsg::Frame(clock, devices.clock.press(button, ms)),
            ))
        }
        Act::Key { key } => {
            let ms = devices.ms(clock);
            Some((clock, PortMsg::Frame(clock, devices.clock.key(key, ms))))
        }
        Act::Garbage { device, bytes } => Some((device, PortMsg::Garbage(bytes))),
        Act::CorruptNext { device, count } => Some((device, PortMsg::CorruptNext(device, count))),
        Act::DropNext { device, count } => Some((device, PortMsg::DropNext(device, count))),
        Act::Unplug { device, down_ms } => Some((
            device,
            PortMsg::Unplug(std::time::Duration::from_millis(down_ms)),
        )),
    }
}
