//! Interoperability: the daemon plays a game read from the independent Python devices of ../shared/conformance (a device the project did not write).

mod support;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

use support::*;

fn conformance_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_daemon_reads_a_game_from_the_reference_devices() {
    let dir = conformance_dir();
    if !dir.join("devices.py").exists() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "conformance devices missing under CI"
        );
        println!("skipped: {} not found", dir.display());
        return;
    }
    let mut python = Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/python/drive_devices.py"
        ))
        .env("GOBAN_CONFORMANCE", &dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3");
    let mut input = python.stdin.take().expect("stdin");
    let mut output = BufReader::new(python.stdout.take().expect("stdout"));
    let mut line = String::new();
    output.read_line(&mut line).expect("paths");
    let paths: serde_json::Value = serde_json::from_str(&line).expect("json paths");

    let work = tempfile::tempdir().expect("tempdir");
    let http_port = free_port();
    let text = format!(
        "[server]\nlisten = \"127.0.0.1:{http_port}\"\narbiter_tokens = [\"{TOKEN}\"]\n[journal]\npath = {:?}\n\
         [mqtt]\nurl = \"mqtt://127.0.0.1:1883\"\nprefix = \"goban-py-{}\"\n\
         [[board]]\nid = \"py-1\"\nboard_port = {}\nclock_port = {}\n\
         time_control = \"byoyomi-cn:main=10m,reserve=3\"\n",
        work.path().join("j.sqlite").display().to_string(),
        std::process::id(),
        paths["board"],
        paths["clock"]
    );
    let config = work.path().join("py.toml");
    std::fs::write(&config, text).expect("config");
    let _daemon = Daemon::run(&config);
    let board = format!("http://127.0.0.1:{http_port}/api/v1/boards/py-1");
    wait_for(&board, Duration::from_secs(20), |s| {
        s["device"]["board"] == "connected" && s["device"]["clock"] == "connected"
    })
    .await;

    let started = http()
        .post(format!("{board}/game"))
        .bearer_auth(TOKEN)
        .json(&serde_json::json!({"black": "Py Black", "white": "Py White"}))
        .send()
        .await
        .expect("start");
    assert!(
        started.status().is_success(),
        "start game: {}",
        started.status()
    );

    // Q16 (index 3*19+15) for Black, D4 (index 15*19+3) for White: wire index order of wire-protocol.md.
    for (index, colour, button) in [(72, "B", "L"), (288, "W", "R"), (60, "B", "L")] {
        writeln!(input, "set {index} {colour}").expect("set");
        tokio::time::sleep(Duration::from_millis(900)).await;
        writeln!(input, "press {button}").expect("press");
        tokio::time::sleep(Duration::from_millis(400)).await;
    }
    let state = wait_for(&board, Duration::from_secs(20), |s| {
        s["move_number"].as_u64() >= Some(3)
    })
    .await;
    let points: Vec<&str> = state["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .filter_map(|m| m["point"].as_str())
        .collect();
    assert_eq!(points, ["Q16", "D4", "D16"], "{}", summary(&state));
    assert_eq!(state["black"], "Py Black");

    writeln!(input, "frames").expect("frames");
    line.clear();
    output.read_line(&mut line).expect("frames line");
    let kinds: Vec<String> = serde_json::from_str(&line).expect("json frames");
    assert!(
        kinds.iter().any(|k| k == "HELLO?"),
        "the daemon asked who is there: {kinds:?}"
    );
    assert!(
        kinds.iter().any(|k| k == "SHOW"),
        "the daemon drove the clock display: {kinds:?}"
    );
    let _ = writeln!(input, "quit");
    let _ = python.wait();
}
