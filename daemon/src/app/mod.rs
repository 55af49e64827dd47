//! The daemon proper: journal, hub, boards, MQTT, HTTP, and an orderly shutdown on SIGTERM/SIGINT within 2 s.

pub mod open_files;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use tokio_util::sync::CancellationToken;

use crate::config::Config;
use crate::journal::Journal;
use crate::mqtt::{MqttPublisher, MqttSettings};
use crate::publish::delay::Feed;
use crate::publish::hub::Hub;

/// What a started daemon tells its caller (the CLI prints it).
#[derive(Clone, Debug)]
pub struct Endpoints {
    /// REST/SSE address actually bound.
    pub http: SocketAddr,
    /// MQTT broker host and port in use.
    pub mqtt: (String, u16),
    /// Whether the broker is the embedded one.
    pub embedded_broker: bool,
}

/// A running daemon.
pub struct Daemon {
    /// Where it can be reached.
    pub endpoints: Endpoints,
    /// The board registry (tests read it).
    pub hub: Hub,
    /// The analysis released to the public (the demo says which engine runs).
    pub analysis: crate::analysis::PublicAnalysis,
    cancel: CancellationToken,
    boards: crate::runtime::Boards,
    journal: Journal,
    mqtt: MqttPublisher,
    http: tokio::task::JoinHandle<std::io::Result<()>>,
}

/// Start everything `config` describes; returns once the HTTP port is bound.
pub async fn start(config: Config) -> anyhow::Result<Daemon> {
    // Before anything opens or starts: what check-config refuses, run refuses (issue 43).
    let verdict = crate::config::preflight(&config);
    for warning in &verdict.warnings {
        tracing::warn!("{warning}");
    }
    if !verdict.errors.is_empty() {
        anyhow::bail!("invalid configuration:\n  {}", verdict.errors.join("\n  "));
    }
    // First: metric handles that boards and links keep are taken from the recorder installed
    // when they start (HTTP takes the same recorder's handle for /metrics below).
    let _ = crate::http::install_metrics();
    // Raised before the config was read (cli/mod.rs); said now that the log is set up.
    open_files::report(config.boards.len());
    let journal = Journal::open(&config.journal)
        .with_context(|| format!("opening the journal {}", config.journal.path.display()))?;
    let hub = Hub::new(8192, Arc::new(journal.archive()?));
    let (mqtt_settings, public_mqtt) = mqtt_settings(&config)?;
    let mqtt_addr = (public_mqtt.host, public_mqtt.port);
    let cancel = CancellationToken::new();
    let tournament = crate::tournament::start(&config, &hub, &mqtt_settings, &cancel)?;
    // The one broadcast delay: SSE, MQTT and the public REST view release a message at the same instant.
    let public = Feed::public(hub.clone(), config.server.broadcast_delay.0, &cancel);
    let mqtt = MqttPublisher::spawn(mqtt_settings, public.clone())?;
    // After the delay: an analysis is published only once the position it is about is public.
    let analysis = crate::analysis::start(&config.analysis, &public, &cancel);
    let boards = crate::runtime::start(&config, &hub, &journal, &cancel)?;
    // Not awaited at stop: a compaction cut short leaves whole transactions only.
    drop(crate::runtime::spawn_compaction(&config, &journal, &cancel));
    let listener = tokio::net::TcpListener::bind(config.server.listen)
        .await
        .with_context(|| format!("binding the HTTP listener {}", config.server.listen))?;
    let http_addr = listener.local_addr()?;
    let mut settings = http_settings(&config)?;
    settings.tournament = Some(tournament);
    settings.analysis = Some(analysis.clone());
    let http = tokio::spawn(crate::http::serve(
        listener,
        settings,
        public,
        cancel.child_token(),
    ));
    tracing::info!(http = %http_addr, mqtt = ?mqtt_addr, boards = config.boards.len(), "goban-bridge running");
    let endpoints = Endpoints {
        http: http_addr,
        mqtt: mqtt_addr,
        embedded_broker: public_mqtt.embedded,
    };
    Ok(Daemon {
        endpoints,
        hub,
        analysis,
        cancel,
        boards,
        journal,
        mqtt,
        http,
    })
}

