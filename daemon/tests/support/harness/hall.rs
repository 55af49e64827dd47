//! Several tables at once for the fault-injection tests: a config with boards `table-1..=n`, seeded random 9x9 games played act by act on harness devices (held at a gate while the daemon is down), and the move record an SGF holds.

use std::path::Path;
use std::time::{Duration, Instant};

use goban_rules::{BoardSize, Color, Game, GameSetup, Move, Point, Ruleset};
use serde_json::Value;
use tokio::sync::watch;

use super::daemon::{BOARD, Setup};
use super::device::Device;

/// Between two physical acts, as `harness::game::act`: longer than the e2e settle time (100 ms).
const ACT_PAUSE: Duration = Duration::from_millis(300);
/// From the last act on the board to the press. A daemon starved of CPU for longer than this
/// reads the stone and the press in one go, stamped alike, and calls the press premature
/// (seen at 300 and 500 ms with a load average of 11-15 on 2 cores): these tests are about
/// faults, not load, so the hand takes its time.
const PRESS_PAUSE: Duration = Duration::from_millis(800);
const SIZE: BoardSize = BoardSize::NINE;

/// SplitMix64: a small seeded generator, so a failing run replays from its printed seed.
pub(crate) struct Prng(u64);

impl Prng {
    pub(crate) fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// A duration uniform in `lo..hi` ms.
    pub(crate) fn millis(&mut self, lo: u64, hi: u64) -> Duration {
        Duration::from_millis(lo + self.below(hi.saturating_sub(lo)))
    }
}

