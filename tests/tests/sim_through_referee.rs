//! The hardware simulator's human-like players fed straight into the referee: real games must raise no alert, lose no move and end on the recorded position.

use std::path::{Path, PathBuf};
use std::time::Duration;

use goban_hardware::sim::{Act, FaultScript, HumanProfile, Scenario, SimGame, Timeline};
use goban_protocol::{Button as WireButton, DeviceKind, Key, PointState};
use goban_referee::{
    ArbiterCommand, Button, ClockKey, Device, EventKind, GameSetup, Input, PointChange, Reading,
    Referee, RefereeConfig, Timestamp,
};
use goban_rules::{BoardSize, Move};

/// The demo's speed factor (`goban-bridge demo --speed`, default in daemon/src/cli/args.rs).
const DEMO_SPEED: f64 = 4.0;
/// How many corpus games each test plays unless `GOBAN_SIM_GAMES` says otherwise (250: all).
const GAMES: usize = 60;
/// An arbitrary wall-clock origin (ms since the epoch) for the virtual time.
const ORIGIN_MS: u64 = 1_800_000_000_000;

/// The number of games to play: `GOBAN_SIM_GAMES`, else [`GAMES`].
fn games_wanted() -> usize {
    std::env::var("GOBAN_SIM_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(GAMES)
}

/// The corpus directory, or `None` (printing that the test skipped) when unset outside CI.
fn corpus_dir() -> Option<PathBuf> {
    match std::env::var("GOBAN_CORPUS") {
        Ok(dir) => Some(PathBuf::from(dir)),
        Err(_) if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("GOBAN_CORPUS is not set: CI must point it at the shared corpus")
        }
        Err(_) => {
            eprintln!("skipped: GOBAN_CORPUS is not set");
            None
        }
    }
}

/// The first `limit` readable 19x19 games of at least 50 moves of `ai-19x19`, with their komi, in file order.
fn ai_games(dir: &Path, limit: usize) -> Vec<(SimGame, f64)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("ai-19x19"))
        .expect("corpus ai-19x19 readable")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("sgf")))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for file in files {
        let text = String::from_utf8_lossy(&std::fs::read(&file).expect("read")).into_owned();
        let name = file
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        let Ok(games) = SimGame::from_sgf(&text, &name) else {
            continue;
        };
        let komi = goban_rules::sgf::read_sgf(&text)
            .ok()
            .and_then(|g| g.first().map(|g| g.setup.komi))
            .unwrap_or(7.5);
        out.extend(
            games
                .into_iter()
                .filter(|g| g.size == 19 && g.moves.len() >= 50 && g.final_board().is_ok())
                .map(|g| (g, komi)),
        );
        if out.len() >= limit {
            break;
        }
    }
    out.truncate(limit);
    out
}

fn reading(state: PointState) -> Reading {
    match state {
        PointState::Empty => Reading::Empty,
        PointState::Black => Reading::Black,
        PointState::White => Reading::White,
        PointState::Unknown => Reading::Unknown,
    }
}

fn button(b: WireButton) -> Button {
    match b {
        WireButton::L => Button::L,
        WireButton::R => Button::R,
    }
}

fn key(k: Key) -> ClockKey {
    match k {
        Key::Pause => ClockKey::Pause,
        Key::Resume => ClockKey::Resume,
        Key::ResignL => ClockKey::ResignL,
        Key::ResignR => ClockKey::ResignR,
        Key::DoneL => ClockKey::DoneL,
        Key::DoneR => ClockKey::DoneR,
    }
}

/// What one game did at the referee.
struct Outcome {
    /// Alerts raised, as "kind (article) at move n: evidence".
    alerts: Vec<String>,
    /// Problems found against the record.
    problems: Vec<String>,
    moves: usize,
}

/// The referee with the deadlines that fall due before `until` delivered as `Timeout`s.
struct Driver {
    referee: Referee,
    alerts: Vec<String>,
}

impl Driver {
    fn deliver(&mut self, at: Timestamp, input: Input) {
        while let Some(due) = self.referee.poll_timeout().filter(|&d| d < at) {
            self.referee.handle(due, Input::Timeout).expect("timeout");
            self.drain();
        }
        let _ = self.referee.handle(at, input);
        self.drain();
    }

    fn drain(&mut self) {
        while let Some(event) = self.referee.poll_event() {
            if let EventKind::InfractionRaised { infraction } = event.kind {
                self.alerts.push(format!(
                    "{:?} ({}) at move {}: {:?}",
                    infraction.kind,
                    infraction.article,
                    infraction.move_number,
                    infraction
                        .evidence
                        .iter()
                        .map(|e| format!("{} {}", e.at, e.what))
                        .collect::<Vec<_>>()
                ));
            }
        }
        while self.referee.poll_device_command().is_some() {}
    }
}

