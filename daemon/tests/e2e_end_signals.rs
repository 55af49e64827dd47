//! The physical end signals of CN2002 through the real daemon and devices on ptys: resignation stones at a corner (v1 board), zone stones of the agreed end (v1.1 `ZONE` board), the wrong order, one signal alone.

#[path = "support/harness/mod.rs"]
mod harness;

use std::time::Duration;

use harness::daemon::{BOARD, Daemon, Setup, TOKEN};
use harness::device::Device;
use harness::game::{OPENING, play};
use serde_json::{Value, json};

const BROKER: u16 = 1883;

/// Starts the daemon on `board` and plays three moves: White is to move.
async fn three_moves(dir: &std::path::Path, board: &Device, clock: &Device) -> Daemon {
    let setup = Setup::new(dir, board.path(), clock.path(), BROKER);
    let daemon = Daemon::start(&setup, 1).await;
    daemon
        .wait_state("the autostarted game", |s| s["phase"] == "playing")
        .await;
    for mv in &OPENING[..3] {
        play(&daemon, board, clock, *mv).await;
    }
    daemon
}

fn signal(state: &Value) -> &str {
    state["end_signal"]["signal"].as_str().unwrap_or("none")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_stones_at_the_corner_propose_a_resignation_the_arbiter_confirms() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (board, clock) = (Device::board(9), Device::clock());
    let daemon = three_moves(dir.path(), &board, &clock).await;
    // White resigns: two white stones at White's lower right, A9 and B9 (indices 0 and 1).
    board.set(&[(0, b'W'), (1, b'W')]);
    let state = daemon
        .wait_state("the resignation proposal", |s| signal(s) == "resignation")
        .await;
    assert_eq!(state["proposed_result"], "B+R", "{state}");
    assert_eq!(state["end_signal"]["color"], "white", "{state}");
    assert_eq!(state["move_number"], 3, "no move read: {state}");
    assert_eq!(state["phase"], "playing", "the arbiter confirms: {state}");
    assert_eq!(
        state["infractions"].as_array().map(Vec::len),
        Some(0),
        "no double move: {state}"
    );
    let path = format!("/boards/{BOARD}/result");
    let (status, answer) = daemon
        .post(&path, &json!({"result": "B+R"}), Some(TOKEN))
        .await;
    assert_eq!(status, 200, "{answer}");
    let state = daemon
        .wait_state("the confirmed resignation", |s| s["phase"] == "finished")
        .await;
    assert_eq!(state["result"], "B+R", "{state}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn zone_stones_end_play_only_in_the_right_order() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (board, clock) = (Device::board_with_zones(9), Device::clock());
    let daemon = three_moves(dir.path(), &board, &clock).await;

    // Black is not to move: Black's signal first is out of order and changes nothing.
    board.zones(b'W', b'.');
    let state = daemon
        .wait_state("the out-of-order signal", |s| signal(s) == "out_of_order")
        .await;
    assert_eq!(state["end_signal"]["zone"], "black", "{state}");
    assert_eq!(state["phase"], "playing", "{state}");
    board.zones(b'.', b'.');

    // White, to move, signals first: one signal alone proposes, play is not over.
    board.zones(b'.', b'B');
    let state = daemon
        .wait_state("White's proposal", |s| signal(s) == "agreed_end_proposed")
        .await;
    assert_eq!(state["end_signal"]["color"], "white", "{state}");
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(daemon.state().await["phase"], "playing");

    // Black answers in their own zone: the game goes to counting (CN2002 7, 21).
    board.zones(b'W', b'B');
    let state = daemon
        .wait_state("counting after both signals", |s| s["phase"] == "counting")
        .await;
    assert_eq!(state["move_number"], 3, "no pass recorded: {state}");
}