/// The seed of a test: `GOBAN_FAULT_SEED` when set (to replay a failure), else `default`.
pub(crate) fn seed(default: u64) -> u64 {
    std::env::var("GOBAN_FAULT_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// One table: a 9x9 board and a clock, each on its own pty.
pub(crate) struct Table {
    pub(crate) id: String,
    pub(crate) board: Device,
    pub(crate) clock: Device,
}

impl Table {
    /// Tables `table-1..=n` (table-1 is the harness's [`BOARD`]).
    pub(crate) fn open(n: usize) -> Vec<Self> {
        (1..=n)
            .map(|i| Self {
                id: format!("table-{i}"),
                board: Device::board(9),
                clock: Device::clock(),
            })
            .collect()
    }
}

/// A setup whose config holds every table (9x9, CN2002, 90 minutes, autostart).
pub(crate) fn setup(dir: &Path, tables: &[Table], broker_port: u16) -> Setup {
    let ports: Vec<(&str, &Path, &Path)> = tables
        .iter()
        .map(|t| (t.id.as_str(), t.board.path(), t.clock.path()))
        .collect();
    setup_ports(dir, &ports, broker_port)
}

/// As [`setup`], with the ports given as `(id, board port, clock port)` (e.g. stable links).
pub(crate) fn setup_ports(dir: &Path, ports: &[(&str, &Path, &Path)], broker_port: u16) -> Setup {
    assert_eq!(ports[0].0, BOARD, "table-1 first");
    let mut setup = Setup::new(dir, ports[0].1, ports[0].2, broker_port);
    for (id, board, clock) in &ports[1..] {
        setup.boards_extra.push_str(&format!(
            "[[board]]\nid = \"{id}\"\nboard_port = \"{}\"\nclock_port = \"{}\"\nsize = 9\n\
             ruleset = \"cn2002\"\ntime_control = \"absolute:main=90m\"\nautostart = true\n\
             black = \"E2E Black\"\nwhite = \"E2E White\"\n",
            board.display(),
            clock.display(),
        ));
    }
    setup
}

/// One planned move: a stone (point index, row-major from Black's top-left), the stones it
/// captures, and whether the player presses the clock before placing it (CN2002 17.4).
#[derive(Clone, Debug)]
pub(crate) struct Planned {
    pub(crate) color: Color,
    pub(crate) point: usize,
    pub(crate) captures: Vec<usize>,
    pub(crate) premature: bool,
}

impl Planned {
    fn at(&self) -> Point {
        Point(u16::try_from(self.point).expect("9x9 point"))
    }

    /// The api.md name, `D7`.
    pub(crate) fn name(&self) -> String {
        self.at().to_human(SIZE)
    }

    /// The SGF move node, `B[dc]`.
    pub(crate) fn sgf(&self) -> String {
        format!("{}[{}]", letter(self.color), self.at().to_sgf(SIZE))
    }

    fn stone(&self) -> u8 {
        letter(self.color) as u8
    }

    fn button(&self) -> char {
        button(self.color)
    }
}

fn letter(color: Color) -> char {
    match color {
        Color::Black => 'B',
        Color::White => 'W',
    }
}

/// Black presses L, White R (the e2e config's default `black_button`).
fn button(color: Color) -> char {
    match color {
        Color::Black => 'L',
        Color::White => 'R',
    }
}

/// A game to play at a table: its moves, then the player to move resigns with the clock key.
#[derive(Clone, Debug)]
pub(crate) struct Script {
    pub(crate) moves: Vec<Planned>,
    pub(crate) resigns: Color,
}

impl Script {
    /// `len` random legal moves drawn from `seed` (no passes, no filling of one's own
    /// one-point eyes; a capture or an atari when one is at hand, three times in four, so that
    /// games capture), the move at index `premature_at` with a premature press.
    pub(crate) fn random(seed: u64, len: usize, premature_at: Option<usize>) -> Self {
        let mut game = Game::new(GameSetup::new(SIZE, Ruleset::Cn2002)).expect("a 9x9 game");
        let mut rng = Prng::new(seed);
        let mut moves = Vec::with_capacity(len);
        while moves.len() < len {
            let color = game.to_move();
            let board = game.board();
            let legal: Vec<Point> = SIZE
                .all_points()
                .filter(|&p| game.check(color, Move::Play(p)).is_ok())
                .filter(|&p| board.neighbours(p).any(|n| board.get(n) != Some(color)))
                .collect();
            let sharp: Vec<Point> = legal
                .iter()
                .copied()
                .filter(|&p| {
                    let captures = game.preview(color, p).is_ok_and(|c| !c.is_empty());
                    let atari = board.neighbours(p).any(|n| {
                        board.get(n) == Some(color.opponent()) && board.liberties(n).len() == 2
                    });
                    captures || atari
                })
                .collect();
            let pool = if !sharp.is_empty() && rng.below(4) < 3 {
                &sharp
            } else {
                &legal
            };
            assert!(!pool.is_empty(), "seed {seed}: no move left");
            let idx = usize::try_from(rng.below(pool.len() as u64)).expect("index");
            let p = pool[idx];
            let captured = game.play(color, Move::Play(p)).expect("a legal move");
            moves.push(Planned {
                color,
                point: p.index(),
                captures: captured.iter().map(|c| c.index()).collect(),
                premature: premature_at == Some(moves.len()),
            });
        }
        Self {
            moves,
            resigns: game.to_move(),
        }
    }

    /// The SGF `RE` of the game: the other player wins by resignation.
    pub(crate) fn result(&self) -> &'static str {
        match self.resigns {
            Color::Black => "W+R",
            Color::White => "B+R",
        }
    }

    /// The SGF move nodes, `["B[dc]", "W[ec]", ...]`.
    pub(crate) fn record(&self) -> Vec<String> {
        self.moves.iter().map(Planned::sgf).collect()
    }

    /// `(color, point)` of each move as api.md names them (`("black", "D7")`).
    pub(crate) fn points(&self) -> Vec<(String, String)> {
        self.moves
            .iter()
            .map(|m| (colour_name(m.color).to_string(), m.name()))
            .collect()
    }

    /// How many moves capture stones.
    pub(crate) fn captures(&self) -> usize {
        self.moves.iter().filter(|m| !m.captures.is_empty()).count()
    }
}

fn colour_name(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// The move nodes (`B[dc]`, `W[]` for a pass) and the `RE` of an SGF text, in order; the
/// rest (times `BL`/`WL`, comments, game information) is left out.
pub(crate) fn sgf_record(sgf: &str) -> (Vec<String>, Option<String>) {
    let bytes = sgf.as_bytes();
    let mut moves = Vec::new();
    let mut result = None;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            // A property value; skipped whole, escapes included, so a comment cannot fake a node.
            b'[' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b']' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b';' => {
                let rest = &sgf[i + 1..];
                let node = rest.trim_start();
                for colour in ["B[", "W["] {
                    if let Some(value) = node.strip_prefix(colour) {
                        let end = value.find(']').unwrap_or(0);
                        moves.push(format!("{colour}{}]", &value[..end]));
                    }
                }
            }
            b'R' if sgf[i..].starts_with("RE[") && !is_ident(bytes.get(i.wrapping_sub(1))) => {
                let value = &sgf[i + 3..];
                result = Some(value[..value.find(']').unwrap_or(0)].to_string());
            }
            _ => {}
        }
        i += 1;
    }
    (moves, result)
}

fn is_ident(byte: Option<&u8>) -> bool {
    byte.is_some_and(u8::is_ascii_uppercase)
}

/// Waits until `gate` is open (the daemon is up).
async fn open(gate: &mut watch::Receiver<bool>) {
    let _ = gate.wait_for(|open| *open).await;
}

/// A client for polling while the daemon may be down.
pub(crate) fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(5))
        .build()
        .expect("http client")
}

/// GET `{base}{path}` as JSON, `None` while the daemon does not answer 200.
pub(crate) async fn try_get(http: &reqwest::Client, base: &str, path: &str) -> Option<Value> {
    let resp = http.get(format!("{base}{path}")).send().await.ok()?;
    if !resp.status().is_success() {
        return None;
    }
    resp.json().await.ok()
}

