//! Device links over real pseudo-terminals against the simulator: handshake, a game, noise, unplug, wrong device.

mod common;

use common::{
    HostBoard, build_capture_game, collect, expected_position, frames, last_stats, spawn_pacer,
};
use goban_hardware::sim::{
    Endpoint, FaultScript, HumanProfile, Scenario, Table, TableConfig, Transport, spawn_table,
};
use goban_hardware::{
    DisconnectReason, LinkConfig, LinkEvent, SerialConnector, TokioWallClock, spawn_link_with_clock,
};
use goban_protocol::{DeviceKind, Frame, Point, Running};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

struct Rig {
    table: Table,
    board_path: PathBuf,
    clock_path: Option<PathBuf>,
    cancel: CancellationToken,
    _dir: tempfile::TempDir,
    span: Duration,
}

fn build_rig(script: &str, shared_port: bool, diffs: bool) -> Rig {
    spawn_pacer();
    let dir = tempfile::tempdir().unwrap();
    let script = FaultScript::from_json(script, "test").unwrap();
    let profile = HumanProfile {
        speed: 5.0,
        ..HumanProfile::default()
    };
    let timeline = Scenario {
        game: build_capture_game(),
        profile,
        script,
        seed: 5,
    }
    .build()
    .unwrap();
    let config = TableConfig {
        name: "t".into(),
        shared_port,
        diffs,
        transport: Transport::Pty(dir.path().into()),
    };
    let cancel = CancellationToken::new();
    let span = timeline.duration() + Duration::from_secs(6);
    let table = spawn_table(&config, timeline, cancel.clone()).unwrap();
    let path = |e: &Endpoint| match e {
        Endpoint::Path(p) => p.clone(),
        Endpoint::Memory(_) => panic!("pty expected"),
    };
    let board_path = path(&table.board_port);
    let clock_path = table.clock_port.as_ref().map(path);
    Rig {
        table,
        board_path,
        clock_path,
        cancel,
        _dir: dir,
        span,
    }
}

fn link(
    rig: &Rig,
    path: &PathBuf,
    expect: &[DeviceKind],
) -> (goban_hardware::LinkHandle, mpsc::Receiver<LinkEvent>) {
    let (tx, rx) = mpsc::channel(4096);
    let clock = Arc::new(TokioWallClock::starting_at(0));
    let (handle, _) = spawn_link_with_clock(
        SerialConnector::new(path),
        LinkConfig::expecting(expect),
        tx,
        rig.cancel.clone(),
        clock,
    );
    (handle, rx)
}

