//! Benchmarks: device link throughput over an in-memory pipe, and building a simulator timeline.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use goban_hardware::sim::{FaultScript, HumanProfile, Scenario, SimGame};
use goban_hardware::{LinkConfig, LinkEvent, memory_port, spawn_link};
use goban_protocol::{BoardSize, Change, DeviceKind, Frame, Point, PointState, Seq, Text};
use std::hint::black_box;
use tokio::io::AsyncWriteExt;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

const FRAMES: u32 = 10_000;

/// HELLO, SNAP, then `FRAMES` DIFFs of two points each, as one byte stream.
fn build_stream() -> Vec<u8> {
    let mut out = Vec::new();
    let hello = Frame::BoardHello {
        size: BoardSize::NINETEEN,
        firmware: Text::new("bench").unwrap(),
        serial: Text::new("B").unwrap(),
    };
    hello.encode(&mut out);
    Frame::Snap {
        seq: Seq(0),
        ms: 0,
        points: vec![PointState::Empty; 361],
    }
    .encode(&mut out);
    for i in 1..=FRAMES {
        let p = u16::try_from(i % 361).unwrap();
        let changes = vec![
            Change {
                point: Point(p),
                state: PointState::Black,
            },
            Change {
                point: Point((p + 1) % 361),
                state: PointState::Unknown,
            },
        ];
        Frame::Diff {
            seq: Seq(i),
            ms: i,
            changes,
        }
        .encode(&mut out);
    }
    out
}

async fn run_once(stream: &[u8]) -> u32 {
    let cancel = CancellationToken::new();
    let (plug, connector) = memory_port("bench");
    let (tx, mut rx) = mpsc::channel(4096);
    let _link = spawn_link(
        connector,
        LinkConfig::expecting(&[DeviceKind::Board]),
        tx,
        cancel.clone(),
    );
    let mut device = plug.plug().await.unwrap();
    let bytes = stream.to_vec();
    let writer = tokio::spawn(async move {
        device.write_all(&bytes).await.unwrap();
        device
    });
    let mut diffs = 0;
    while diffs < FRAMES {
        if let Some(LinkEvent::Frame {
            frame: Frame::Diff { .. },
            ..
        }) = rx.recv().await
        {
            diffs += 1;
        }
    }
    cancel.cancel();
    drop(writer.await);
    diffs
}

fn bench_link(c: &mut Criterion) {
    let stream = build_stream();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut group = c.benchmark_group("link");
    group.throughput(Throughput::Elements(u64::from(FRAMES)));
    group.sample_size(20);
    group.bench_function("diff_frames_over_duplex", |b| {
        b.iter(|| black_box(rt.block_on(run_once(&stream))))
    });
    group.finish();
}

fn bench_timeline(c: &mut Criterion) {
    let Some(dir) = std::env::var_os("GOBAN_CORPUS") else {
        eprintln!("timeline bench skipped: GOBAN_CORPUS is not set");
        return;
    };
    let path = std::path::Path::new(&dir).join("ai-19x19/AlphaGo-2.0-AG-vs-AG-G01-English.sgf");
    let text = std::fs::read_to_string(path).unwrap();
    let game = SimGame::from_sgf(&text, "G01").unwrap().remove(0);
    let scenario = Scenario {
        game,
        profile: HumanProfile::default(),
        script: FaultScript::default(),
        seed: 1,
    };
    c.bench_function("timeline_build_19x19_game", |b| {
        b.iter(|| black_box(scenario.build().unwrap()))
    });
}

criterion_group!(benches, bench_link, bench_timeline);
criterion_main!(benches);
