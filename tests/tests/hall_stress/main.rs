//! The hall-stress suite: the simulator's players and devices, disturbed as in a real hall, drive the real referee in virtual time over corpus games; it prints the counts per scenario and asserts the targets.
//!
//! Run: `GOBAN_CORPUS=../shared/corpus cargo test -p goban-e2e --test hall_stress -- --nocapture`.
//! `GOBAN_STRESS_GAMES=N` plays N games per scenario (default 3, and at least 12 for blitz pace and chattering sensors; a longer local run: 20),
//! `GOBAN_STRESS_ONLY=text` only the scenarios whose name contains `text`, `GOBAN_STRESS_TRACE=1`
//! every input and event of the referee on stderr.

mod corpus;
mod hall;
mod scenarios;
mod signatures;
mod tally;

use goban_hardware::sim::{Act, Scenario as SimScenario, SimGame, Timeline};
use goban_protocol::{DeviceKind, PointState};
use goban_referee::{ArbiterCommand, GameSetup};
use goban_rules::{BoardSize, Move};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use corpus::CorpusGame;
use hall::{Cue, Hall};
use scenarios::{Plan, Scenario, Series};
use tally::{Counts, Expected};

/// Games per scenario unless `GOBAN_STRESS_GAMES` says otherwise: keeps the suite at well
/// under a minute of CI time in debug.
const GAMES: usize = 3;

/// Scenarios that do not meet the targets yet with the default game count (issue 15, the
/// referee's part). The suite fails when one of them starts passing (remove it here) or
/// another one fails: the list can only shrink.
///
/// None now. The last one (issue 39: G02 at 0.25 s a move, White captures two stones and
/// Black retakes at once, before the region is quiet enough to report it) was a false
/// `missed_capture`: `Debouncer::retaken_since` now tells the retaken point from the
/// captured stone left on it.
const KNOWN_FAILING: &[&str] = &[];

