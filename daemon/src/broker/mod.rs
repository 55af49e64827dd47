//! The embedded MQTT broker (rumqttd, feature `embedded-broker`) used when the config names no broker: a free port if 1883 is taken, only the daemon writing under its prefix.

mod grants;
mod guard;

pub(crate) use grants::check_publish_grant;

use std::net::{IpAddr, SocketAddr, TcpListener};

/// Why the embedded broker could not start.
#[derive(Debug, thiserror::Error)]
pub enum BrokerError {
    /// No port could be bound on the address.
    #[error("no free port for the embedded MQTT broker on {0}: {1}")]
    NoPort(IpAddr, std::io::Error),
    /// This build has no embedded broker.
    #[error("built without the embedded-broker feature: set [mqtt] url to an external broker")]
    NotBuilt,
    /// The broker thread could not be started.
    #[error("cannot start the embedded broker: {0}")]
    Start(String),
}

/// The port to use: `preferred` if it is free on `host`, else one the OS picks.
pub fn pick_port(host: IpAddr, preferred: u16) -> Result<u16, BrokerError> {
    if let Ok(listener) = TcpListener::bind(SocketAddr::new(host, preferred)) {
        return listener
            .local_addr()
            .map(|a| a.port())
            .map_err(|e| BrokerError::NoPort(host, e));
    }
    let listener =
        TcpListener::bind(SocketAddr::new(host, 0)).map_err(|e| BrokerError::NoPort(host, e))?;
    listener
        .local_addr()
        .map(|a| a.port())
        .map_err(|e| BrokerError::NoPort(host, e))
}

/// The embedded broker as the daemon sees it.
#[derive(Clone, Debug)]
pub struct Embedded {
    /// Where clients connect (the guard): `embedded_host:embedded_port`.
    pub public: SocketAddr,
    /// rumqttd's private loopback listener, where the daemon itself connects.
    pub private: SocketAddr,
    /// The daemon's login there, made afresh at each start.
    pub daemon_login: (String, String),
}

/// Start rumqttd on its own thread behind the guard; returns where each side connects.
#[cfg(feature = "embedded-broker")]
pub fn start(config: &crate::config::MqttConfig) -> Result<Embedded, BrokerError> {
    let loopback = IpAddr::from([127, 0, 0, 1]);
    let private = SocketAddr::new(loopback, pick_port(loopback, 0)?);
    let daemon_login = ("goban-bridge".to_owned(), secret());
    let guard_login = rumqttc::Login::new("guard", secret());
    let logins = [
        daemon_login.clone(),
        (guard_login.username.clone(), guard_login.password.clone()),
    ];
    start_rumqttd(private, logins.into_iter().collect())?;
    let public = bind_public(config.embedded_host, config.embedded_port)?;
    let public_addr = public
        .local_addr()
        .map_err(|e| BrokerError::NoPort(config.embedded_host, e))?;
    let guard = guard::Guard {
        grants: grants::Grants {
            prefix: config.prefix.clone(),
            anonymous_read: config.embedded_anonymous_read,
            users: config.embedded_users.clone(),
        },
        inner: private,
        login: guard_login,
        max_packet: crate::mqtt::MAX_PACKET_BYTES,
    };
    tokio::spawn(guard::run(public, std::sync::Arc::new(guard)));
    Ok(Embedded {
        public: public_addr,
        private,
        daemon_login,
    })
}

/// 128 random bits, hex: the private listener's passwords.
fn secret() -> String {
    let bits: u128 = rand::random();
    format!("{bits:032x}")
}

/// The guard's listener: the preferred port, else one the OS picks.
#[cfg(feature = "embedded-broker")]
fn bind_public(host: IpAddr, preferred: u16) -> Result<tokio::net::TcpListener, BrokerError> {
    let listener = TcpListener::bind(SocketAddr::new(host, preferred))
        .or_else(|_| TcpListener::bind(SocketAddr::new(host, 0)))
        .map_err(|e| BrokerError::NoPort(host, e))?;
    listener
        .set_nonblocking(true)
        .and_then(|()| tokio::net::TcpListener::from_std(listener))
        .map_err(|e| BrokerError::NoPort(host, e))
}

/// rumqttd on `addr` (loopback), every client logging in with one of `logins`.
#[cfg(feature = "embedded-broker")]
fn start_rumqttd(
    addr: SocketAddr,
    logins: std::collections::HashMap<String, String>,
) -> Result<(), BrokerError> {
    use std::collections::HashMap;

    let connections = rumqttd::ConnectionSettings {
        connection_timeout_ms: 60_000,
        max_payload_size: crate::mqtt::MAX_PACKET_BYTES,
        max_inflight_count: 500,
        auth: Some(logins),
        external_auth: None,
        dynamic_filters: true,
    };
    let server = rumqttd::ServerSettings {
        name: "v4-1".into(),
        listen: addr,
        tls: None,
        next_connection_delay_ms: 1,
        connections,
    };
    let router = rumqttd::RouterConfig {
        max_connections: 10_010,
        max_outgoing_packet_count: 200,
        max_segment_size: 104_857_600,
        max_segment_count: 10,
        custom_segment: None,
        initialized_filters: None,
        shared_subscriptions_strategy: Default::default(),
    };
    let config = rumqttd::Config {
        id: 0,
        router,
        v4: Some(HashMap::from([("1".to_owned(), server)])),
        ..Default::default()
    };
    let mut broker = rumqttd::Broker::new(config);
    std::thread::Builder::new()
        .name("mqtt-broker".into())
        .spawn(move || {
            if let Err(err) = broker.start() {
                tracing::error!(cause = %err, "embedded MQTT broker stopped");
            }
        })
        .map_err(|e| BrokerError::Start(e.to_string()))?;
    wait_until_listening(addr);
    Ok(())
}

/// Give the broker thread up to 2 s to bind, so the first client connects at once.
#[cfg(feature = "embedded-broker")]
fn wait_until_listening(addr: SocketAddr) {
    for _ in 0..200 {
        if std::net::TcpStream::connect_timeout(&addr, std::time::Duration::from_millis(50)).is_ok()
        {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    tracing::warn!(%addr, "embedded MQTT broker slow to listen; the client will retry");
}

/// Without the feature there is no broker to start.
#[cfg(not(feature = "embedded-broker"))]
pub fn start(_config: &crate::config::MqttConfig) -> Result<Embedded, BrokerError> {
    Err(BrokerError::NotBuilt)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_taken_port_is_replaced_by_a_free_one() {
        let host = IpAddr::from([127, 0, 0, 1]);
        let taken = TcpListener::bind((host, 0)).expect("bind");
        let port = taken.local_addr().expect("addr").port();
        let picked = pick_port(host, port).expect("a free port");
        assert_ne!(picked, port);
        assert!(
            TcpListener::bind((host, picked)).is_ok(),
            "the picked port is free"
        );
    }
}
