//! Listing the system's serial ports with USB vendor, product and serial number where known.

use crate::error::HardwareError;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use tokio_serial::SerialPortType;

/// How a port is attached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PortKind {
    /// USB (CDC-ACM or a USB-serial adapter).
    Usb,
    /// PCI or on-board UART.
    Pci,
    /// Bluetooth serial.
    Bluetooth,
    /// Unknown.
    Unknown,
}

/// One serial port, as `goban-bridge ports` prints it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PortInfo {
    /// Device path, e.g. `/dev/ttyACM0`.
    pub path: PathBuf,
    /// Stable `/dev/serial/by-id/...` links to it (the path to put in the config).
    pub by_id: Vec<PathBuf>,
    /// How it is attached.
    pub kind: PortKind,
    /// USB vendor id.
    pub vid: Option<u16>,
    /// USB product id.
    pub pid: Option<u16>,
    /// USB serial number.
    pub serial_number: Option<String>,
    /// USB manufacturer string.
    pub manufacturer: Option<String>,
    /// USB product string.
    pub product: Option<String>,
}

/// Where udev keeps the stable links of serial devices.
const BY_ID: &str = "/dev/serial/by-id";

/// Lists the serial ports of this machine, sorted by path. Without the `libudev` feature, USB
/// details come from sysfs; a system without `/sys/class/tty` has no ports to list.
pub fn list_ports() -> Result<Vec<PortInfo>, HardwareError> {
    // serialport panics when /sys/class/tty is missing (containers): check first.
    if cfg!(target_os = "linux") && !Path::new("/sys/class/tty").is_dir() {
        return Ok(Vec::new());
    }
    let found = tokio_serial::available_ports().map_err(HardwareError::PortList)?;
    let links = by_id_links(Path::new(BY_ID));
    let mut ports: Vec<PortInfo> = found
        .into_iter()
        .map(|p| build_port_info(PathBuf::from(p.port_name), p.port_type, &links))
        .collect();
    ports.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(ports)
}

fn build_port_info(path: PathBuf, kind: SerialPortType, links: &[(PathBuf, PathBuf)]) -> PortInfo {
    let by_id = links
        .iter()
        .filter(|(_, target)| *target == path)
        .map(|(link, _)| link.clone())
        .collect();
    let mut info = PortInfo {
        path,
        by_id,
        kind: PortKind::Unknown,
        vid: None,
        pid: None,
        serial_number: None,
        manufacturer: None,
        product: None,
    };
    match kind {
        SerialPortType::UsbPort(usb) => {
            info.kind = PortKind::Usb;
            info.vid = Some(usb.vid);
            info.pid = Some(usb.pid);
            info.serial_number = usb.serial_number;
            info.manufacturer = usb.manufacturer;
            info.product = usb.product;
        }
        SerialPortType::PciPort => info.kind = PortKind::Pci,
        SerialPortType::BluetoothPort => info.kind = PortKind::Bluetooth,
        SerialPortType::Unknown => {}
    }
    info
}

/// `(link, resolved target)` for every symlink in `dir`; an absent directory has none.
fn by_id_links(dir: &Path) -> Vec<(PathBuf, PathBuf)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_symlink()))
        .filter_map(|entry| {
            let link = entry.path();
            let target = std::fs::canonicalize(&link).ok()?;
            Some((link, target))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listing_ports_never_fails_on_this_machine() {
        let ports = list_ports().unwrap();
        let mut sorted = ports.clone();
        sorted.sort_by(|a, b| a.path.cmp(&b.path));
        assert_eq!(ports, sorted);
    }

    #[test]
    fn by_id_links_resolve_to_their_device() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("ttyACM7");
        std::fs::write(&target, b"").unwrap();
        let link = dir.path().join("usb-Goban_Board_SB-000417-if00");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let links = by_id_links(dir.path());
        let target = std::fs::canonicalize(&target).unwrap();
        let info = build_port_info(target.clone(), SerialPortType::PciPort, &links);
        assert_eq!(info.by_id, vec![link]);
        assert_eq!(info.kind, PortKind::Pci);
        assert!(by_id_links(&dir.path().join("missing")).is_empty());
    }
}
