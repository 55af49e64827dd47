//! Decode throughput on a realistic 19x19 board stream (SNAPs, DIFFs, BEATs, 1% corrupted frames).

use bytes::BytesMut;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use goban_protocol::{BoardSize, Change, Decoder, Frame, Point, PointState, Seq};
use std::hint::black_box;

/// The raw payload rate of 115200 baud at 8N1: 10 bit times per byte.
const WIRE_BYTES_PER_SEC: f64 = 11_520.0;

/// A small deterministic generator (no dependency, same stream every run).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % below
    }
}

/// One board's traffic: per "second" a BEAT; per move a DIFF (a stone, sometimes a
/// capture, sometimes a hand shadow that comes and goes); a full SNAP every 10 moves.
/// One frame in a hundred gets one byte corrupted.
fn build_stream(frames: usize) -> (Vec<u8>, usize) {
    let mut rng = Lcg(0x5EED);
    let mut board = vec![PointState::Empty; 361];
    let (mut seq, mut ms, mut out, mut corrupted) = (0u32, 0u32, Vec::new(), 0);
    for i in 0..frames {
        ms = ms.wrapping_add(1000);
        let frame = match i % 12 {
            0 => Frame::Snap {
                seq: Seq(seq),
                ms,
                points: board.clone(),
            },
            1 | 4 | 7 | 10 => Frame::Beat { ms },
            _ => {
                let count = 1 + rng.next(3) as usize;
                let changes: Vec<Change> = (0..count)
                    .map(|_| {
                        let point = rng.next(361) as u16;
                        let state = [PointState::Black, PointState::White, PointState::Empty]
                            [rng.next(3) as usize];
                        board[usize::from(point)] = state;
                        Change {
                            point: Point(point),
                            state,
                        }
                    })
                    .collect();
                Frame::Diff {
                    seq: Seq(seq),
                    ms,
                    changes,
                }
            }
        };
        if frame.seq().is_some() {
            seq = seq.wrapping_add(1);
        }
        let mut bytes = frame.to_bytes();
        if rng.next(100) == 0 {
            let at = 1 + rng.next(bytes.len() as u64 - 2) as usize;
            bytes[at] ^= 0x04;
            corrupted += 1;
        }
        out.extend(bytes);
    }
    (out, corrupted)
}

fn decode_all(stream: &[u8], chunk: usize) -> (u64, u64) {
    let mut decoder = Decoder::with_board_size(BoardSize::NINETEEN);
    let mut buf = BytesMut::with_capacity(2 * chunk.max(1024));
    for piece in stream.chunks(chunk) {
        buf.extend_from_slice(piece);
        loop {
            match decoder.decode(&mut buf) {
                Ok(Some(frame)) => {
                    black_box(frame);
                }
                Ok(None) => break,
                Err(rejection) => {
                    black_box(rejection);
                }
            }
        }
    }
    let stats = decoder.stats();
    (stats.frames.total(), stats.rejections.total())
}

fn bench_decode(c: &mut Criterion) {
    let (stream, corrupted) = build_stream(12_000);
    let (frames, rejected) = decode_all(&stream, 4096);
    eprintln!(
        "stream: {} bytes, 12000 frames, {corrupted} corrupted; decoded {frames}, rejected {rejected}",
        stream.len()
    );
    let mut group = c.benchmark_group("decode_19x19_stream");
    group.throughput(Throughput::Bytes(stream.len() as u64));
    for chunk in [4096usize, 64, 1] {
        group.bench_function(format!("chunks_of_{chunk}"), |b| {
            b.iter(|| decode_all(black_box(&stream), chunk));
        });
    }
    group.finish();
    eprintln!("wire rate at 115200 baud 8N1: {WIRE_BYTES_PER_SEC} bytes/s");
}

fn bench_encode(c: &mut Criterion) {
    let snap = Frame::Snap {
        seq: Seq(7),
        ms: 123_456,
        points: vec![PointState::Black; 361],
    };
    let mut group = c.benchmark_group("encode");
    group.throughput(Throughput::Bytes(snap.encoded_len() as u64));
    group.bench_function("snap_19x19", |b| {
        let mut out = Vec::with_capacity(512);
        b.iter(|| {
            out.clear();
            black_box(&snap).encode(&mut out);
            black_box(out.len())
        });
    });
    group.finish();
}

criterion_group!(benches, bench_decode, bench_encode);
criterion_main!(benches);