async fn wait_for_link(path: &Path) {
    while !path.exists() {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test(start_paused = true)]
async fn handshake_identifies_the_board() {
    let rig = build_rig(r#"{"steps": []}"#, false, true);
    wait_for_link(&rig.board_path).await;
    let (_handle, mut rx) = link(&rig, &rig.board_path, &[DeviceKind::Board]);
    let events = collect(&mut rx, Duration::from_secs(2)).await;
    let Some(LinkEvent::Connected { devices, .. }) = events.first() else {
        panic!("{events:?}")
    };
    assert_eq!(devices.len(), 1);
    assert_eq!(devices[0].kind, DeviceKind::Board);
    assert_eq!(devices[0].size, Some(9));
    assert_eq!(devices[0].serial, "SIM-B-t");
    // The host asked who is there, then for the snapshot that makes the board trusted.
    let host = rig.table.host_frames();
    assert!(
        host.contains(&Frame::HelloQuery) && host.contains(&Frame::SnapQuery),
        "{host:?}"
    );
    rig.cancel.cancel();
}

#[tokio::test(start_paused = true)]
async fn a_game_on_a_shared_port_reads_end_to_end() {
    let rig = build_rig(r#"{"steps": []}"#, true, false);
    wait_for_link(&rig.board_path).await;
    let (handle, mut rx) = link(
        &rig,
        &rig.board_path,
        &[DeviceKind::Board, DeviceKind::Clock],
    );
    let events = collect(&mut rx, rig.span).await;
    handle.led(vec![Point(3), Point(4)]).unwrap();
    handle.show(1_000, 2_000, (0, 5), Running::Black).unwrap();
    handle.beep(3).unwrap();
    let _ = collect(&mut rx, Duration::from_millis(500)).await;
    assert_eq!(
        rig.table.leds(),
        vec![Point(3), Point(4)],
        "LED reached the board"
    );
    let (display, beeps) = rig.table.clock_display();
    assert!(
        matches!(
            display,
            Some(Frame::Show {
                white_periods: 5,
                ..
            })
        ),
        "{display:?}"
    );
    assert_eq!(beeps, 3);
    let Some(LinkEvent::Connected { devices, .. }) = events.first() else {
        panic!("{events:?}")
    };
    assert_eq!(
        devices.len(),
        2,
        "board and clock share the port: {devices:?}"
    );
    let mut host = HostBoard::default();
    frames(&events).into_iter().for_each(|f| host.handle(f));
    assert_eq!(host.points, expected_position(&build_capture_game()));
    assert_eq!(host.diffs, 0, "a SNAP-only board sends no DIFF");
    let presses = frames(&events)
        .iter()
        .filter(|f| matches!(f, Frame::Press { .. }))
        .count();
    assert_eq!(presses, 10);
    rig.cancel.cancel();
}

#[tokio::test(start_paused = true)]
async fn garbage_crc_errors_and_lost_frames_are_counted_and_healed() {
    let script = r#"{"steps": [
        {"at_move": 2, "fault": "garbage", "bytes": 40},
        {"at_move": 3, "fault": "crc_error", "count": 2},
        {"at_move": 5, "fault": "drop_frames", "count": 1}
    ]}"#;
    let rig = build_rig(script, false, true);
    wait_for_link(&rig.board_path).await;
    let (handle, mut rx) = link(&rig, &rig.board_path, &[DeviceKind::Board]);
    let events = collect(&mut rx, rig.span).await;
    let stats = handle.stats();
    assert_eq!(stats.decoder.rejections.bad_crc, 2, "{stats:?}");
    assert!(stats.noise_bytes >= 40, "{stats:?}");
    assert!(
        stats.sequence_gaps >= 1,
        "a lost or corrupted DIFF leaves a gap: {stats:?}"
    );
    assert!(events.iter().any(|e| matches!(
        e,
        LinkEvent::SequenceGap {
            kind: DeviceKind::Board,
            ..
        }
    )));
    let snap_queries = rig
        .table
        .host_frames()
        .iter()
        .filter(|f| **f == Frame::SnapQuery)
        .count();
    assert!(snap_queries >= 2, "one SNAP? on connect, one after the gap");
    let mut host = HostBoard::default();
    frames(&events).into_iter().for_each(|f| host.handle(f));
    assert_eq!(
        host.points,
        expected_position(&build_capture_game()),
        "the SNAP after the gap heals the picture"
    );
    assert!(last_stats(&events).is_some());
    rig.cancel.cancel();
}

#[tokio::test(start_paused = true)]
async fn unplugged_board_is_back_within_a_second_of_replug_with_a_snap() {
    let down_ms = 1_500;
    let script =
        format!(r#"{{"steps": [{{"at_move": 4, "fault": "unplug", "down_ms": {down_ms}}}]}}"#);
    let rig = build_rig(&script, false, true);
    wait_for_link(&rig.board_path).await;
    let (handle, mut rx) = link(&rig, &rig.board_path, &[DeviceKind::Board]);
    let mut lost_at = None;
    let mut back_at = None;
    let mut connects = 0;
    let mut host = HostBoard::default();
    let deadline = Instant::now() + rig.span;
    while let Ok(Some(event)) = tokio::time::timeout_at(deadline, rx.recv()).await {
        match event {
            LinkEvent::Connected { .. } => {
                connects += 1;
                if connects == 2 {
                    back_at = Some(Instant::now());
                }
            }
            LinkEvent::Disconnected { reason, .. } => {
                assert!(
                    matches!(
                        reason,
                        DisconnectReason::Closed | DisconnectReason::Io { .. }
                    ),
                    "{reason:?}"
                );
                lost_at.get_or_insert(Instant::now());
            }
            LinkEvent::Frame { frame, .. } => host.handle(&frame),
            _ => {}
        }
    }
    let (lost_at, back_at) = (
        lost_at.expect("disconnect seen"),
        back_at.expect("reconnect seen"),
    );
    let replugged = lost_at + Duration::from_millis(down_ms);
    assert!(
        back_at <= replugged + Duration::from_secs(1),
        "back {:?} after replug",
        back_at - replugged
    );
    assert_eq!(handle.stats().reconnects, 1);
    let snap_queries = rig
        .table
        .host_frames()
        .iter()
        .filter(|f| **f == Frame::SnapQuery)
        .count();
    assert!(snap_queries >= 2, "a SNAP is requested on every connection");
    assert_eq!(host.points, expected_position(&build_capture_game()));
    rig.cancel.cancel();
}

#[tokio::test(start_paused = true)]
async fn a_clock_on_the_board_port_is_a_wrong_device_alert_not_a_crash() {
    let rig = build_rig(r#"{"steps": []}"#, false, true);
    let clock_path = rig.clock_path.clone().unwrap();
    wait_for_link(&clock_path).await;
    let (handle, mut rx) = link(&rig, &clock_path, &[DeviceKind::Board]);
    let events = collect(&mut rx, Duration::from_secs(5)).await;
    let wrong: Vec<_> = events
        .iter()
        .filter(|e| matches!(e, LinkEvent::WrongDevice { .. }))
        .collect();
    assert_eq!(wrong.len(), 1, "one alert, not one per retry: {events:?}");
    let LinkEvent::WrongDevice {
        found, expected, ..
    } = wrong[0]
    else {
        unreachable!()
    };
    assert!(found.contains("CLOCK"), "{found}");
    assert_eq!(expected, &vec![DeviceKind::Board]);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, LinkEvent::Connected { .. }))
    );
    assert!(
        handle.stats().handshake_failures >= 2,
        "it keeps retrying in case the right device comes"
    );
    rig.cancel.cancel();
}

