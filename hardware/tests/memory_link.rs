//! Device link edge cases against hand-written devices on in-memory pipes, in virtual time.

mod common;

use bytes::BytesMut;
use common::{collect, frames};
use goban_hardware::{
    DisconnectReason, HardwareError, LinkConfig, LinkEvent, LinkHandle, TokioWallClock,
    memory_port, spawn_link_with_clock,
};
use goban_protocol::{
    BoardSize, Button, Change, Decoder, DeviceKind, Frame, Point, PointState, Running, Seq, Text,
};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

struct Rig {
    plug: goban_hardware::MemoryPlug,
    handle: LinkHandle,
    rx: mpsc::Receiver<LinkEvent>,
    cancel: CancellationToken,
    task: tokio::task::JoinHandle<goban_hardware::LinkStats>,
}

fn build_rig(expect: &[DeviceKind]) -> Rig {
    build_rig_with(LinkConfig::expecting(expect))
}

fn build_rig_with(config: LinkConfig) -> Rig {
    let (plug, connector) = memory_port("mem");
    let (tx, rx) = mpsc::channel(256);
    let cancel = CancellationToken::new();
    let clock = Arc::new(TokioWallClock::starting_at(0));
    let (handle, task) = spawn_link_with_clock(connector, config, tx, cancel.clone(), clock);
    Rig {
        plug,
        handle,
        rx,
        cancel,
        task,
    }
}

async fn send(io: &mut DuplexStream, frame: &Frame) {
    io.write_all(&frame.to_bytes()).await.unwrap();
}

/// Reads host frames until one matches.
async fn expect_host(io: &mut DuplexStream, want: &Frame) -> Vec<Frame> {
    let mut decoder = Decoder::new();
    let mut buf = BytesMut::new();
    let mut seen = Vec::new();
    loop {
        while let Ok(Some(frame)) = decoder.decode(&mut buf) {
            seen.push(frame.clone());
            if &frame == want {
                return seen;
            }
        }
        assert!(
            io.read_buf(&mut buf).await.unwrap() > 0,
            "pipe closed, saw {seen:?}"
        );
    }
}

fn board_hello() -> Frame {
    Frame::BoardHello {
        size: BoardSize::NINE,
        firmware: Text::new("t").unwrap(),
        serial: Text::new("B1").unwrap(),
    }
}

fn clock_hello() -> Frame {
    Frame::ClockHello {
        firmware: Text::new("t").unwrap(),
        serial: Text::new("C1").unwrap(),
    }
}

fn empty_snap(seq: u32) -> Frame {
    Frame::Snap {
        seq: Seq(seq),
        ms: 0,
        points: vec![PointState::Empty; 81],
    }
}

fn diff(seq: u32, point: u16) -> Frame {
    Frame::Diff {
        seq: Seq(seq),
        ms: 0,
        changes: vec![Change {
            point: Point(point),
            state: PointState::Black,
        }],
    }
}

#[tokio::test(start_paused = true)]
async fn a_silent_device_is_disconnected_after_three_seconds_and_reconnects() {
    let mut rig = build_rig(&[DeviceKind::Board]);
    let mut dev = rig.plug.plug().await.unwrap();
    expect_host(&mut dev, &Frame::HelloQuery).await;
    send(&mut dev, &board_hello()).await;
    let start = tokio::time::Instant::now();
    let events = collect(&mut rig.rx, Duration::from_secs(4)).await;
    let lost = events.iter().find_map(|e| match e {
        LinkEvent::Disconnected { reason, .. } => Some(reason.clone()),
        _ => None,
    });
    assert_eq!(lost, Some(DisconnectReason::Silent { silent_ms: 3_000 }));
    assert!(start.elapsed() >= Duration::from_secs(3));
    let mut dev = rig.plug.plug().await.unwrap();
    expect_host(&mut dev, &Frame::HelloQuery).await;
    send(&mut dev, &board_hello()).await;
    let events = collect(&mut rig.rx, Duration::from_millis(200)).await;
    assert!(
        events
            .iter()
            .any(|e| matches!(e, LinkEvent::Connected { .. }))
    );
    let stats = rig.handle.stats();
    assert_eq!((stats.disconnects, stats.reconnects), (1, 1));
    rig.cancel.cancel();
    let final_stats = rig.task.await.unwrap();
    assert!(!final_stats.connected);
}

