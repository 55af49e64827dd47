//! The desk's MQTT voice: `<prefix>/tournament/results` (QoS 1) and `<prefix>/tournament/standings` (QoS 1, retained).
//!
//! Its own MQTT client beside the board publisher, so the board topics'
//! ordering and buffering are untouched; client id `<client_id>-tournament`.

use std::time::Duration;

use rumqttc::{AsyncClient, MqttOptions, QoS, Transport};
use tokio_util::sync::CancellationToken;

use crate::mqtt::{MAX_PACKET_BYTES, MqttSettings};

/// Where the desk's MQTT messages go: `<prefix>/tournament/<name>`.
pub trait Announce: Send + Sync {
    /// Publishes `payload` (JSON) under `tournament/<name>`; `retain` for the standings.
    fn publish(&self, name: &'static str, payload: String, retain: bool) -> Result<(), String>;
}

/// A connected (in the background) announcer.
pub struct MqttAnnounce {
    client: AsyncClient,
    prefix: String,
}

impl MqttAnnounce {
    /// Connects to the broker of `settings`; the connection runs until `stop`.
    pub fn spawn(settings: &MqttSettings, stop: CancellationToken) -> Result<Self, String> {
        let mut options = MqttOptions::new(
            format!("{}-tournament", settings.client_id),
            settings.host.clone(),
            settings.port,
        );
        options.set_keep_alive(Duration::from_secs(5));
        options.set_max_packet_size(MAX_PACKET_BYTES, MAX_PACKET_BYTES);
        if let Some((user, password)) = &settings.credentials {
            options.set_credentials(user.clone(), password.clone());
        }
        if settings.tls {
            let transport = match &settings.ca_file {
                Some(path) => Transport::tls(
                    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?,
                    None,
                    None,
                ),
                None => Transport::tls_with_default_config(),
            };
            options.set_transport(transport);
        }
        let (client, mut events) = AsyncClient::new(options, 64);
        let max_backoff = settings.max_backoff;
        tokio::spawn(async move {
            let mut backoff =
                goban_hardware::Backoff::doubling(Duration::from_millis(100), max_backoff);
            loop {
                let polled = tokio::select! {
                    () = stop.cancelled() => break,
                    polled = events.poll() => polled,
                };
                if polled.is_ok() {
                    backoff.reset();
                } else {
                    tokio::time::sleep(backoff.next_delay()).await;
                }
            }
        });
        Ok(Self {
            client,
            prefix: settings.prefix.clone(),
        })
    }
}

impl Announce for MqttAnnounce {
    fn publish(&self, name: &'static str, payload: String, retain: bool) -> Result<(), String> {
        let topic = format!("{}/tournament/{name}", self.prefix);
        self.client
            .try_publish(topic, QoS::AtLeastOnce, retain, payload)
            .map_err(|e| e.to_string())
    }
}
