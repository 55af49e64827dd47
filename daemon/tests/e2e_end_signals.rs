//! The physical end signals of CN2002 through the real daemon and devices on ptys: resignation stones at a corner (v1 board), zone stones of the agreed end (v1.1 `ZONE` board), the wrong order, one signal alone.

#[path = "support/harness/mod.rs"]
mod harness;

use std::time::Duration;

use goban_hardware::sim::{Act, Step, Timeline};
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

/// One scripted step of the simulated table.
fn step(delay_ms: u64, act: Act, note: &str) -> Step {
    Step {
        delay: Duration::from_millis(delay_ms),
        act,
        note: note.into(),
    }
}

/// The project's simulated table (hardware/src/sim) announcing `ZONE`: three moves, then
/// White (to move) and Black put their stones outside the lines in order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_simulated_board_with_zones_ends_play_for_counting() {
    use goban_hardware::sim::{Endpoint, TableConfig, Transport, spawn_table};
    use goban_protocol::{Button, PointState};
    let dir = tempfile::tempdir().expect("temp dir");
    let stone = |index: u16, state| Act::Board {
        changes: vec![(index, state)],
    };
    let press = |button| Act::Press { button };
    let zones = |black, white| Act::Zones { black, white };
    let (b, w, e) = (PointState::Black, PointState::White, PointState::Empty);
    let steps = vec![
        // Players sit down once the daemon reads the board (no act: the zones are empty).
        step(8_000, zones(e, e), "wait for the daemon"),
        step(0, stone(21, b), "D7"),
        step(400, press(Button::L), "Black presses"),
        step(800, stone(22, w), "E7"),
        step(400, press(Button::R), "White presses"),
        step(800, stone(29, b), "C6"),
        step(400, press(Button::L), "Black presses"),
        step(1_500, zones(e, b), "White, to move, proposes the end"),
        step(1_500, zones(w, b), "Black agrees"),
    ];
    let timeline = Timeline {
        size: 9,
        steps,
        skipped: Vec::new(),
        final_position: Vec::new(),
    };
    let config = TableConfig {
        name: "zones".into(),
        shared_port: false,
        diffs: true,
        transport: Transport::Pty(dir.path().join("ports")),
    };
    let cancel = tokio_util::sync::CancellationToken::new();
    let table = spawn_table(&config, timeline, cancel.clone()).expect("table");
    let path = |endpoint: &Endpoint| match endpoint {
        Endpoint::Path(p) => p.clone(),
        Endpoint::Memory(_) => panic!("a pty transport gives paths"),
    };
    let board = path(&table.board_port);
    let clock = path(table.clock_port.as_ref().expect("two ports"));
    let setup = Setup::new(dir.path(), &board, &clock, BROKER);
    let daemon = Daemon::start(&setup, 1).await;
    // The timeline takes about 14 s from the table's start.
    let state = harness::wait_for(
        "counting after the simulated zone signals",
        Duration::from_secs(40),
        || async {
            let state = daemon.state().await;
            (state["phase"] == "counting").then_some(state)
        },
    )
    .await;
    assert_eq!(state["move_number"], 3, "{state}");
    assert_eq!(state["end_signal"], Value::Null, "{state}");
    cancel.cancel();
}
