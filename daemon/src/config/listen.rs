//! The HTTP listen address: an IP socket address, or a host name with a port resolved once when the config loads.

use std::net::{SocketAddr, ToSocketAddrs};

use serde::{Deserialize, Deserializer, de};

/// `"127.0.0.1:8080"`, `"[::1]:8080"`, `"0.0.0.0:8080"` or `"localhost:8080"`. A name is
/// resolved now, so a typo shows in `check-config` rather than at bind time; of its
/// addresses the first IPv4 one is taken (clients of `localhost` try it first).
pub fn parse(text: &str) -> Result<SocketAddr, String> {
    let text = text.trim();
    if let Ok(address) = text.parse::<SocketAddr>() {
        return Ok(address);
    }
    let examples = "e.g. \"127.0.0.1:8080\" (this machine), \"0.0.0.0:8080\" (every interface) \
                    or \"localhost:8080\"";
    let Some((host, port)) = text.rsplit_once(':') else {
        return Err(format!(
            "listen address {text:?} has no port; write host:port, {examples}"
        ));
    };
    if port.parse::<u16>().is_err() {
        return Err(format!(
            "listen address {text:?}: port {port:?} is not a number from 0 to 65535"
        ));
    }
    if host.is_empty() || host.contains(['/', ' ', '[', ']']) {
        return Err(format!(
            "listen address {text:?}: {host:?} is not a host name; {examples}"
        ));
    }
    let addresses: Vec<SocketAddr> = text
        .to_socket_addrs()
        .map_err(|err| {
            format!("listen address {text:?}: cannot resolve {host:?} ({err}); {examples}")
        })?
        .collect();
    addresses
        .iter()
        .find(|a| a.is_ipv4())
        .or_else(|| addresses.first())
        .copied()
        .ok_or_else(|| format!("listen address {text:?}: {host:?} resolves to no address"))
}

/// Serde through [`parse`], so the error is reported at the value's line.
pub(super) fn deserialize<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<SocketAddr, D::Error> {
    let text = String::deserialize(deserializer)?;
    parse(&text).map_err(de::Error::custom)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ip_addresses_parse_as_they_are() {
        assert_eq!(
            parse("127.0.0.1:8080").unwrap().to_string(),
            "127.0.0.1:8080"
        );
        assert_eq!(parse("[::1]:9000").unwrap().to_string(), "[::1]:9000");
    }

    #[test]
    fn localhost_resolves_to_a_loopback_address() {
        let address = parse("localhost:8080").expect("localhost resolves");
        assert!(address.ip().is_loopback(), "{address}");
        assert_eq!(address.port(), 8080);
    }

    #[test]
    fn errors_say_what_is_missing() {
        let no_port = parse("localhost").unwrap_err();
        assert!(
            no_port.contains("no port") && no_port.contains("localhost:8080"),
            "{no_port}"
        );
        let bad_port = parse("localhost:http").unwrap_err();
        assert!(bad_port.contains("not a number"), "{bad_port}");
        let unknown = parse("no-such-host.invalid:8080").unwrap_err();
        assert!(
            unknown.contains("cannot resolve \"no-such-host.invalid\""),
            "{unknown}"
        );
    }
}