#[tokio::test(start_paused = true)]
async fn a_version_two_device_is_a_wrong_device() {
    let mut rig = build_rig(&[DeviceKind::Board]);
    let mut dev = rig.plug.plug().await.unwrap();
    expect_host(&mut dev, &Frame::HelloQuery).await;
    // A well-formed HELLO of protocol version 2 (CRC computed by the one protocol crate).
    let body = b"HELLO,BOARD,2,9,fw-9,X1";
    let line = format!(
        "${}*{:04X}\n",
        std::str::from_utf8(body).unwrap(),
        goban_protocol::crc16(body)
    );
    dev.write_all(line.as_bytes()).await.unwrap();
    let events = collect(&mut rig.rx, Duration::from_secs(2)).await;
    let found = events.iter().find_map(|e| match e {
        LinkEvent::WrongDevice { found, .. } => Some(found.clone()),
        _ => None,
    });
    assert!(found.is_some_and(|f| f.contains("version")), "{events:?}");
    assert!(rig.handle.stats().decoder.rejections.unsupported_version >= 1);
    rig.cancel.cancel();
}

#[tokio::test(start_paused = true)]
async fn a_port_that_never_answers_is_reported_once_as_unavailable() {
    let mut rig = build_rig(&[DeviceKind::Board]);
    let _dev = rig.plug.plug().await.unwrap();
    let events = collect(&mut rig.rx, Duration::from_secs(2)).await;
    let unavailable: Vec<_> = events
        .iter()
        .filter(|e| matches!(e, LinkEvent::Unavailable { .. }))
        .collect();
    assert_eq!(unavailable.len(), 1, "{events:?}");
    let LinkEvent::Unavailable { error, .. } = unavailable[0] else {
        unreachable!()
    };
    assert!(error.contains("no HELLO"), "{error}");
    assert!(!events.iter().any(|e| matches!(
        e,
        LinkEvent::Connected { .. } | LinkEvent::WrongDevice { .. }
    )));
    rig.cancel.cancel();
}

#[tokio::test(start_paused = true)]
async fn board_frames_wait_for_a_snap_and_a_gap_asks_for_another() {
    let mut rig = build_rig(&[DeviceKind::Board]);
    let mut dev = rig.plug.plug().await.unwrap();
    expect_host(&mut dev, &Frame::HelloQuery).await;
    send(&mut dev, &board_hello()).await;
    expect_host(&mut dev, &Frame::SnapQuery).await;
    send(&mut dev, &diff(0, 1)).await; // before any SNAP: untrusted
    send(&mut dev, &empty_snap(1)).await;
    send(&mut dev, &diff(2, 2)).await;
    send(&mut dev, &diff(4, 4)).await; // 3 lost: gap
    expect_host(&mut dev, &Frame::SnapQuery).await;
    send(&mut dev, &diff(5, 5)).await; // still untrusted until the SNAP
    send(&mut dev, &empty_snap(6)).await;
    let events = collect(&mut rig.rx, Duration::from_millis(100)).await;
    let got: Vec<&Frame> = frames(&events);
    assert_eq!(got, vec![&empty_snap(1), &diff(2, 2), &empty_snap(6)]);
    assert!(events.iter().any(|e| matches!(
        e,
        LinkEvent::SequenceGap {
            kind: DeviceKind::Board,
            ..
        }
    )));
    let stats = rig.handle.stats();
    assert_eq!(stats.untrusted_frames, 3);
    assert_eq!(stats.sequence_gaps, 1);
    rig.cancel.cancel();
}

#[tokio::test(start_paused = true)]
async fn a_lost_press_is_a_clock_gap_and_later_presses_still_arrive() {
    let mut rig = build_rig(&[DeviceKind::Clock]);
    let mut dev = rig.plug.plug().await.unwrap();
    expect_host(&mut dev, &Frame::HelloQuery).await;
    send(&mut dev, &clock_hello()).await;
    let press = |seq| Frame::Press {
        seq: Seq(seq),
        ms: 0,
        button: Button::L,
    };
    send(&mut dev, &press(0)).await;
    send(&mut dev, &press(2)).await;
    let events = collect(&mut rig.rx, Duration::from_millis(100)).await;
    assert_eq!(frames(&events), vec![&press(0), &press(2)]);
    assert!(events.iter().any(|e| matches!(
        e,
        LinkEvent::SequenceGap {
            kind: DeviceKind::Clock,
            ..
        }
    )));
    rig.cancel.cancel();
}

