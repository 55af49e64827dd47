//! Serial port settings (baud and framing from config) and opening a port by path.

use crate::error::HardwareError;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use tokio_serial::{SerialPortBuilderExt, SerialStream};

/// Number of data bits per character.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DataBits {
    /// 5 bits.
    Five,
    /// 6 bits.
    Six,
    /// 7 bits.
    Seven,
    /// 8 bits (wire protocol v1 default).
    #[default]
    Eight,
}

/// Parity bit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Parity {
    /// No parity (default).
    #[default]
    None,
    /// Odd parity.
    Odd,
    /// Even parity.
    Even,
}

/// Number of stop bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopBits {
    /// One stop bit (default).
    #[default]
    One,
    /// Two stop bits.
    Two,
}

/// Flow control.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FlowControl {
    /// None (default).
    #[default]
    None,
    /// XON/XOFF.
    Software,
    /// RTS/CTS.
    Hardware,
}

/// Line settings of one port; the defaults are wire protocol v1's "Physical layer": 115200 8N1, no flow control.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SerialSettings {
    /// Baud rate in bits per second. Default 115200.
    pub baud: u32,
    /// Data bits. Default `eight`.
    pub data_bits: DataBits,
    /// Parity. Default `none`.
    pub parity: Parity,
    /// Stop bits. Default `one`.
    pub stop_bits: StopBits,
    /// Flow control. Default `none`.
    pub flow_control: FlowControl,
}

impl Default for SerialSettings {
    fn default() -> Self {
        Self {
            baud: 115_200,
            data_bits: DataBits::Eight,
            parity: Parity::None,
            stop_bits: StopBits::One,
            flow_control: FlowControl::None,
        }
    }
}

impl SerialSettings {
    /// A `tokio-serial` builder for `path` with these settings.
    pub fn builder(&self, path: &Path) -> tokio_serial::SerialPortBuilder {
        tokio_serial::new(path.to_string_lossy(), self.baud)
            .data_bits(match self.data_bits {
                DataBits::Five => tokio_serial::DataBits::Five,
                DataBits::Six => tokio_serial::DataBits::Six,
                DataBits::Seven => tokio_serial::DataBits::Seven,
                DataBits::Eight => tokio_serial::DataBits::Eight,
            })
            .parity(match self.parity {
                Parity::None => tokio_serial::Parity::None,
                Parity::Odd => tokio_serial::Parity::Odd,
                Parity::Even => tokio_serial::Parity::Even,
            })
            .stop_bits(match self.stop_bits {
                StopBits::One => tokio_serial::StopBits::One,
                StopBits::Two => tokio_serial::StopBits::Two,
            })
            .flow_control(match self.flow_control {
                FlowControl::None => tokio_serial::FlowControl::None,
                FlowControl::Software => tokio_serial::FlowControl::Software,
                FlowControl::Hardware => tokio_serial::FlowControl::Hardware,
            })
    }
}

/// Opens the serial port at `path` (a `/dev/ttyACM0`, a `/dev/serial/by-id/...` link or a
/// pseudo-terminal) for async use. Must be called inside a tokio runtime.
pub fn open_serial(path: &Path, settings: &SerialSettings) -> Result<SerialStream, HardwareError> {
    settings
        .builder(path)
        .open_native_async()
        .map_err(|source| HardwareError::Open {
            path: PathBuf::from(path),
            source,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_115200_8n1_without_flow_control() {
        let settings: SerialSettings = serde_json::from_str("{}").unwrap();
        assert_eq!(settings, SerialSettings::default());
        assert_eq!(settings.baud, 115_200);
        assert_eq!(settings.data_bits, DataBits::Eight);
        assert_eq!(settings.parity, Parity::None);
        assert_eq!(settings.stop_bits, StopBits::One);
        assert_eq!(settings.flow_control, FlowControl::None);
    }

    #[test]
    fn settings_parse_from_config_and_reject_unknown_fields() {
        let settings: SerialSettings =
            serde_json::from_str(r#"{"baud": 9600, "parity": "even", "stop_bits": "two"}"#)
                .unwrap();
        assert_eq!(settings.baud, 9600);
        assert_eq!(settings.parity, Parity::Even);
        assert_eq!(settings.stop_bits, StopBits::Two);
        assert!(serde_json::from_str::<SerialSettings>(r#"{"baud_rate": 9600}"#).is_err());
    }

    #[tokio::test]
    async fn opening_a_missing_port_is_a_clear_error() {
        let err = open_serial(
            Path::new("/dev/serial/by-id/usb-nobody-here"),
            &SerialSettings::default(),
        )
        .unwrap_err();
        assert!(matches!(err, HardwareError::Open { .. }));
        assert!(err.to_string().contains("usb-nobody-here"));
    }
}
