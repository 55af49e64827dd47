//! The device core and the independent Python devices (`shared/conformance/devices.py`)
//! agree on every frame: both play the same session (stones set and removed, presses,
//! keys, the host's queries and commands) at the same device times, and their wire
//! output must be identical, byte for byte.

mod common;

use common::{Lines, Stones, board_config, clock_config, powered};
use goban_device::{Clock, HostLink};
use goban_protocol::{BoardSize, Button, Key, PointState};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// `shared/conformance`, from `GOBAN_CONFORMANCE`, beside the corpus or beside the project.
fn conformance_dir() -> Option<PathBuf> {
    let env = std::env::var_os("GOBAN_CONFORMANCE").map(PathBuf::from);
    let corpus = std::env::var_os("GOBAN_CORPUS").map(|c| PathBuf::from(c).join("../conformance"));
    let beside = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance");
    [env, corpus, Some(beside)]
        .into_iter()
        .flatten()
        .find(|d| d.join("devices.py").is_file())
}

/// One step of the session, for both implementations.
enum Step {
    /// Stones change (index order): the board reports them.
    Set(u32, &'static [(usize, PointState)]),
    /// A host frame reaches the board.
    BoardHost(u32, &'static str),
    /// A button press completes at this time.
    Press(u32, Button),
    Key(u32, Key),
    /// A host frame reaches the clock.
    ClockHost(u32, &'static str),
}

const SESSION: &[Step] = &[
    Step::Set(5311, &[(40, PointState::Black)]),
    Step::Set(6100, &[(40, PointState::Empty), (41, PointState::White)]),
    Step::BoardHost(6200, "$SNAP?*C5B4"),
    Step::BoardHost(6300, "$LED,40;41*1D62"),
    Step::Set(
        7000,
        &[
            (0, PointState::Unknown),
            (2, PointState::Black),
            (80, PointState::White),
        ],
    ),
    Step::BoardHost(7100, "$HELLO?*C851"),
    Step::Set(7200, &[(0, PointState::Empty)]),
    Step::Press(5790, Button::L),
    Step::Press(8000, Button::R),
    Step::Key(9000, Key::ResignR),
    Step::ClockHost(9100, "$HELLO?*C851"),
    Step::ClockHost(9200, "$SHOW,600000,598000,5,5,B*68AD"),
    Step::Key(9300, Key::Pause),
];

/// The session on the Python devices: their pty threads stay quiet, `send` records,
/// `ms` returns the step's time.
fn python_script(dir: &str) -> String {
    let mut script = format!(
        r#"import sys
sys.path.insert(0, {dir:?})
from devices import Board, Clock
from wire import parse
NOW = [1200]
OUT = []
class Scripted:
    def _reader(self): pass
    def _beat(self): pass
    def send(self, data): OUT.append(data.decode())
    def ms(self): return NOW[0]
class B(Scripted, Board): pass
class C(Scripted, Clock): pass
board = B(size=9, serial="SB-000417")
clock = C(serial="CK-0001")
"#
    );
    for step in SESSION {
        let line = match step {
            Step::Set(t, changes) => {
                let list: Vec<String> = changes
                    .iter()
                    .map(|(i, s)| format!("({i}, {:?})", char::from(s.to_byte())))
                    .collect();
                format!("NOW[0] = {t}; board.set([{}])", list.join(", "))
            }
            Step::BoardHost(t, frame) => format!("NOW[0] = {t}; board.on_host(parse(b{frame:?}))"),
            Step::Press(t, b) => format!("NOW[0] = {t}; clock.press({:?})", b.as_str()),
            Step::Key(t, k) => format!("NOW[0] = {t}; clock.key({:?})", k.as_str()),
            Step::ClockHost(t, frame) => format!("NOW[0] = {t}; clock.on_host(parse(b{frame:?}))"),
        };
        script.push_str(&line);
        script.push('\n');
    }
    script.push_str("sys.stdout.write(''.join(OUT))\n");
    script
}

/// The same session on the device core.
fn core_lines() -> Vec<String> {
    let mut out = Lines::default();
    let mut stones = Stones::new(BoardSize::NINE);
    let mut board = powered(
        board_config(BoardSize::NINE, "heldout-1", "SB-000417"),
        &mut stones,
        1200,
        &mut out,
    );
    let mut clock = Clock::new(clock_config("heldout-1", "CK-0001"));
    clock.power_up(1200, &mut out);
    let mut link = HostLink::new();
    for step in SESSION {
        match *step {
            Step::Set(t, changes) => {
                for &(i, s) in changes {
                    stones.set(i, s);
                }
                board.scan(&mut stones, t, &mut out);
            }
            Step::BoardHost(t, frame) => link.feed(format!("{frame}\n").as_bytes(), |f| {
                board.handle_host(f, t, &mut out)
            }),
            Step::Press(t, button) => {
                // The contact closes at `t` and holds: sampled every millisecond.
                let levels = |held| {
                    if button == Button::L {
                        [held, false]
                    } else {
                        [false, held]
                    }
                };
                for ms in t..t + 10 {
                    clock.sample_buttons(levels(true), ms, &mut out);
                }
                for ms in t + 10..t + 20 {
                    clock.sample_buttons(levels(false), ms, &mut out);
                }
            }
            Step::Key(t, key) => clock.key(key, t, t, &mut out),
            Step::ClockHost(t, frame) => link.feed(format!("{frame}\n").as_bytes(), |f| {
                clock.handle_host(f, t, &mut out)
            }),
        }
    }
    out.take()
}

#[test]
fn the_device_core_and_the_python_devices_send_the_same_bytes() {
    let Some(dir) = conformance_dir() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI: shared/conformance/devices.py is missing"
        );
        eprintln!("skipped: shared/conformance/devices.py not found (set GOBAN_CONFORMANCE)");
        return;
    };
    let script = python_script(&dir.to_string_lossy());
    let mut child = match Command::new("python3")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(err) => {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI: python3 not found: {err}"
            );
            eprintln!("skipped: python3 not found");
            return;
        }
    };
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("write to python");
    let output = child.wait_with_output().expect("python output");
    assert!(output.status.success(), "python failed: {output:?}");
    let python: Vec<String> = String::from_utf8(output.stdout)
        .expect("ASCII")
        .lines()
        .map(str::to_owned)
        .collect();
    assert!(python.len() >= 15, "too few frames: {python:?}");
    assert_eq!(core_lines(), python);
}