/// Plays `game`'s timeline through a referee and compares the result with the record.
fn referee_game(game: &SimGame, komi: f64, timeline: &Timeline, board_lag_ms: u64) -> Outcome {
    let mut d = start_referee(game, komi);
    let (inputs, end) = inputs_of(timeline, board_lag_ms);
    for (t, input) in inputs {
        d.deliver(t, input);
    }
    // Let every deadline (settle, pass decision, grace) run out.
    d.deliver(end.plus_ms(60_000), Input::Timeout);
    let problems = compare(game, timeline, &d.referee);
    Outcome {
        alerts: d.alerts,
        problems,
        moves: game.moves.len(),
    }
}

/// A referee with both devices connected, an empty board read, and the record's game started.
fn start_referee(game: &SimGame, komi: f64) -> Driver {
    let config = RefereeConfig {
        size: game.size,
        clock_tick_ms: 0,
        ..RefereeConfig::default()
    };
    let mut d = Driver {
        referee: Referee::new(config).expect("referee"),
        alerts: Vec::new(),
    };
    let now = Timestamp(ORIGIN_MS);
    for device in [Device::Board, Device::Clock] {
        d.deliver(now, Input::DeviceConnected { device });
    }
    let points = usize::from(game.size) * usize::from(game.size);
    let points = ".".repeat(points);
    d.deliver(now, Input::BoardSnapshot { points });
    let setup = GameSetup {
        komi: Some(komi),
        handicap: Some(u8::try_from(game.setup.len()).unwrap_or(0)),
        free_handicap: Some(!game.setup.is_empty()),
        ..GameSetup::default()
    };
    d.deliver(
        now.plus_ms(1_000),
        Input::Arbiter(ArbiterCommand::StartGame(setup)),
    );
    d
}

/// The referee's inputs for a timeline, in arrival order, and the time of the last act.
/// Line noise without `$` never reaches the referee; a clock frame with a bad CRC is lost.
fn inputs_of(timeline: &Timeline, board_lag_ms: u64) -> (Vec<(Timestamp, Input)>, Timestamp) {
    let mut at = Timestamp(ORIGIN_MS + 2_000);
    let mut elapsed = Duration::ZERO;
    let mut lost_clock_frames = 0u32;
    let mut inputs: Vec<(Timestamp, Input)> = Vec::new();
    for step in &timeline.steps {
        elapsed += step.delay;
        at = Timestamp(ORIGIN_MS + 2_000 + u64::try_from(elapsed.as_millis()).expect("ms"));
        let (input, lag) = match &step.act {
            Act::Garbage { .. } => continue,
            Act::CorruptNext {
                device: DeviceKind::Clock,
                count,
            } => {
                lost_clock_frames += count;
                continue;
            }
            Act::Press { .. } | Act::Key { .. } if lost_clock_frames > 0 => {
                lost_clock_frames -= 1;
                continue;
            }
            // Board and clock are separate ports: the board's frames may reach the host later.
            Act::Board { changes } => {
                let changes = changes
                    .iter()
                    .map(|&(index, s)| PointChange {
                        index,
                        state: reading(s),
                    })
                    .collect();
                (Input::BoardDiff { changes }, board_lag_ms)
            }
            Act::Press { button: b } => (Input::ClockPress { button: button(*b) }, 0),
            Act::Key { key: k } => (Input::ClockKey { key: key(*k) }, 0),
            other => panic!("no such fault was scripted, yet the timeline has {other:?}"),
        };
        inputs.push((at.plus_ms(lag), input));
    }
    inputs.sort_by_key(|(t, _)| *t);
    (inputs, at)
}

/// Differences between the referee's game and the record.
fn compare(game: &SimGame, timeline: &Timeline, referee: &Referee) -> Vec<String> {
    let size = BoardSize::new(game.size).expect("size");
    let state = referee.state();
    let mut problems = Vec::new();
    let expected: Vec<String> = game
        .moves
        .iter()
        .map(|&(_, mv)| match mv {
            Move::Pass => "pass".to_owned(),
            Move::Play(p) => p.to_human(size),
        })
        .collect();
    let got: Vec<String> = state.moves.iter().map(|m| m.point.to_string()).collect();
    if let Some(i) = (0..expected.len().max(got.len())).find(|&i| expected.get(i) != got.get(i)) {
        problems.push(format!(
            "{}: move {} is {:?}, the record has {:?} ({} moves recorded of {})",
            game.name,
            i + 1,
            got.get(i),
            expected.get(i),
            got.len(),
            expected.len()
        ));
    }
    let position: String = timeline
        .final_position
        .iter()
        .map(|&s| reading(s).to_char())
        .collect();
    if state.position != position {
        problems.push(format!(
            "{}: final position differs from the record",
            game.name
        ));
    }
    problems
}