fn mqtt_settings(config: &Config) -> anyhow::Result<(MqttSettings, Endpoint)> {
    let m = &config.mqtt;
    let configured = m
        .username
        .clone()
        .map(|user| (user, m.password.clone().unwrap_or_default()));
    let (host, port, tls, credentials, public) = match &m.url {
        Some(url) => {
            let public = Endpoint {
                host: url.host.clone(),
                port: url.port,
                embedded: false,
            };
            (url.host.clone(), url.port, url.tls, configured, public)
        }
        None => {
            let embedded = crate::broker::start(m)?;
            let public = Endpoint {
                host: embedded.public.ip().to_string(),
                port: embedded.public.port(),
                embedded: true,
            };
            let private = embedded.private;
            let login = Some(embedded.daemon_login);
            (
                private.ip().to_string(),
                private.port(),
                false,
                login,
                public,
            )
        }
    };
    let settings = MqttSettings {
        host,
        port,
        tls,
        ca_file: m.ca_file.clone(),
        client_id: crate::mqtt::session_client_id(&m.client_id),
        credentials,
        prefix: m.prefix.clone(),
        buffer: m.buffer,
        max_backoff: m.max_backoff.0,
    };
    Ok((settings, public))
}

/// Where MQTT clients other than the daemon connect.
struct Endpoint {
    host: String,
    port: u16,
    embedded: bool,
}

fn http_settings(config: &Config) -> anyhow::Result<crate::http::HttpSettings> {
    let server = &config.server;
    Ok(crate::http::HttpSettings {
        arbiter_tokens: crate::http::ArbiterTokens::new(server.arbiter_tokens.clone())?
            .with_named(
                server
                    .arbiters
                    .iter()
                    .map(|a| (a.name.clone(), a.token.clone()))
                    .collect(),
            )?,
        broadcast_delay: server.broadcast_delay.0,
        cors_allow_origins: crate::http::AllowOrigins::Any,
        body_limit_bytes: server.body_limit,
        metrics: crate::http::install_metrics(),
        tournament: None,
        connections: crate::http::ConnectionLimits {
            header_timeout: server.header_timeout.0,
            body_timeout: server.body_timeout.0,
            idle_timeout: server.idle_timeout.0,
            max_connections: server.max_connections,
        },
        overlay_frame_ancestors: axum::http::HeaderValue::from_str(&server.overlay_frame_ancestors)
            .context("server.overlay_frame_ancestors")?,
        analysis: None,
    })
}

impl Daemon {
    /// Stop: boards write their final device message, the journal is flushed,
    /// MQTT says `offline`; bounded so the process exits within 2 s.
    pub async fn stop(self) {
        self.cancel.cancel();
        let boards = futures::future::join_all(self.boards.supervisors);
        if tokio::time::timeout(Duration::from_millis(900), boards)
            .await
            .is_err()
        {
            tracing::warn!("some boards did not stop in time");
        }
        if let Err(err) = self.journal.flush().await {
            tracing::error!(cause = %err, "journal flush at shutdown failed");
        }
        self.mqtt.finish(Duration::from_millis(800)).await;
        let _ = tokio::time::timeout(Duration::from_millis(200), self.http).await;
        tracing::info!("goban-bridge stopped");
    }
}

/// Resolve on SIGTERM or SIGINT.
pub async fn shutdown_signal() {
    let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
        Ok(term) => term,
        Err(err) => {
            tracing::warn!(cause = %err, "no SIGTERM handler; Ctrl-C only");
            let _ = tokio::signal::ctrl_c().await;
            return;
        }
    };
    tokio::select! {
        _ = term.recv() => tracing::info!("SIGTERM"),
        _ = tokio::signal::ctrl_c() => tracing::info!("SIGINT"),
    }
}
