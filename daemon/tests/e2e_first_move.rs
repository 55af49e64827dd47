//! A game started the moment the daemon answers, its first move made before the board was ever read (issue 39.2): the move is recovered when the board reads, and play goes on.

mod support;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::Duration;

use support::*;

fn conformance_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance")
}

/// The reference devices with a board that answers `delay_ms` late; their pty paths.
fn late_devices(delay_ms: u64) -> (Child, ChildStdin, serde_json::Value) {
    let mut python = Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/python/drive_devices.py"
        ))
        .arg(delay_ms.to_string())
        .env("GOBAN_CONFORMANCE", conformance_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3");
    let input = python.stdin.take().expect("stdin");
    let mut output = BufReader::new(python.stdout.take().expect("stdout"));
    let mut line = String::new();
    output.read_line(&mut line).expect("paths");
    (
        python,
        input,
        serde_json::from_str(&line).expect("json paths"),
    )
}

fn config(work: &std::path::Path, http_port: u16, paths: &serde_json::Value) -> std::path::PathBuf {
    let text = format!(
        "[server]\nlisten = \"127.0.0.1:{http_port}\"\narbiter_tokens = [\"{TOKEN}\"]\n[journal]\npath = {:?}\n\
         [mqtt]\nurl = \"mqtt://127.0.0.1:1883\"\nprefix = \"goban-first-{}-{http_port}\"\n\
         [analysis]\nengine = \"off\"\n\
         [[board]]\nid = \"t1\"\nboard_port = {}\nclock_port = {}\n",
        work.join("j.sqlite").display().to_string(),
        std::process::id(),
        paths["board"],
        paths["clock"]
    );
    let path = work.join("first.toml");
    std::fs::write(&path, text).expect("config");
    path
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_first_move_before_the_board_is_read_is_recovered() {
    if !conformance_dir().join("devices.py").exists() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "conformance devices missing under CI"
        );
        println!("skipped: {} not found", conformance_dir().display());
        return;
    }
    for delay_ms in [350, 900] {
        let (mut python, mut input, paths) = late_devices(delay_ms);
        let work = tempfile::tempdir().expect("tempdir");
        let http_port = free_port();
        let _daemon = Daemon::run(&config(work.path(), http_port, &paths));
        let base = format!("http://127.0.0.1:{http_port}/api/v1");
        wait_for(&format!("{base}/health"), Duration::from_secs(30), |_| true).await;
        let started = http()
            .post(format!("{base}/boards/t1/game"))
            .bearer_auth(TOKEN)
            .json(&serde_json::json!({}))
            .send()
            .await
            .expect("start");
        assert!(started.status().is_success(), "start: {}", started.status());
        // Q16, Q4, D16, D4 in wire index order; the first stone and press at once.
        let moves = [
            (72, "B", "L"),
            (300, "W", "R"),
            (60, "B", "L"),
            (288, "W", "R"),
        ];
        for (k, (index, colour, button)) in moves.into_iter().enumerate() {
            if k > 0 {
                tokio::time::sleep(Duration::from_millis(1_200)).await;
            }
            writeln!(input, "set {index} {colour}").expect("set");
            tokio::time::sleep(Duration::from_millis(150)).await;
            writeln!(input, "press {button}").expect("press");
        }
        let board = format!("{base}/boards/t1");
        let state = wait_for(&board, Duration::from_secs(30), |s| {
            s["moves"].as_array().is_some_and(|m| m.len() >= 4)
                || s["device"]["unexplained_presses"].as_u64() >= Some(4)
        })
        .await;
        let points: Vec<&str> = state["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .filter_map(|m| m["point"].as_str())
            .collect();
        assert_eq!(
            points,
            ["Q16", "Q4", "D16", "D4"],
            "board answering {delay_ms} ms late: {}",
            summary(&state)
        );
        assert_eq!(
            state["infractions"].as_array().map(Vec::len),
            Some(0),
            "{}",
            summary(&state)
        );
        let _ = writeln!(input, "quit");
        let _ = python.wait();
    }
}
