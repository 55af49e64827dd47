//! The MQTT connection: client options (credentials, TLS, last will) and the event-loop task that reconnects with backoff.

use std::time::Duration;

use goban_hardware::Backoff;
use rumqttc::{
    AsyncClient, Event, EventLoop, LastWill, MqttOptions, Packet, QoS, Request, Transport,
};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use super::topics::status_topic;

/// Where and how to connect.
#[derive(Clone, Debug)]
pub struct MqttSettings {
    /// Broker host.
    pub host: String,
    /// Broker port.
    pub port: u16,
    /// TLS to the broker.
    pub tls: bool,
    /// PEM CA file for TLS; default roots when absent.
    pub ca_file: Option<std::path::PathBuf>,
    /// Client id.
    pub client_id: String,
    /// User name and password.
    pub credentials: Option<(String, String)>,
    /// Topic root.
    pub prefix: String,
    /// Outgoing queue bound while the broker is away.
    pub buffer: usize,
    /// Longest wait between reconnect attempts.
    pub max_backoff: Duration,
}

/// Why the client could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum MqttSetupError {
    /// The CA file could not be read.
    #[error("cannot read the MQTT CA file {path}: {source}")]
    CaFile {
        /// The file.
        path: String,
        /// The OS error.
        source: std::io::Error,
    },
}

/// The client id of one run: the configured id, a dash and 64 random bits. A client that
/// connects with the id of a connected one closes it (MQTT 3.1.1 section 3.1.4), and every
/// broker allows it; an id nobody can guess means nobody can knock the daemon off the
/// broker (and fire its retained `offline` will) by choosing it (issue 43). The session is
/// clean, so a new id at each start loses nothing.
pub fn session_client_id(configured: &str) -> String {
    format!("{configured}-{:016x}", rand::random::<u64>())
}

/// Client options: clean session, keep-alive, `offline` as retained last will.
pub(crate) fn options(settings: &MqttSettings) -> Result<MqttOptions, MqttSetupError> {
    let mut options = MqttOptions::new(
        settings.client_id.clone(),
        settings.host.clone(),
        settings.port,
    );
    options.set_keep_alive(Duration::from_secs(5));
    options.set_clean_session(true);
    options.set_request_channel_capacity(256);
    options.set_max_packet_size(super::MAX_PACKET_BYTES, super::MAX_PACKET_BYTES);
    options.set_last_will(LastWill::new(
        status_topic(&settings.prefix),
        "offline",
        QoS::AtLeastOnce,
        true,
    ));
    if let Some((user, password)) = &settings.credentials {
        options.set_credentials(user.clone(), password.clone());
    }
    if settings.tls {
        let transport = match &settings.ca_file {
            Some(path) => {
                let ca = std::fs::read(path).map_err(|source| MqttSetupError::CaFile {
                    path: path.display().to_string(),
                    source,
                })?;
                Transport::tls(ca, None, None)
            }
            None => Transport::tls_with_default_config(),
        };
        options.set_transport(transport);
    }
    Ok(options)
}

/// TCP options: no Nagle, since Nagle plus delayed ACKs made a 40 ms latency mode on small publishes (issue 9).
pub(crate) fn network() -> rumqttc::NetworkOptions {
    let mut network = rumqttc::NetworkOptions::new();
    network.set_tcp_nodelay(true);
    network
}

/// The wait after the first failed attempt to reach the broker, doubled after each further one.
const FIRST_RETRY: Duration = Duration::from_millis(100);

/// Drive the event loop until `stop`: report connection changes on `connected`,
/// back off (doubling up to `max_backoff`) between failed attempts, log each outage once.
pub(crate) async fn drive(
    mut events: EventLoop,
    connected: watch::Sender<bool>,
    max_backoff: Duration,
    stop: CancellationToken,
) -> EventLoop {
    // No retry crate (backon, backoff): nothing here is retried. rumqttc's `poll` reconnects
    // by itself and the event loop must keep being polled, since it holds the pending
    // publishes; all this loop adds is a pause that doubles (the workspace's one `Backoff`).
    let mut backoff = Backoff::doubling(FIRST_RETRY, max_backoff);
    let mut outage_logged = false;
    // What the broker had not acknowledged when the connection broke. rumqttc moves it to
    // `pending`, but drops it when the broker starts a new session (always, with a clean
    // session, and after a broker restart): kept here and handed back after the ConnAck, so a
    // QoS 1 message in flight is sent again rather than lost (at least once; consumers keep
    // order and duplicates by seq).
    let mut unacknowledged = std::collections::VecDeque::new();
    loop {
        let polled = tokio::select! {
            () = stop.cancelled() => break,
            polled = events.poll() => polled,
        };
        match polled {
            Ok(Event::Incoming(Packet::ConnAck(_))) => {
                tracing::info!("MQTT connected");
                backoff.reset();
                outage_logged = false;
                resend_first(&mut events, &mut unacknowledged);
                let _ = connected.send(true);
            }
            Ok(_) => {}
            Err(err) => {
                keep_unacknowledged(&mut events, &mut unacknowledged);
                let _ = connected.send(false);
                if !outage_logged {
                    tracing::warn!(cause = %err, "MQTT broker unreachable; buffering and retrying");
                    outage_logged = true;
                }
                metrics::counter!("goban_mqtt_connection_errors_total").increment(1);
                tokio::select! {
                    () = stop.cancelled() => break,
                    () = tokio::time::sleep(backoff.next_delay()) => {}
                }
            }
        }
    }
    events
}

/// After a broken connection: what rumqttc holds to send again (in-flight publishes and the
/// requests still queued), oldest first, joins what was kept from earlier failed attempts.
fn keep_unacknowledged(events: &mut EventLoop, kept: &mut std::collections::VecDeque<Request>) {
    kept.extend(events.pending.drain(..));
    tracing::debug!(kept = kept.len(), "MQTT connection broke");
}

/// After a ConnAck: the kept requests go out before anything newer (rumqttc sends its
/// `pending` first). A resumed session's own pending requests, if any, are the same messages:
/// they are replaced, not doubled.
fn resend_first(events: &mut EventLoop, kept: &mut std::collections::VecDeque<Request>) {
    if kept.is_empty() {
        return;
    }
    tracing::info!(
        messages = kept.len(),
        "MQTT: sending again what the broker had not acknowledged"
    );
    events.pending.clear();
    events.pending.extend(kept.drain(..));
}

/// Let the event loop flush what the client queued, up to `grace`, then stop it.
pub(crate) async fn flush(client: &AsyncClient, mut events: EventLoop, grace: Duration) {
    let _ = client.try_disconnect();
    let _ = tokio::time::timeout(grace, async {
        // Poll until the disconnect went out (or the connection broke).
        loop {
            match events.poll().await {
                Ok(Event::Outgoing(rumqttc::Outgoing::Disconnect)) | Err(_) => break,
                Ok(_) => {}
            }
        }
    })
    .await;
}
