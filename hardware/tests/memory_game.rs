//! A simulated game over in-memory pipes in virtual time: the link reads it end to end.

mod common;

use common::{HostBoard, build_capture_game, collect, expected_position, frames};
use goban_hardware::sim::{
    Endpoint, FaultScript, HumanProfile, Scenario, TableConfig, Transport, spawn_table,
};
use goban_hardware::{LinkConfig, LinkEvent, TokioWallClock, spawn_link_with_clock};
use goban_protocol::{DeviceKind, Frame};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

fn build_scenario(script: FaultScript, seed: u64) -> Scenario {
    Scenario {
        game: build_capture_game(),
        profile: HumanProfile::default(),
        script,
        seed,
    }
}

#[tokio::test(start_paused = true)]
async fn a_whole_game_arrives_over_two_ports_in_virtual_time() {
    let cancel = CancellationToken::new();
    let timeline = build_scenario(FaultScript::default(), 11).build().unwrap();
    let config = TableConfig {
        name: "t1".into(),
        shared_port: false,
        diffs: true,
        transport: Transport::Memory,
    };
    let table = spawn_table(&config, timeline.clone(), cancel.clone()).unwrap();
    let (Endpoint::Memory(board_conn), Some(Endpoint::Memory(clock_conn))) =
        (table.board_port, table.clock_port)
    else {
        panic!("memory endpoints expected");
    };
    let clock = Arc::new(TokioWallClock::starting_at(1_700_000_000_000));
    let (board_tx, mut board_rx) = mpsc::channel(1024);
    let (clock_tx, mut clock_rx) = mpsc::channel(1024);
    let (board_link, _) = spawn_link_with_clock(
        board_conn,
        LinkConfig::expecting(&[DeviceKind::Board]),
        board_tx,
        cancel.clone(),
        clock.clone(),
    );
    let (_clock_link, _) = spawn_link_with_clock(
        clock_conn,
        LinkConfig::expecting(&[DeviceKind::Clock]),
        clock_tx,
        cancel.clone(),
        clock.clone(),
    );

    let span = timeline.duration() + Duration::from_secs(5);
    let (board_events, clock_events) =
        tokio::join!(collect(&mut board_rx, span), collect(&mut clock_rx, span));

    assert!(
        matches!(board_events[0], LinkEvent::Connected { ref devices, .. } if devices[0].kind == DeviceKind::Board)
    );
    let mut host = HostBoard::default();
    for frame in frames(&board_events) {
        host.handle(frame);
    }
    assert_eq!(host.points, expected_position(&build_capture_game()));
    assert_eq!(host.points, timeline.final_position);
    assert!(host.diffs > 0, "a DIFF-style board sends DIFFs");
    let presses = frames(&clock_events)
        .iter()
        .filter(|f| matches!(f, Frame::Press { .. }))
        .count();
    assert_eq!(presses, timeline.presses());
    assert_eq!(presses, 10, "ten moves, ten presses (passes included)");
    let stats = board_link.stats();
    assert!(
        stats.connected && stats.frames > 0 && stats.errors() == 0,
        "{stats:?}"
    );
    // Receive times follow virtual time from the origin.
    let stamps: Vec<u64> = board_events
        .iter()
        .filter_map(|e| match e {
            LinkEvent::Frame { received_ms, .. } => Some(*received_ms),
            _ => None,
        })
        .collect();
    assert!(stamps.windows(2).all(|w| w[0] <= w[1]) && stamps[0] >= 1_700_000_000_000);
    cancel.cancel();
}

#[tokio::test(start_paused = true)]
async fn a_v1_1_device_alone_on_its_port_is_synchronised_and_its_frames_mapped() {
    let cancel = CancellationToken::new();
    let timeline = build_scenario(FaultScript::default(), 12).build().unwrap();
    let config = TableConfig {
        name: "t2".into(),
        shared_port: false,
        diffs: true,
        transport: Transport::Memory,
    };
    let table = spawn_table(&config, timeline.clone(), cancel.clone()).unwrap();
    let Endpoint::Memory(board_conn) = table.board_port else {
        panic!("memory endpoint expected");
    };
    let clock = Arc::new(TokioWallClock::starting_at(1_700_000_000_000));
    let (tx, mut rx) = mpsc::channel(1024);
    let (link, _) = spawn_link_with_clock(
        board_conn,
        LinkConfig::expecting(&[DeviceKind::Board]),
        tx,
        cancel.clone(),
        clock,
    );
    let events = collect(&mut rx, timeline.duration() + Duration::from_secs(5)).await;
    let stats = link.stats();
    // The simulated board announces `$CAPS,SYNC`; the link sends `$SYNC` every second and
    // reads the echoes itself: neither reaches the owner.
    assert!(stats.decoder.frames.caps >= 1, "{stats:?}");
    assert!(stats.decoder.frames.sync_echo >= 5, "{stats:?}");
    assert!(
        frames(&events)
            .iter()
            .all(|f| !matches!(f, Frame::Caps { .. } | Frame::SyncEcho { .. }))
    );
    // No lag on in-memory pipes: a mapped time is the read time, never later.
    let mut mapped = 0;
    for event in &events {
        if let LinkEvent::Frame {
            received_ms, at_ms, ..
        } = event
        {
            assert!(
                at_ms <= received_ms && received_ms - at_ms <= 2,
                "{event:?}"
            );
            mapped += 1;
        }
    }
    assert!(mapped > 10);
    cancel.cancel();
}
