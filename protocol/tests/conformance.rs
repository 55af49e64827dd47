//! Cross-check with the independent Python implementation in `shared/conformance/wire.py`.

use goban_protocol::{
    BoardSize, Button, Change, Decoder, Frame, Key, Point, PointState, Running, Seq, Text,
};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// `shared/conformance`, found beside the corpus (`GOBAN_CORPUS`) or beside the project.
fn conformance_dir() -> Option<PathBuf> {
    let from_corpus =
        std::env::var_os("GOBAN_CORPUS").map(|c| PathBuf::from(c).join("../conformance"));
    let beside = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance");
    [from_corpus, Some(beside)]
        .into_iter()
        .flatten()
        .find(|d| d.join("wire.py").is_file())
}

fn text(s: &str) -> Text {
    Text::new(s).expect("valid text")
}

/// Every kind, with edge values: u32 limits, empty texts, all point states, 19x19.
fn build_frames() -> Vec<Frame> {
    let states = [
        PointState::Empty,
        PointState::Black,
        PointState::White,
        PointState::Unknown,
    ];
    let mut frames = vec![
        Frame::BoardHello {
            size: BoardSize::NINETEEN,
            firmware: text("fw 2.0-rc1"),
            serial: text(""),
        },
        Frame::ClockHello {
            firmware: text("heldout-1"),
            serial: text("HC-0001"),
        },
        Frame::Snap {
            seq: Seq(u32::MAX),
            ms: 0,
            points: (0..361).map(|i| states[i % 4]).collect(),
        },
        Frame::Beat { ms: u32::MAX },
        Frame::Fault {
            code: text("E7"),
            text: text("supply low: 4.1 V (min 4.5)"),
        },
        Frame::Press {
            seq: Seq(0),
            ms: 5790,
            button: Button::L,
        },
        Frame::Press {
            seq: Seq(1),
            ms: 5791,
            button: Button::R,
        },
        Frame::HelloQuery,
        Frame::SnapQuery,
        Frame::Led { points: vec![] },
        Frame::Led {
            points: vec![Point(0), Point(180), Point(360)],
        },
        Frame::Show {
            black_ms: 0,
            white_ms: u32::MAX,
            black_periods: 5,
            white_periods: 0,
            running: Running::Stopped,
        },
        Frame::Show {
            black_ms: 1,
            white_ms: 2,
            black_periods: 3,
            white_periods: 4,
            running: Running::Black,
        },
        Frame::Beep { count: 10 },
    ];
    for (i, key) in [
        Key::Pause,
        Key::Resume,
        Key::ResignL,
        Key::ResignR,
        Key::DoneL,
        Key::DoneR,
    ]
    .into_iter()
    .enumerate()
    {
        frames.push(Frame::Key {
            seq: Seq(i as u32),
            ms: 100,
            key,
        });
    }
    for n in 1..20u16 {
        let changes = (0..n).map(|k| Change {
            point: Point(k * 19),
            state: states[usize::from(k) % 4],
        });
        frames.push(Frame::Diff {
            seq: Seq(u32::from(n)),
            ms: 7,
            changes: changes.collect(),
        });
    }
    frames
}

/// wire.py parses each of our lines and writes it again with its own encoder.
const RE_ENCODE: &str = r#"
import sys
sys.path.insert(0, sys.argv[1])
from wire import frame, parse
for line in sys.stdin.buffer:
    fields = parse(line)
    sys.stdout.buffer.write(b"REJECTED\n" if fields is None else frame(*fields))
"#;

#[test]
fn wire_py_accepts_and_reproduces_our_frames_byte_for_byte() {
    let Some(dir) = conformance_dir() else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI: shared/conformance/wire.py not found"
        );
        eprintln!("skipped: shared/conformance/wire.py not found (set GOBAN_CORPUS)");
        return;
    };
    let frames = build_frames();
    let ours: Vec<u8> = frames.iter().flat_map(Frame::to_bytes).collect();
    let child = Command::new("python3")
        .arg("-c")
        .arg(RE_ENCODE)
        .arg(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI: python3 not found"
        );
        eprintln!("skipped: python3 not found");
        return;
    };
    child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(&ours)
        .expect("write to python");
    let output = child.wait_with_output().expect("python output");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&ours)
    );

    let mut decoder = Decoder::new();
    let mut buf = bytes::BytesMut::from(&output.stdout[..]);
    let mut decoded = Vec::new();
    while let Ok(Some(frame)) = decoder.decode(&mut buf) {
        decoded.push(frame);
    }
    assert_eq!(decoded, frames);
}
