//! A hall started under a soft limit of open files below its needs (a service manager's usual
//! 1,024 stops a hall at about 330 boards): the daemon raises its own limit to the hard one,
//! and every board's ports open (docs/deploy.md, "Open files").
//!
//! Scaled down: 40 boards (80 serial ports, 40 alarms) under a soft limit of 40, a hard limit
//! of 4,096, set with util-linux's `prlimit` on the real binary.

#[path = "support/mod.rs"]
mod support;

use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;
use support::{Daemon, spawn_sim, wait_for, write_config};
use tokio_util::sync::CancellationToken;

const BOARDS: usize = 40;

/// The soft and hard `Max open files` of a process, from `/proc/<pid>/limits`.
fn open_files_limits(pid: u32) -> Option<(String, String)> {
    let limits = std::fs::read_to_string(format!("/proc/{pid}/limits")).ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    let mut words = line.split_whitespace().skip(3);
    Some((words.next()?.to_owned(), words.next()?.to_owned()))
}

fn healthy_boards(health: &Value) -> usize {
    health["boards"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|board| board["healthy"] == true)
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_soft_limit_below_the_halls_needs_is_raised_and_every_port_opens() {
    if Command::new("prlimit").arg("--version").output().is_err() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "prlimit (util-linux) is required under CI"
        );
        println!("skipped: prlimit (util-linux) is not installed");
        return;
    }
    let work = tempfile::tempdir().expect("tempdir");
    let http_port = support::free_port();
    let config = write_config(work.path(), http_port, 1883, "goban-open-files", BOARDS);
    let cancel = CancellationToken::new();
    let _tables = spawn_sim(
        &work.path().join("ports"),
        BOARDS,
        1.0,
        r#"{"steps": []}"#,
        &cancel,
    );
    // The real binary under `prlimit --nofile=soft:hard`, killed on drop.
    let daemon = Daemon {
        child: Command::new("prlimit")
            .arg("--nofile=40:4096")
            .arg(env!("CARGO_BIN_EXE_goban-bridge"))
            .args(["run", "--config"])
            .arg(&config)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn prlimit goban-bridge"),
    };

    let health = format!("http://127.0.0.1:{http_port}/api/v1/health");
    let seen = wait_for(&health, Duration::from_secs(60), |h| {
        healthy_boards(h) == BOARDS
    })
    .await;
    assert_eq!(healthy_boards(&seen), BOARDS, "{seen}");
    // prlimit runs the daemon in its own process: the limits are the daemon's.
    assert_eq!(
        open_files_limits(daemon.child.id()),
        Some(("4096".to_owned(), "4096".to_owned())),
        "the soft limit was raised to the hard one"
    );
    cancel.cancel();
}