fn games_per_scenario() -> usize {
    std::env::var("GOBAN_STRESS_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(GAMES)
}

fn expected_moves(game: &SimGame) -> Vec<String> {
    let size = BoardSize::new(game.size).expect("size");
    game.moves
        .iter()
        .map(|&(_, mv)| match mv {
            Move::Pass => "pass".to_owned(),
            Move::Play(p) => p.to_human(size),
        })
        .collect()
}

/// The arbiter's start: komi, and the handicap as fixed or free placement.
fn setup_of(g: &CorpusGame) -> GameSetup {
    let n = u8::try_from(g.game.setup.len()).unwrap_or(0);
    let fixed = BoardSize::new(g.game.size)
        .ok()
        .and_then(|size| goban_rules::handicap::fixed_handicap_points(size, n).ok())
        .is_some_and(|points| {
            points.len() == g.game.setup.len()
                && points
                    .iter()
                    .all(|p| g.game.setup.iter().any(|(q, _)| q == p))
        });
    GameSetup {
        komi: Some(g.komi),
        handicap: Some(n),
        free_handicap: Some(n > 0 && !fixed),
        ..GameSetup::default()
    }
}

/// The timeline's acts at absolute times from `from` ms; returns the end.
fn place(cues: &mut Vec<(u64, Cue)>, timeline: &Timeline, from: u64) -> u64 {
    let mut at = from;
    for step in &timeline.steps {
        at += u64::try_from(step.delay.as_millis()).unwrap_or(u64::MAX);
        cues.push((at, Cue::Act(step.act.clone())));
    }
    at
}

/// The players sweep the stones off in handfuls; returns the end.
fn clear(
    cues: &mut Vec<(u64, Cue)>,
    rng: &mut SmallRng,
    position: &[PointState],
    from: u64,
) -> u64 {
    let mut stones: Vec<u16> = position
        .iter()
        .enumerate()
        .filter(|(_, s)| matches!(s, PointState::Black | PointState::White))
        .filter_map(|(i, _)| u16::try_from(i).ok())
        .collect();
    stones.shuffle(rng);
    let mut at = from;
    for handful in stones.chunks(5) {
        at += rng.random_range(300..900);
        let changes = handful.iter().map(|&p| (p, PointState::Empty)).collect();
        cues.push((at, Cue::Act(Act::Board { changes })));
    }
    at
}

fn timeline(game: &CorpusGame, plan: &Plan, seed: u64) -> Timeline {
    SimScenario {
        game: game.game.clone(),
        profile: plan.profile,
        script: plan.script.clone(),
        seed,
    }
    .build()
    .expect("timeline")
}

/// One game on a fresh table.
fn play_single(game: &CorpusGame, plan: &Plan, seed: u64) -> Counts {
    let timeline = timeline(game, plan, seed);
    let mut cues = vec![
        (0, Cue::Plug(DeviceKind::Clock)),
        (1_000, Cue::Start(setup_of(game))),
    ];
    let end = place(&mut cues, &timeline, 2_000);
    signatures::apply(
        &mut cues,
        &plan.signatures,
        &mut SmallRng::seed_from_u64(seed ^ 0x39),
    );
    let board_at = plan.board_joins_after.map_or(0, |k| {
        let press = cues
            .iter()
            .filter(|(_, c)| matches!(c, Cue::Act(Act::Press { .. })))
            .nth(k)
            .map_or(end, |(at, _)| *at);
        press + 300
    });
    cues.push((board_at, Cue::Plug(DeviceKind::Board)));
    cues.sort_by_key(|(at, _)| *at);
    let mut hall = Hall::new(plan.wiring);
    hall.run(cues);
    let expected = Expected {
        name: game.game.name.clone(),
        moves: expected_moves(&game.game),
        staged: plan.staged.clone(),
        blind_spells: plan.blind_spells,
    };
    let mut counts = tally::count(&expected, &hall.games[0]);
    counts.play_ms = u64::try_from(timeline.duration().as_millis()).unwrap_or(0);
    counts
}

/// Three games in a row on one table, cleared or not before each start.
fn play_series(games: [&CorpusGame; 3], plan: &Plan, series: Series, seed: u64) -> Counts {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut cues = vec![
        (0, Cue::Plug(DeviceKind::Board)),
        (0, Cue::Plug(DeviceKind::Clock)),
    ];
    let mut t = 1_000;
    let mut last: Option<Timeline> = None;
    let mut timelines = Vec::new();
    for (i, game) in games.iter().enumerate() {
        if let Some(prev) = &last {
            if series.cleared {
                t = clear(&mut cues, &mut rng, &prev.final_position, t + 5_000) + 3_000;
                cues.push((t, Cue::Start(setup_of(game))));
            } else {
                t += 5_000;
                cues.push((t, Cue::Start(setup_of(game))));
                t = clear(&mut cues, &mut rng, &prev.final_position, t + 2_000);
            }
        } else {
            cues.push((t, Cue::Start(setup_of(game))));
        }
        let tl = timeline(game, plan, seed + i as u64);
        t = place(&mut cues, &tl, t + 1_000);
        if game.game.resigned.is_none() {
            // The players agree on the result and the arbiter records it before they clear,
            // after the referee's pass decision (4 s by default).
            t += 8_000;
            cues.push((
                t,
                Cue::Arbiter(ArbiterCommand::SetResult {
                    result: goban_rules::GameResult::Draw.into(),
                    force: true,
                }),
            ));
        }
        timelines.push(tl.duration());
        last = Some(tl);
    }
    cues.sort_by_key(|(at, _)| *at);
    let mut hall = Hall::new(plan.wiring);
    hall.run(cues);
    let mut total = Counts::default();
    for (i, game) in games.iter().enumerate() {
        let expected = Expected {
            name: format!("game {} {}", i + 1, game.game.name),
            moves: expected_moves(&game.game),
            staged: Vec::new(),
            blind_spells: 0,
        };
        let log = hall.games.get(i).cloned().unwrap_or_default();
        let mut c = tally::count(&expected, &log);
        c.play_ms = u64::try_from(timelines[i].as_millis()).unwrap_or(0);
        total.add(&c);
    }
    total
}

fn run_scenario(
    index: usize,
    scn: &Scenario,
    even: &[CorpusGame],
    handicap: &[CorpusGame],
) -> Counts {
    let mut total = Counts::default();
    // One game of each scenario only (0-based), to trace it (`GOBAN_STRESS_TRACE`).
    let only_game: Option<usize> = std::env::var("GOBAN_STRESS_GAME")
        .ok()
        .and_then(|g| g.parse().ok());
    for g in 0..games_per_scenario().max(scn.min_games) {
        if only_game.is_some_and(|o| o != g) {
            continue;
        }
        total.add(&play_one(index, scn, even, handicap, g));
    }
    total
}

/// Game `g` of scenario `scn` (the `index`-th), with its own seed.
fn play_one(
    index: usize,
    scn: &Scenario,
    even: &[CorpusGame],
    handicap: &[CorpusGame],
    g: usize,
) -> Counts {
    let seed = 15_000 + 1_000 * index as u64 + g as u64;
    let mut rng = SmallRng::seed_from_u64(seed);
    let pick = |k: usize| &even[(index * 7 + g * 3 + k) % even.len()];
    match scn.series {
        None => {
            let game = if scn.handicap {
                &handicap[(index + g) % handicap.len()]
            } else {
                pick(0)
            };
            let plan = (scn.build)(&mut rng, game.game.moves.len());
            play_single(game, &plan, seed)
        }
        Some(series) => {
            let second = if series.handicap {
                &handicap[(index + g) % handicap.len()]
            } else {
                pick(1)
            };
            let plan = (scn.build)(&mut rng, 0);
            play_series([pick(0), second, pick(2)], &plan, series, seed)
        }
    }
}

/// Games that only a longer run (`GOBAN_STRESS_GAMES=10`) played and found failing, replayed
/// in every run with their own seeds: (scenario, games per scenario of that run, game).
const FOUND_BY_LONGER_RUNS: &[(&str, usize, usize)] = &[
    // AlphaGo G04, move 223: a ko retaken after a threat and its answer, before the region
    // reported the capture, was a phantom pass (issue 39).
    ("pace 0.25 s/move", 10, 11),
    // AlphaGo G26, move 179: the press's stone still under a hand when the opponent's stone
    // came was a phantom pass (issue 39).
    (
        "newest stone flickers as the reply lands, 0.25 s/move",
        10,
        2,
    ),
    // Black's stone played and captured while the host was away: its press, with nothing on
    // the board to show for it, held every later move (issue 39; 132 of 2,542 moves lost in
    // that run). Now a block with one move nobody saw, and the game read on.
    ("host away 5-20 s, demo pace", 10, 9),
];

#[test]
fn games_found_failing_by_longer_runs_meet_the_targets() {
    let Some(dir) = corpus::corpus_dir() else {
        return;
    };
    let handicap = corpus::handicap_games(&dir, 6);
    let all = scenarios::all();
    for &(name, per, g) in FOUND_BY_LONGER_RUNS {
        let index = all
            .iter()
            .position(|s| s.name == name)
            .unwrap_or_else(|| panic!("no scenario {name:?}"));
        let even = corpus::even_games(&dir, (per * 3).clamp(12, 60));
        let counts = play_one(index, &all[index], &even, &handicap, g);
        assert!(
            counts.passes() && counts.lost == 0,
            "{name}, game {g} of a {per}-game run: {counts:?}"
        );
    }
}

#[test]
fn hall_stress_meets_the_targets_or_is_listed_as_known_failing() {
    let Some(dir) = corpus::corpus_dir() else {
        return;
    };
    let per = games_per_scenario();
    let even = corpus::even_games(&dir, (per * 3).clamp(12, 60));
    let handicap = corpus::handicap_games(&dir, 6);
    let only = std::env::var("GOBAN_STRESS_ONLY").ok();
    let mut rows = Vec::new();
    let all = scenarios::all();
    for scn in &all {
        if only.as_deref().is_some_and(|o| !scn.name.contains(o)) {
            continue;
        }
        // A SYNC scenario plays the same games and seeds as its v1 twin.
        let twin = scn.name.replace(", SYNC", "");
        let i = all
            .iter()
            .position(|s| s.name == twin || s.name.starts_with(&format!("{twin}, window")))
            .unwrap_or(0);
        rows.push((scn.name.clone(), run_scenario(i, scn, &even, &handicap)));
    }
    let report = format!(
        "hall stress, {per} game(s) per scenario, 12 at least for blitz pace and chattering sensors:\n{}",
        tally::table(&rows)
    );
    eprintln!("\n{report}");
    // CI prints it after `cargo test` (.ci/run), which hides a passing test's output.
    let file = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("hall_stress.txt");
    if let Err(err) = std::fs::write(&file, &report) {
        eprintln!("could not write {}: {err}", file.display());
    }
    let failing: Vec<&(String, Counts)> = rows.iter().filter(|(_, c)| !c.passes()).collect();
    for (name, c) in &failing {
        eprintln!("FAILING {name}:\n  {}", c.examples.join("\n  "));
    }
    let new: Vec<&str> = failing
        .iter()
        .map(|(n, _)| n.as_str())
        .filter(|n| !KNOWN_FAILING.contains(n))
        .collect();
    let fixed: Vec<&str> = rows
        .iter()
        .filter(|(n, c)| c.passes() && KNOWN_FAILING.contains(&n.as_str()))
        .map(|(n, _)| n.as_str())
        .collect();
    assert!(
        new.is_empty(),
        "scenarios miss the targets and are not known to fail: {new:?}"
    );
    assert!(
        fixed.is_empty(),
        "scenarios now meet the targets: remove them from KNOWN_FAILING: {fixed:?}"
    );
}
