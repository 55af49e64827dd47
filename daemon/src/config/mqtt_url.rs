//! The `[mqtt] url`: `mqtt://host:port` or `mqtts://host:port`, parsed into host, port and TLS.

use std::fmt;
use std::str::FromStr;

use super::types::serde_via_str;
use serde::{Deserialize, Deserializer, Serialize, Serializer, de};

/// A broker address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MqttUrl {
    /// Host name or address.
    pub host: String,
    /// TCP port; default 1883, or 8883 with TLS.
    pub port: u16,
    /// `mqtts://`: TLS to the broker.
    pub tls: bool,
}

impl FromStr for MqttUrl {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (tls, rest) = if let Some(rest) = text.strip_prefix("mqtts://") {
            (true, rest)
        } else if let Some(rest) = text.strip_prefix("mqtt://") {
            (false, rest)
        } else {
            return Err(format!(
                "MQTT url {text:?} must start with mqtt:// or mqtts://"
            ));
        };
        let rest = rest.trim_end_matches('/');
        let (host, port) = match rest.rsplit_once(':') {
            Some((host, port)) if !host.ends_with(']') || host.starts_with('[') => {
                let port = port
                    .parse::<u16>()
                    .map_err(|_| format!("MQTT url {text:?}: bad port {port:?}"))?;
                (host, port)
            }
            _ => (rest, if tls { 8883 } else { 1883 }),
        };
        let host = host.trim_start_matches('[').trim_end_matches(']');
        if host.is_empty() || host.contains('/') {
            return Err(format!("MQTT url {text:?}: expected mqtt://host:port"));
        }
        Ok(Self {
            host: host.to_owned(),
            port,
            tls,
        })
    }
}

impl fmt::Display for MqttUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scheme = if self.tls { "mqtts" } else { "mqtt" };
        write!(f, "{scheme}://{}:{}", self.host, self.port)
    }
}

serde_via_str!(MqttUrl);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_scheme_host_and_port() {
        let url: MqttUrl = "mqtt://127.0.0.1:1884".parse().expect("valid");
        assert_eq!(
            (url.host.as_str(), url.port, url.tls),
            ("127.0.0.1", 1884, false)
        );
        let url: MqttUrl = "mqtts://broker.example".parse().expect("valid");
        assert_eq!((url.port, url.tls), (8883, true));
        assert!("tcp://x:1".parse::<MqttUrl>().is_err());
        assert!("mqtt://x:notaport".parse::<MqttUrl>().is_err());
        assert!("mqtt://".parse::<MqttUrl>().is_err());
    }
}