#[tokio::test(start_paused = true)]
async fn a_port_missing_at_start_is_reported_once_and_used_when_it_appears() {
    spawn_pacer();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("usb-goban-sim-late-board");
    let cancel = CancellationToken::new();
    let (tx, mut rx) = mpsc::channel(4096);
    let clock = Arc::new(TokioWallClock::starting_at(0));
    let (handle, _) = spawn_link_with_clock(
        SerialConnector::new(&path),
        LinkConfig::expecting(&[DeviceKind::Board]),
        tx,
        cancel.clone(),
        clock,
    );
    let early = collect(&mut rx, Duration::from_secs(3)).await;
    let unavailable = early
        .iter()
        .filter(|e| matches!(e, LinkEvent::Unavailable { .. }))
        .count();
    assert_eq!(unavailable, 1, "{early:?}");
    assert!(
        handle.stats().open_failures >= 3,
        "it keeps trying with a capped backoff"
    );
    let timeline = Scenario {
        game: build_capture_game(),
        profile: HumanProfile::default(),
        script: FaultScript::default(),
        seed: 1,
    }
    .build()
    .unwrap();
    let config = TableConfig {
        name: "late".into(),
        shared_port: false,
        diffs: true,
        transport: Transport::Pty(dir.path().into()),
    };
    let _table = spawn_table(&config, timeline, cancel.clone()).unwrap();
    let events = collect(&mut rx, Duration::from_secs(2)).await;
    assert!(
        events
            .iter()
            .any(|e| matches!(e, LinkEvent::Connected { .. })),
        "{events:?}"
    );
    assert!(handle.stats().connected);
    cancel.cancel();
}
