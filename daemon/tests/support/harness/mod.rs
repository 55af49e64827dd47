//! Harness of the binary-level e2e tests (e2e_crash_recovery, e2e_broker_restart, e2e_auth_shutdown, the e2e_fault_* suite): the real daemon, devices on real ptys, MQTT and SSE clients.
// Each e2e_*.rs test binary uses a different part of this harness.
#![allow(dead_code)]

pub(crate) mod broker;
pub(crate) mod daemon;
pub(crate) mod device;
pub(crate) mod game;
pub(crate) mod hall;
pub(crate) mod mqtt;
pub(crate) mod sse;

use std::time::{Duration, Instant};

/// A free TCP port on loopback (bound, read, released).
pub(crate) fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
    listener.local_addr().expect("local addr").port()
}

/// A name no other test or run uses (topic prefixes, client ids).
pub(crate) fn unique(name: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!("{name}-{}-{}", std::process::id(), nanos % 1_000_000_000)
}

/// Polls `probe` every 50 ms until it gives `Some`; panics naming `what` after `timeout`.
pub(crate) async fn wait_for<T, F, Fut>(what: &str, timeout: Duration, mut probe: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(value) = probe().await {
            return value;
        }
        assert!(
            Instant::now() < deadline,
            "timed out after {timeout:?} waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