#[tokio::test(start_paused = true)]
async fn host_commands_reach_the_device_in_order_and_never_block() {
    let mut rig = build_rig(&[DeviceKind::Board, DeviceKind::Clock]);
    let mut dev = rig.plug.plug().await.unwrap();
    expect_host(&mut dev, &Frame::HelloQuery).await;
    send(&mut dev, &board_hello()).await;
    send(&mut dev, &clock_hello()).await;
    let _ = collect(&mut rig.rx, Duration::from_millis(50)).await;
    rig.handle.led(vec![Point(3), Point(4)]).unwrap();
    rig.handle
        .show(60_000, 59_000, (3, 2), Running::White)
        .unwrap();
    rig.handle.beep(2).unwrap();
    let seen = expect_host(&mut dev, &Frame::Beep { count: 2 }).await;
    let led = seen
        .iter()
        .position(|f| matches!(f, Frame::Led { .. }))
        .unwrap();
    let show = seen
        .iter()
        .position(|f| matches!(f, Frame::Show { .. }))
        .unwrap();
    assert!(led < show);
    assert!(matches!(
        rig.handle.send(Frame::Beat { ms: 1 }),
        Err(HardwareError::NotHostFrame("BEAT"))
    ));
    // Nobody reads the pipe now: queueing returns at once, full queues drop (and count).
    let mut full = false;
    for _ in 0..10_000 {
        if matches!(rig.handle.beep(1), Err(HardwareError::QueueFull)) {
            full = true;
            break;
        }
    }
    assert!(
        full,
        "a stalled port fills the queue instead of blocking the caller"
    );
    rig.cancel.cancel();
}

#[tokio::test(start_paused = true)]
async fn the_link_reads_on_after_every_handle_is_dropped() {
    let Rig {
        plug,
        handle,
        mut rx,
        cancel,
        ..
    } = build_rig(&[DeviceKind::Board]);
    drop(handle);
    let mut dev = plug.plug().await.unwrap();
    expect_host(&mut dev, &Frame::HelloQuery).await;
    send(&mut dev, &board_hello()).await;
    send(&mut dev, &empty_snap(0)).await;
    // Virtual time only advances while the runtime idles: a link spinning on its closed
    // command queue would stall this wait forever.
    let events = collect(&mut rx, Duration::from_secs(4)).await;
    assert_eq!(frames(&events), vec![&empty_snap(0)]);
    assert!(events.iter().any(|e| matches!(
        e,
        LinkEvent::Disconnected {
            reason: DisconnectReason::Silent { .. },
            ..
        }
    )));
    cancel.cancel();
}

#[tokio::test(start_paused = true)]
async fn a_chatty_stranger_is_an_unknown_device() {
    let mut rig = build_rig(&[DeviceKind::Clock]);
    let mut dev = rig.plug.plug().await.unwrap();
    // A GPS receiver on the wrong port: NMEA sentences also start with `$` and end with `*hh`.
    for _ in 0..20 {
        dev.write_all(b"$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n")
            .await
            .unwrap();
    }
    let events = collect(&mut rig.rx, Duration::from_secs(2)).await;
    let found = events.iter().find_map(|e| match e {
        LinkEvent::WrongDevice { found, .. } => Some(found.clone()),
        _ => None,
    });
    assert!(
        found
            .as_deref()
            .is_some_and(|f| f.contains("unknown device") || f.contains("no HELLO")),
        "{events:?}"
    );
    rig.cancel.cancel();
}

