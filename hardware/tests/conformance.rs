//! Interoperability with the independent Python devices of `shared/conformance` over real pseudo-terminals.

mod common;

use common::{HostBoard, frames};
use goban_hardware::{LinkConfig, LinkEvent, SerialConnector, spawn_link};
use goban_protocol::{Button, DeviceKind, Frame, PointState};
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::Command;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// Python side: a board and a clock from devices.py; plays two moves when told, then waits.
const SCRIPT: &str = r#"
import sys, time
from devices import Board, Clock
b = Board(size=9, serial="PY-B1")
c = Clock(serial="PY-C1")
print(b.path, c.path, flush=True)
sys.stdin.readline()
b.set([(40, 'B')]); c.press('L'); time.sleep(0.2)
b.set([(41, 'W')]); c.press('R')
print("done", flush=True)
sys.stdin.readline()
"#;

fn conformance_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance");
    if dir.join("devices.py").is_file() {
        return Some(dir);
    }
    assert!(
        std::env::var("CI").map_or(true, |v| v != "true"),
        "shared/conformance missing under CI"
    );
    eprintln!("skipped: {} not found", dir.display());
    None
}

/// Waits (real time, generously) for an event that satisfies `pred`, keeping everything seen.
async fn wait_for(
    rx: &mut mpsc::Receiver<LinkEvent>,
    seen: &mut Vec<LinkEvent>,
    pred: impl Fn(&LinkEvent) -> bool,
) {
    let found = tokio::time::timeout(Duration::from_secs(20), async {
        while let Some(event) = rx.recv().await {
            let done = pred(&event);
            seen.push(event);
            if done {
                return;
            }
        }
    })
    .await;
    assert!(found.is_ok(), "event not seen: {seen:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn links_read_the_independent_python_devices() {
    let Some(dir) = conformance_dir() else { return };
    let Ok(mut child) = Command::new("python3")
        .args(["-c", SCRIPT])
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
    else {
        eprintln!("skipped: python3 not available");
        return;
    };
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let paths = lines.next_line().await.unwrap().unwrap();
    let (board_path, clock_path) = paths.split_once(' ').unwrap();
    let cancel = CancellationToken::new();
    let (board_tx, mut board_rx) = mpsc::channel(256);
    let (clock_tx, mut clock_rx) = mpsc::channel(256);
    let board_config = LinkConfig::expecting(&[DeviceKind::Board]);
    let _board = spawn_link(
        SerialConnector::new(board_path),
        board_config,
        board_tx,
        cancel.clone(),
    );
    let _clock = spawn_link(
        SerialConnector::new(clock_path),
        LinkConfig::expecting(&[DeviceKind::Clock]),
        clock_tx,
        cancel.clone(),
    );
    let (mut board_seen, mut clock_seen) = (Vec::new(), Vec::new());
    let snap = |e: &LinkEvent| {
        matches!(
            e,
            LinkEvent::Frame {
                frame: Frame::Snap { .. },
                ..
            }
        )
    };
    wait_for(&mut board_rx, &mut board_seen, snap).await;
    wait_for(&mut clock_rx, &mut clock_seen, |e| {
        matches!(e, LinkEvent::Connected { .. })
    })
    .await;
    stdin.write_all(b"go\n").await.unwrap();
    let white = |e: &LinkEvent| matches!(e, LinkEvent::Frame { frame: Frame::Diff { changes, .. }, .. } if changes[0].state == PointState::White);
    wait_for(&mut board_rx, &mut board_seen, white).await;
    let second_press = |e: &LinkEvent| {
        matches!(
            e,
            LinkEvent::Frame {
                frame: Frame::Press {
                    button: Button::R,
                    ..
                },
                ..
            }
        )
    };
    wait_for(&mut clock_rx, &mut clock_seen, second_press).await;
    let mut host = HostBoard::default();
    frames(&board_seen).into_iter().for_each(|f| host.handle(f));
    assert_eq!(host.points[40], PointState::Black);
    assert_eq!(host.points[41], PointState::White);
    let Some(LinkEvent::Connected { devices, .. }) = board_seen.first() else {
        panic!("{board_seen:?}")
    };
    assert_eq!(
        (devices[0].serial.as_str(), devices[0].firmware.as_str()),
        ("PY-B1", "heldout-1")
    );
    cancel.cancel();
    let _ = stdin.write_all(b"end\n").await;
    let _ = child.wait().await;
}
