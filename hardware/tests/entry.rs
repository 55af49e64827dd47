//! The daemon's entry points: `simulate` (tables on pseudo-terminals from SGF files) and `demo` (in-process tables).

mod common;

use common::{collect, spawn_pacer};
use goban_hardware::sim::{
    Endpoint, HumanProfile, Scenario, SimGame, SimulateOptions, Transport, simulate, spawn_tables,
};
use goban_hardware::{
    LinkConfig, LinkEvent, SerialConnector, TokioWallClock, spawn_link_with_clock,
};
use goban_protocol::PointState;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// A tiny game of our own (not from the corpus), with a pass.
const GAME: &str = "(;GM[1]FF[4]SZ[9]PB[a]PW[b];B[ee];W[ce];B[gc];W[])";

fn build_options(transport: Transport, boards: usize) -> SimulateOptions {
    SimulateOptions {
        boards,
        profile: HumanProfile {
            speed: 50.0,
            ..HumanProfile::default()
        },
        transport,
        ..SimulateOptions::default()
    }
}

#[tokio::test(start_paused = true)]
async fn simulate_gives_stable_pty_paths_that_a_link_can_open() {
    spawn_pacer();
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    std::fs::create_dir(&games).unwrap();
    std::fs::write(games.join("one.sgf"), GAME).unwrap();
    let cancel = CancellationToken::new();
    let options = build_options(Transport::Pty(dir.path().join("links")), 2);
    let tables = simulate(&games, &options, &cancel).unwrap();
    assert_eq!(tables.len(), 2);
    let paths: Vec<_> = tables.iter().flat_map(|t| t.paths()).collect();
    assert_eq!(paths.len(), 4, "board and clock per table: {paths:?}");
    assert!(
        paths
            .iter()
            .all(|p| p.starts_with(dir.path().join("links")))
    );
    let board = paths[2].clone();
    while !board.exists() {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let (tx, mut rx) = mpsc::channel(1024);
    let clock = Arc::new(TokioWallClock::starting_at(0));
    let _link = spawn_link_with_clock(
        SerialConnector::new(&board),
        LinkConfig::default(),
        tx,
        cancel.clone(),
        clock,
    );
    let events = collect(&mut rx, Duration::from_secs(2)).await;
    let Some(LinkEvent::Connected { devices, .. }) = events.first() else {
        panic!("{events:?}")
    };
    assert_eq!(devices[0].serial, "SIM-B-table-2");
    assert_eq!(tables[1].game, "one.sgf");
    cancel.cancel();
}

#[tokio::test]
async fn demo_tables_run_in_process_over_pipes() {
    let games = SimGame::from_sgf(GAME, "inline").unwrap();
    let cancel = CancellationToken::new();
    let tables = spawn_tables(&games, &build_options(Transport::Memory, 3), &cancel).unwrap();
    assert_eq!(tables.len(), 3);
    for table in &tables {
        assert!(table.paths().is_empty());
        assert!(matches!(table.table.board_port, Endpoint::Memory(_)));
        assert!(matches!(table.table.clock_port, Some(Endpoint::Memory(_))));
    }
    assert!(spawn_tables(&[], &build_options(Transport::Memory, 1), &cancel).is_err());
    cancel.cancel();
}

#[test]
fn loading_skips_unplayable_records_and_refuses_an_empty_set() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.sgf"), GAME).unwrap();
    std::fs::write(dir.path().join("b.sgf"), "(;GM[1]FF[4]SZ[7];B[dd])").unwrap();
    std::fs::write(dir.path().join("c.sgf"), "(;GM[2]FF[4];B[dd])").unwrap();
    std::fs::write(dir.path().join("notes.txt"), "not a game").unwrap();
    let games = SimGame::load(dir.path()).unwrap();
    assert_eq!(
        games.len(),
        1,
        "only the 9x9 Go game is playable on a v1 board"
    );
    assert_eq!(games[0].moves.len(), 4);
    let empty = tempfile::tempdir().unwrap();
    assert!(SimGame::load(empty.path()).is_err());
    assert!(SimGame::load(&dir.path().join("missing.sgf")).is_err());
}

#[test]
fn handicap_stones_are_on_the_board_before_the_first_move() {
    let games = SimGame::from_sgf("(;GM[1]FF[4]SZ[9]HA[2]AB[cc][gg];W[ee];B[ec])", "h").unwrap();
    let timeline = Scenario {
        game: games[0].clone(),
        profile: HumanProfile::default(),
        script: Default::default(),
        seed: 1,
    }
    .build()
    .unwrap();
    assert!(timeline.steps[0].note.contains("setup"));
    let stones = timeline
        .final_position
        .iter()
        .filter(|&&s| s != PointState::Empty)
        .count();
    assert_eq!(stones, 4);
}

#[test]
fn one_colour_moving_twice_gets_the_implied_pass() {
    let games = SimGame::from_sgf("(;GM[1]FF[4]SZ[9];B[ee];B[cc];W[gg])", "x").unwrap();
    let colours: Vec<_> = games[0]
        .moves
        .iter()
        .map(|(c, m)| (*c, *m == goban_rules::Move::Pass))
        .collect();
    use goban_rules::Color::{Black, White};
    assert_eq!(
        colours,
        vec![
            (Black, false),
            (White, true),
            (Black, false),
            (White, false)
        ]
    );
}

#[test]
fn a_resigned_record_ends_with_the_losers_resign_key() {
    use goban_hardware::sim::Act;
    use goban_protocol::Key;
    let games = SimGame::from_sgf("(;GM[1]FF[4]SZ[9]RE[B+Resign];B[ee];W[cc])", "r").unwrap();
    assert_eq!(games[0].resigned, Some(goban_rules::Color::White));
    let timeline = Scenario {
        game: games[0].clone(),
        profile: HumanProfile::default(),
        script: Default::default(),
        seed: 1,
    }
    .build()
    .unwrap();
    // White resigns on White's side of the clock (R by default, wire protocol v1).
    assert_eq!(
        timeline.steps.last().map(|s| &s.act),
        Some(&Act::Key { key: Key::ResignR })
    );
    let games = SimGame::from_sgf("(;GM[1]FF[4]SZ[9]RE[W+3.5];B[ee])", "p").unwrap();
    assert_eq!(games[0].resigned, None);
}
