//! Corpus games through the simulator and a device link: the decoded frames reproduce the final position.

mod common;

use common::{HostBoard, collect, frames};
use goban_hardware::sim::{
    Endpoint, FaultScript, HumanProfile, Scenario, SimGame, TableConfig, Transport, spawn_table,
};
use goban_hardware::{LinkConfig, LinkEvent, TokioWallClock, spawn_link_with_clock};
use goban_protocol::{DeviceKind, Frame, PointState};
use goban_rules::Color;
use goban_rules::sgf::read_sgf;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// The corpus directory, or `None` (skip) when `GOBAN_CORPUS` is unset outside CI.
fn corpus() -> Option<PathBuf> {
    match std::env::var_os("GOBAN_CORPUS") {
        Some(dir) => Some(PathBuf::from(dir)),
        None if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("GOBAN_CORPUS must point at shared/corpus when CI=true")
        }
        None => {
            eprintln!("skipped: GOBAN_CORPUS is not set");
            None
        }
    }
}

/// The final position of the record by the rules crate's own replay (independent of the simulator's move list).
fn rules_final(text: &str) -> Vec<PointState> {
    let record = read_sgf(text).unwrap().remove(0);
    let replay = record.replay().unwrap();
    let board = replay.game.board();
    board
        .size()
        .all_points()
        .map(|p| match board.get(p) {
            Some(Color::Black) => PointState::Black,
            Some(Color::White) => PointState::White,
            None => PointState::Empty,
        })
        .collect()
}

async fn play_through_link(
    game: SimGame,
    script: &str,
    diffs: bool,
) -> (HostBoard, Vec<LinkEvent>, Vec<PointState>) {
    let cancel = CancellationToken::new();
    let script = FaultScript::from_json(script, "test").unwrap();
    let timeline = Scenario {
        game,
        profile: HumanProfile::default(),
        script,
        seed: 19,
    }
    .build()
    .unwrap();
    assert!(timeline.skipped.is_empty(), "{:?}", timeline.skipped);
    let config = TableConfig {
        name: "c".into(),
        shared_port: true,
        diffs,
        transport: Transport::Memory,
    };
    let table = spawn_table(&config, timeline.clone(), cancel.clone()).unwrap();
    let Endpoint::Memory(connector) = table.board_port else {
        panic!("memory endpoint")
    };
    let (tx, mut rx) = mpsc::channel(1 << 16);
    let clock = Arc::new(TokioWallClock::starting_at(0));
    let config = LinkConfig::expecting(&[DeviceKind::Board, DeviceKind::Clock]);
    let _link = spawn_link_with_clock(connector, config, tx, cancel.clone(), clock);
    // Noise settles: the last stuck sensor recovers and a periodic SNAP (every 10 s) goes out.
    let events = collect(&mut rx, timeline.duration() + Duration::from_secs(15)).await;
    cancel.cancel();
    let mut host = HostBoard::default();
    frames(&events).into_iter().for_each(|f| host.handle(f));
    (host, events, timeline.final_position)
}

#[tokio::test(start_paused = true)]
async fn an_alphago_game_with_line_noise_reproduces_its_final_position() {
    let Some(dir) = corpus() else { return };
    let path = dir.join("ai-19x19/AlphaGo-2.0-AG-vs-AG-G01-English.sgf");
    let text = std::fs::read_to_string(&path).unwrap();
    let game = SimGame::from_sgf(&text, "G01").unwrap().remove(0);
    let moves = game.moves.len();
    assert!(moves > 100, "a full game: {moves} moves");
    let script = r#"{"steps": [
        {"at_move": 10, "fault": "garbage", "bytes": 64},
        {"at_move": 20, "fault": "crc_error", "count": 1},
        {"at_move": 30, "fault": "drop_frames", "count": 2},
        {"at_move": 40, "fault": "stuck_sensor", "point": 180, "state": "?", "duration_ms": 20000},
        {"at_move": 50, "fault": "drop_frames", "device": "clock", "count": 1},
        {"at_move": 60, "fault": "knocked_board", "stones": 8}
    ]}"#;
    let (host, events, planned) = play_through_link(game, script, true).await;
    let expected = rules_final(&text);
    assert_eq!(
        planned, expected,
        "the timeline ends on the record's position"
    );
    assert_eq!(
        host.points, expected,
        "the host's picture after noise settles"
    );
    let presses = frames(&events)
        .iter()
        .filter(|f| matches!(f, Frame::Press { .. }))
        .count();
    assert_eq!(
        presses,
        moves - 1,
        "one press lost on the line (clock frame dropped)"
    );
    assert!(events.iter().any(|e| matches!(
        e,
        LinkEvent::SequenceGap {
            kind: DeviceKind::Clock,
            ..
        }
    )));
}

#[tokio::test(start_paused = true)]
async fn a_nine_by_nine_regression_game_on_a_snap_only_board() {
    let Some(dir) = corpus() else { return };
    let path = dir.join("gnugo-regression/games/9x9-1.sgf");
    let text = std::fs::read_to_string(&path).unwrap();
    let game = SimGame::from_sgf(&text, "9x9-1").unwrap().remove(0);
    assert_eq!(game.size, 9);
    let (host, _, planned) = play_through_link(game, r#"{"steps": []}"#, false).await;
    assert_eq!(host.points, rules_final(&text));
    assert_eq!(planned, host.points);
    assert_eq!(host.diffs, 0);
}
