//! Benchmarks of the referee: cost per board reading (a stone placed and settled) and per complete noisy corpus game.

#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;

use common::corpus::{ai_games, new_game};
use common::physical::Hands;
use common::table::Table;
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use goban_referee::{Input, PointChange, Reading, Referee, RefereeConfig, Timestamp};

/// The input log of one game, as the daemon journals it.
type Journal = Vec<(Timestamp, Input)>;

/// One noisy game's input journal (the first ai-19x19 game) and its number of moves.
fn journal() -> Option<(RefereeConfig, Journal, usize)> {
    let dir = std::env::var("GOBAN_CORPUS").ok()?;
    let record = ai_games(std::path::Path::new(&dir)).into_iter().next()?;
    let config = RefereeConfig {
        size: record.size,
        ..RefereeConfig::default()
    };
    let mut t = Table::started(config.clone());
    let mut hands = Hands::new(1, new_game(record.size).ok()?);
    for &(c, mv) in &record.moves {
        hands.play(&mut t, c, mv);
    }
    Some((config, t.journal, record.moves.len()))
}

fn replay(config: &RefereeConfig, journal: &[(Timestamp, Input)]) -> Referee {
    let mut r = Referee::new(config.clone()).expect("valid config");
    for (at, input) in journal {
        let _ = r.handle(*at, input.clone());
        while r.poll_event().is_some() {}
        while r.poll_device_command().is_some() {}
    }
    r
}

fn bench(c: &mut Criterion) {
    let Some((config, journal, moves)) = journal() else {
        eprintln!("skipped: GOBAN_CORPUS is not set");
        return;
    };
    let readings = journal
        .iter()
        .filter(|(_, i)| matches!(i, Input::BoardDiff { .. } | Input::BoardSnapshot { .. }))
        .count();
    eprintln!(
        "game: {moves} moves, {} inputs, {readings} board readings",
        journal.len()
    );
    c.bench_function("referee/complete_noisy_game", |b| {
        b.iter(|| black_box(replay(&config, &journal)))
    });
    // Mid-game, every deadline of the log handled: the side to move places a stone on an empty point.
    let half = journal.len() / 2;
    let mut mid = replay(&config, &journal[..half]);
    let start = journal[half - 1].0.plus_ms(60_000);
    while let Some(t) = mid.poll_timeout().filter(|t| *t < start) {
        let _ = mid.handle(t, Input::Timeout);
    }
    while mid.poll_event().is_some() {}
    while mid.poll_device_command().is_some() {}
    let state = mid.state();
    let empty = state.position.chars().position(|ch| ch == '.').unwrap_or(0) as u16;
    let stone = match state.to_move {
        goban_rules::Color::Black => Reading::Black,
        goban_rules::Color::White => Reading::White,
    };
    // Check once, outside the measurement, that this path really records a move.
    let mut probe = mid.clone();
    let change = PointChange {
        index: empty,
        state: stone,
    };
    let _ = probe.handle(
        start,
        Input::BoardDiff {
            changes: vec![change],
        },
    );
    let _ = probe.handle(start.plus_ms(300), Input::Timeout);
    assert_eq!(
        probe.state().move_number,
        state.move_number + 1,
        "the bench stone is a move"
    );
    assert!(
        probe.state().infractions.len() == state.infractions.len(),
        "and no alert"
    );
    c.bench_function("referee/reading_settled_into_a_move", |b| {
        b.iter_batched(
            || mid.clone(),
            |mut r| {
                let change = PointChange {
                    index: empty,
                    state: stone,
                };
                let _ = r.handle(
                    start,
                    Input::BoardDiff {
                        changes: vec![change],
                    },
                );
                let _ = r.handle(start.plus_ms(300), Input::Timeout);
                black_box(r)
            },
            BatchSize::SmallInput,
        )
    });
    c.bench_function("referee/reading_flicker", |b| {
        b.iter_batched(
            || mid.clone(),
            |mut r| {
                let change = PointChange {
                    index: empty,
                    state: Reading::White,
                };
                let _ = r.handle(
                    start,
                    Input::BoardDiff {
                        changes: vec![change],
                    },
                );
                black_box(r)
            },
            BatchSize::SmallInput,
        )
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
