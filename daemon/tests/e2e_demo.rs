//! `goban-bridge demo` as a newcomer runs it: the addresses printed once, no WARN in a normal
//! run, one "device connected" per port, the next game started when one ends, and its run
//! directory gone after Ctrl-C.

mod support;

use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;

/// Four moves, then Black resigns: a game short enough to see the next one start.
const SHORT_GAME: &str =
    "(;GM[1]FF[4]SZ[19]KM[7.5]PB[Black]PW[White]RE[W+R];B[pd];W[dp];B[pp];W[dd])";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn demo_keeps_playing_logs_plainly_and_cleans_up() {
    let scratch = tempfile::tempdir().expect("tempdir");
    let runtime = scratch.path().join("runtime");
    std::fs::create_dir(&runtime).expect("runtime dir");
    let games = scratch.path().join("short.sgf");
    std::fs::write(&games, SHORT_GAME).expect("write sgf");
    let stdout = scratch.path().join("stdout.txt");
    let stderr = scratch.path().join("stderr.txt");
    let port = support::free_port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_goban-bridge"))
        .args(["demo", "--boards", "2", "--speed", "100", "--listen"])
        .arg(format!("127.0.0.1:{port}"))
        .arg("--games")
        .arg(&games)
        .env("XDG_RUNTIME_DIR", &runtime)
        .env_remove("RUST_LOG")
        .env("NO_COLOR", "1")
        .stdout(std::fs::File::create(&stdout).expect("stdout file"))
        .stderr(std::fs::File::create(&stderr).expect("stderr file"))
        .stdin(Stdio::null())
        .spawn()
        .expect("spawn goban-bridge demo");

    // The daemon names games `<date>-<board>-<epoch>`: epoch 2 is the table's second game.
    let url = format!("http://127.0.0.1:{port}/api/v1/boards/table-1");
    let second = support::wait_for(&url, Duration::from_secs(90), |state: &Value| {
        state["game"].as_str().is_some_and(|g| g.ends_with("-2"))
            && state["move_number"].as_u64().unwrap_or(0) > 0
    })
    .await;
    assert!(
        std::fs::read_dir(&runtime).expect("runtime").count() == 1,
        "the demo runs in one directory under $XDG_RUNTIME_DIR"
    );

    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill -INT");
    assert!(status.success());
    let exit = child.wait().expect("wait");
    assert!(exit.success(), "demo exit: {exit}");

    let out = std::fs::read_to_string(&stdout).expect("stdout");
    let err = std::fs::read_to_string(&stderr).expect("stderr");
    let logs = format!("{out}{err}");
    assert_eq!(
        std::fs::read_dir(&runtime).expect("runtime").count(),
        0,
        "the demo's run directory must go on exit"
    );
    assert_eq!(
        out.matches("goban-bridge is running").count(),
        1,
        "the addresses are printed once:\n{out}"
    );
    for wanted in [
        "/board/table-1",
        "/api/v1/boards/table-1/sgf",
        "mosquitto_sub -h",
    ] {
        assert!(out.contains(wanted), "stdout lacks {wanted}:\n{out}");
    }
    let warnings: Vec<&str> = logs
        .lines()
        .filter(|l| l.contains(" WARN ") || l.contains(" ERROR "))
        .collect();
    assert!(
        warnings.is_empty(),
        "a normal demo run warns:\n{}",
        warnings.join("\n")
    );
    assert!(
        !logs.contains('\u{1b}'),
        "colour codes in logs that are not a terminal"
    );
    for table in ["table-1", "table-2"] {
        for device in ["board", "clock"] {
            let port = format!("usb-goban-sim-{table}-{device}");
            let connected = logs
                .lines()
                .filter(|l| l.contains("health: device connected") && l.contains(&port))
                .count();
            assert_eq!(connected, 1, "\"device connected\" for {port}:\n{logs}");
        }
    }
    assert!(
        logs.contains("demo: next game"),
        "no next game logged; table-1 was at {}",
        support::summary(&second)
    );
}
