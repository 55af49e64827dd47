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

    /// WHATWG URL parsing by the `url` crate (IPv6 brackets, ports, percent-encoding);
    /// we only check what a broker address may hold: the scheme, a host, no path,
    /// query, credentials or fragment.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let url = url::Url::parse(text).map_err(|err| {
            format!("MQTT url {text:?}: {err}; expected mqtt://host:port or mqtts://host:port")
        })?;
        let tls = match url.scheme() {
            "mqtts" => true,
            "mqtt" => false,
            _ => {
                return Err(format!(
                    "MQTT url {text:?} must start with mqtt:// or mqtts://"
                ));
            }
        };
        let host = match url.host() {
            Some(url::Host::Ipv6(address)) => address.to_string(),
            Some(host) if !host.to_string().is_empty() => host.to_string(),
            _ => return Err(format!("MQTT url {text:?}: expected mqtt://host:port")),
        };
        if !matches!(url.path(), "" | "/") || url.query().is_some() || url.fragment().is_some() {
            return Err(format!(
                "MQTT url {text:?}: only mqtt://host:port, without a path or query"
            ));
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(format!("MQTT url {text:?}: put no credentials in the url"));
        }
        Ok(Self {
            host,
            port: url.port().unwrap_or(if tls { 8883 } else { 1883 }),
            tls,
        })
    }
}

impl fmt::Display for MqttUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scheme = if self.tls { "mqtts" } else { "mqtt" };
        if self.host.contains(':') {
            write!(f, "{scheme}://[{}]:{}", self.host, self.port)
        } else {
            write!(f, "{scheme}://{}:{}", self.host, self.port)
        }
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
        assert!("mqtt://x:70000".parse::<MqttUrl>().is_err());
        assert!("mqtt://x/topic".parse::<MqttUrl>().is_err());
        assert!("mqtt://user:pw@x".parse::<MqttUrl>().is_err());
    }

    #[test]
    fn ipv6_hosts_lose_their_brackets_and_get_them_back() {
        let url: MqttUrl = "mqtt://[::1]:1884/".parse().expect("valid");
        assert_eq!((url.host.as_str(), url.port), ("::1", 1884));
        assert_eq!(url.to_string(), "mqtt://[::1]:1884");
        let url: MqttUrl = "MQTT://Broker.Example".parse().expect("valid");
        assert_eq!((url.host.as_str(), url.port), ("Broker.Example", 1883));
    }
}