/// Builds and referees `games` with `profile`; prints and returns (games, moves, alerts, problems).
fn run_all(
    games: &[(SimGame, f64)],
    profile: HumanProfile,
    script: &FaultScript,
    board_lag_ms: u64,
    label: &str,
) -> (usize, usize, Vec<String>, Vec<String>) {
    let (mut moves, mut alerts, mut problems) = (0, Vec::new(), Vec::new());
    for (i, (game, komi)) in games.iter().enumerate() {
        let scenario = Scenario {
            game: game.clone(),
            profile,
            script: script.clone(),
            seed: 1_000 + i as u64,
        };
        let timeline = scenario.build().expect("timeline");
        let outcome = referee_game(game, *komi, &timeline, board_lag_ms);
        moves += outcome.moves;
        alerts.extend(
            outcome
                .alerts
                .into_iter()
                .map(|a| format!("{}: {a}", game.name)),
        );
        problems.extend(outcome.problems);
    }
    eprintln!(
        "{label}: {} games, {moves} moves, {} alerts, {} problems",
        games.len(),
        alerts.len(),
        problems.len()
    );
    (games.len(), moves, alerts, problems)
}

fn check(games: usize, profile: HumanProfile, board_lag_ms: u64, label: &str) {
    let Some(dir) = corpus_dir() else { return };
    let games = ai_games(&dir, games);
    assert!(
        !games.is_empty(),
        "no ai-19x19 game read from {}",
        dir.display()
    );
    let (_, _, alerts, problems) = run_all(
        &games,
        profile,
        &FaultScript::default(),
        board_lag_ms,
        label,
    );
    assert!(alerts.is_empty(), "false alarms:\n{}", alerts.join("\n"));
    assert!(problems.is_empty(), "problems:\n{}", problems.join("\n"));
}

#[test]
fn default_players_raise_no_alert_and_lose_no_move() {
    check(
        games_wanted(),
        HumanProfile::default(),
        0,
        "default profile",
    );
}

#[test]
fn demo_speed_players_raise_no_alert_and_lose_no_move() {
    let profile = HumanProfile {
        speed: DEMO_SPEED,
        ..HumanProfile::default()
    };
    check(games_wanted(), profile, 0, "demo profile");
}

#[test]
fn demo_speed_with_board_frames_arriving_late_raises_no_alert() {
    let profile = HumanProfile {
        speed: DEMO_SPEED,
        ..HumanProfile::default()
    };
    check(
        games_wanted(),
        profile,
        40,
        "demo profile, board 40 ms late",
    );
}

/// The demo's fault script (daemon/src/cli/demo.rs `DEMO_SCRIPT`).
const DEMO_SCRIPT: &str = r#"{"steps": [
  {"at_move": 8, "fault": "garbage", "device": "board", "bytes": 48},
  {"at_move": 14, "fault": "premature_press"},
  {"at_move": 30, "fault": "missed_capture"},
  {"at_move": 45, "fault": "crc_error", "device": "clock"}
]}"#;

#[test]
fn demo_script_raises_only_the_staged_alerts() {
    let Some(dir) = corpus_dir() else { return };
    let games = ai_games(&dir, games_wanted());
    let script = FaultScript::from_json(DEMO_SCRIPT, "demo").expect("script");
    let profile = HumanProfile {
        speed: DEMO_SPEED,
        ..HumanProfile::default()
    };
    let (_, _, alerts, problems) = run_all(&games, profile, &script, 0, "demo script");
    assert!(problems.is_empty(), "problems:\n{}", problems.join("\n"));
    // Only the staged infractions, once per game each: the premature press (CN2002 17.4) and
    // the missed capture (CN2002 18.2, 22.6); no cascade, no double move, no pass.
    for (game, _) in &games {
        let mine: Vec<&String> = alerts
            .iter()
            .filter(|a| a.starts_with(&format!("{}: ", game.name)))
            .collect();
        let premature = mine
            .iter()
            .filter(|a| a.contains("PrematurePress (CN2002 17.4)"));
        let missed = mine
            .iter()
            .filter(|a| a.contains("MissedCapture (CN2002 18.2, 22.6)"));
        assert!(premature.count() <= 1, "{mine:#?}");
        assert!(missed.count() <= 1, "{mine:#?}");
        assert!(
            mine.iter()
                .all(|a| a.contains("PrematurePress") || a.contains("MissedCapture")),
            "{mine:#?}"
        );
    }
    let staged = alerts
        .iter()
        .filter(|a| a.contains("PrematurePress"))
        .count();
    assert_eq!(
        staged,
        games.len(),
        "one staged premature press per game: {alerts:#?}"
    );
}
