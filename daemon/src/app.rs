//! The daemon proper: journal, hub, boards, MQTT, HTTP, and an orderly shutdown on SIGTERM/SIGINT within 2 s.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use tokio_util::sync::CancellationToken;

use crate::config::Config;
use crate::delay::Feed;
use crate::hub::Hub;
use crate::journal::Journal;
use crate::mqtt::{MqttPublisher, MqttSettings};

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
    // First: metric handles that boards and links keep are taken from the recorder installed
    // when they start (HTTP takes the same recorder's handle for /metrics below).
    let _ = crate::http::install_metrics();
    // Raised before the config was read (cli.rs); said now that the log is set up.
    crate::open_files::report(config.boards.len());
    let journal = Journal::open(&config.journal)
        .with_context(|| format!("opening the journal {}", config.journal.path.display()))?;
    let hub = Hub::new(8192, Arc::new(journal.archive()?));
    let (mqtt_settings, embedded) = mqtt_settings(&config)?;
    let mqtt_addr = (mqtt_settings.host.clone(), mqtt_settings.port);
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
        embedded_broker: embedded,
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

fn mqtt_settings(config: &Config) -> anyhow::Result<(MqttSettings, bool)> {
    let m = &config.mqtt;
    let (host, port, tls, embedded) = match &m.url {
        Some(url) => (url.host.clone(), url.port, url.tls, false),
        None => {
            let addr = crate::broker::start(m.embedded_host, m.embedded_port)?;
            (addr.ip().to_string(), addr.port(), false, true)
        }
    };
    let credentials = m
        .username
        .clone()
        .map(|user| (user, m.password.clone().unwrap_or_default()));
    let settings = MqttSettings {
        host,
        port,
        tls,
        ca_file: m.ca_file.clone(),
        client_id: m.client_id.clone(),
        credentials,
        prefix: m.prefix.clone(),
        buffer: m.buffer,
        max_backoff: m.max_backoff.0,
    };
    Ok((settings, embedded))
}

fn http_settings(config: &Config) -> anyhow::Result<crate::http::HttpSettings> {
    Ok(crate::http::HttpSettings {
        arbiter_tokens: crate::http::ArbiterTokens::new(config.server.arbiter_tokens.clone())?,
        broadcast_delay: config.server.broadcast_delay.0,
        cors_allow_origins: crate::http::AllowOrigins::Any,
        body_limit_bytes: config.server.body_limit,
        metrics: crate::http::install_metrics(),
        tournament: None,
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