/// Waits (`limit` at most, the daemon may be restarting meanwhile) until board `id` shows `done`.
pub(crate) async fn wait_board(
    base: &str,
    id: &str,
    what: &str,
    limit: Duration,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let http = client();
    let deadline = Instant::now() + limit;
    let mut last = Value::Null;
    loop {
        if let Some(state) = try_get(&http, base, &format!("/boards/{id}")).await {
            if done(&state) {
                return state;
            }
            last = state;
        }
        assert!(
            Instant::now() < deadline,
            "{id}: {what} not reached in {limit:?}; last state: seq={} move_number={} device={} infractions={}",
            last["seq"],
            last["move_number"],
            last["device"],
            last["infractions"]
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Whether the referee reads the board (connected, not waiting for a snapshot).
pub(crate) fn reads(state: &Value) -> bool {
    let device = &state["device"];
    device["board"] == "connected"
        && device["clock"] == "connected"
        && device["interpretation"]
            .as_str()
            .is_none_or(|i| i == "reading")
}

/// The physical acts of one move at `table`, each only while `gate` is open: (a premature
/// press,) the stone, the captured stones lifted one by one, the press.
pub(crate) async fn act(table: &Table, mv: &Planned, gate: &mut watch::Receiver<bool>) {
    if mv.premature {
        open(gate).await;
        table.clock.press(mv.button());
        tokio::time::sleep(ACT_PAUSE).await;
    }
    open(gate).await;
    table.board.set(&[(mv.point, mv.stone())]);
    for &c in &mv.captures {
        tokio::time::sleep(ACT_PAUSE).await;
        open(gate).await;
        table.board.set(&[(c, b'.')]);
    }
    if !mv.premature {
        tokio::time::sleep(PRESS_PAUSE).await;
        open(gate).await;
        table.clock.press(mv.button());
    }
}

/// Waits (60 s at most) until board `id` at `base` shows `number` moves.
pub(crate) async fn wait_moves(base: &str, id: &str, number: usize) -> Value {
    let what = format!("move {number}");
    wait_board(base, id, &what, Duration::from_secs(60), |s| {
        s["move_number"].as_u64() >= Some(number as u64)
    })
    .await
}

/// Waits (30 s at most) until move `number` of board `id` is completed by its press (its
/// `time_left_ms` is known).
pub(crate) async fn wait_pressed(base: &str, id: &str, number: usize) -> Value {
    let what = format!("the press of move {number}");
    wait_board(base, id, &what, Duration::from_secs(30), |s| {
        s["moves"][number - 1]["time_left_ms"].is_number()
    })
    .await
}

/// Plays `script` at `table`, each physical act only while `gate` is open, waiting after each
/// move until the daemon at `base` shows it; ends with the resignation key.
pub(crate) async fn play_script(
    base: &str,
    table: &Table,
    script: &Script,
    mut gate: watch::Receiver<bool>,
) {
    for (i, mv) in script.moves.iter().enumerate() {
        act(table, mv, &mut gate).await;
        wait_moves(base, &table.id, i + 1).await;
    }
    open(&mut gate).await;
    table.clock.key(match script.resigns {
        Color::Black => "RESIGN_L",
        Color::White => "RESIGN_R",
    });
    wait_board(
        base,
        &table.id,
        "the resignation",
        Duration::from_secs(60),
        |s| s["phase"] == "finished",
    )
    .await;
}

/// The `(number, color, point)` the published move events leave standing, in seq order:
/// a `move_played` sets a number, a `correction` changes its point (`now`, `none`
/// withdraws it). `events` are `(seq, topic, payload)`.
pub(crate) fn standing_moves(
    events: &std::collections::BTreeMap<u64, (String, Value)>,
) -> std::collections::BTreeMap<u64, (String, String)> {
    let mut moves = std::collections::BTreeMap::new();
    for (topic, event) in events.values() {
        if topic != "moves" {
            continue;
        }
        let Some(number) = event["number"].as_u64() else {
            continue;
        };
        match event["event"].as_str() {
            Some("move_played") => {
                let color = event["color"].as_str().unwrap_or_default().to_string();
                let point = event["point"].as_str().unwrap_or("pass").to_string();
                moves.insert(number, (color, point));
            }
            Some("correction") => match event["now"].as_str() {
                Some("none") => {
                    moves.remove(&number);
                }
                Some(now) => {
                    if let Some(m) = moves.get_mut(&number) {
                        m.1 = now.to_string();
                    }
                }
                None => {}
            },
            _ => {}
        }
    }
    moves
}

/// `(color, point)` of each move of a REST move list (`state.moves` or `/moves`).
pub(crate) fn rest_moves(moves: &Value) -> Vec<(String, String)> {
    moves
        .as_array()
        .map(|a| {
            a.iter()
                .map(|m| {
                    (
                        m["color"].as_str().unwrap_or_default().to_string(),
                        m["point"].as_str().unwrap_or("pass").to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}