#[tokio::test(start_paused = true)]
async fn a_shared_port_starts_with_the_board_and_takes_the_clock_when_it_says_hello() {
    let mut rig = build_rig(&[DeviceKind::Board, DeviceKind::Clock]);
    let mut dev = rig.plug.plug().await.unwrap();
    expect_host(&mut dev, &Frame::HelloQuery).await;
    send(&mut dev, &board_hello()).await;
    let events = collect(&mut rig.rx, Duration::from_secs(2)).await;
    let connected: Vec<usize> = events
        .iter()
        .filter_map(|e| match e {
            LinkEvent::Connected { devices, .. } => Some(devices.len()),
            _ => None,
        })
        .collect();
    assert_eq!(
        connected,
        vec![1],
        "the board is used without waiting for a silent clock"
    );
    send(&mut dev, &clock_hello()).await;
    let events = collect(&mut rig.rx, Duration::from_millis(100)).await;
    let Some(LinkEvent::Connected { devices, .. }) = events
        .iter()
        .find(|e| matches!(e, LinkEvent::Connected { .. }))
    else {
        panic!("{events:?}")
    };
    let kinds: Vec<DeviceKind> = devices.iter().map(|d| d.kind).collect();
    assert_eq!(kinds, vec![DeviceKind::Board, DeviceKind::Clock]);
    rig.cancel.cancel();
}

#[tokio::test(start_paused = true)]
async fn zone_frames_are_forwarded_once_the_board_is_trusted() {
    let mut rig = build_rig(&[DeviceKind::Board]);
    let mut dev = rig.plug.plug().await.unwrap();
    expect_host(&mut dev, &Frame::HelloQuery).await;
    send(&mut dev, &board_hello()).await;
    let caps = Frame::Caps {
        sync: false,
        zones: true,
    };
    send(&mut dev, &caps).await;
    expect_host(&mut dev, &Frame::SnapQuery).await;
    let zone = |black| Frame::Zone {
        ms: 0,
        black,
        white: PointState::Empty,
    };
    send(&mut dev, &zone(PointState::Black)).await; // before any SNAP: untrusted
    send(&mut dev, &empty_snap(0)).await;
    send(&mut dev, &zone(PointState::White)).await;
    // ZONE takes no SNAP/DIFF number: the next DIFF follows the SNAP without a gap.
    send(&mut dev, &diff(1, 1)).await;
    let events = collect(&mut rig.rx, Duration::from_millis(100)).await;
    assert_eq!(
        frames(&events),
        vec![&empty_snap(0), &zone(PointState::White), &diff(1, 1)]
    );
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, LinkEvent::SequenceGap { .. })),
        "{events:?}"
    );
    rig.cancel.cancel();
}

/// Beats every second for five seconds (longer than the watchdog's three): the events seen.
async fn beat_for_five_seconds(rig: &mut Rig) -> Vec<LinkEvent> {
    let mut dev = rig.plug.plug().await.unwrap();
    expect_host(&mut dev, &Frame::HelloQuery).await;
    send(&mut dev, &board_hello()).await;
    let mut events = Vec::new();
    for ms in 1..=5 {
        send(&mut dev, &Frame::Beat { ms: ms * 1_000 }).await;
        events.extend(collect(&mut rig.rx, Duration::from_secs(1)).await);
    }
    events
}

#[tokio::test(start_paused = true)]
async fn beats_keep_the_link_alive_and_are_passed_on_only_when_asked() {
    let is_beat = |e: &LinkEvent| {
        matches!(
            e,
            LinkEvent::Frame {
                frame: Frame::Beat { .. },
                ..
            }
        )
    };
    let lost = |e: &LinkEvent| matches!(e, LinkEvent::Disconnected { .. });

    let mut rig = build_rig(&[DeviceKind::Board]);
    let events = beat_for_five_seconds(&mut rig).await;
    assert_eq!(events.iter().filter(|e| is_beat(e)).count(), 5);
    assert!(!events.iter().any(lost), "{events:?}");
    rig.cancel.cancel();

    let mut rig = build_rig_with(LinkConfig {
        forward_beats: false,
        ..LinkConfig::expecting(&[DeviceKind::Board])
    });
    let events = beat_for_five_seconds(&mut rig).await;
    assert!(!events.iter().any(is_beat), "{events:?}");
    assert!(
        !events.iter().any(lost),
        "the watchdog still takes the beats: {events:?}"
    );
    assert!(rig.handle.stats().frames >= 5);
    rig.cancel.cancel();
}
