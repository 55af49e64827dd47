//! Real games turned into noisy physical play (hands, slides, lifts, one-by-one captures, flicker): no alert, every move recovered.

mod common;

use common::corpus::{Record, ai_games, corpus_dir, new_game, small_board_games};
use common::physical::{Hands, readings};
use common::table::Table;
use goban_referee::{ArbiterCommand, GameSetup, RefereeConfig};
use goban_rules::{BoardSize, Move};

/// A table with a game under a generous byo-yomi, so presses drive a real clock.
pub fn table_for(record: &Record) -> Table {
    let mut t = Table::new(RefereeConfig {
        size: record.size,
        ..RefereeConfig::default()
    });
    let setup = GameSetup {
        time_control: Some(
            "byoyomi-cn:main=60m,reserve=5"
                .parse()
                .expect("grammar of api.md"),
        ),
        ..GameSetup::default()
    };
    t.arbiter(ArbiterCommand::StartGame(setup));
    t
}

fn names(record: &Record) -> Vec<String> {
    let size = BoardSize::new(record.size).unwrap();
    record
        .moves
        .iter()
        .map(|&(_, mv)| match mv {
            Move::Pass => "pass".to_owned(),
            Move::Play(p) => p.to_human(size),
        })
        .collect()
}

#[test]
fn noisy_corpus_games_raise_no_alert_and_recover_every_move() {
    let Some(dir) = corpus_dir() else { return };
    let games = ai_games(&dir);
    assert!(
        games.len() >= 200,
        "the corpus offers {} usable games, 200 needed",
        games.len()
    );
    let (mut moves, mut inputs, mut failures) = (0usize, 0usize, Vec::new());
    for (i, record) in games.iter().enumerate() {
        let mut t = table_for(record);
        let mut hands = Hands::new(i as u64, new_game(record.size).unwrap());
        for &(c, mv) in &record.moves {
            hands.play(&mut t, c, mv);
        }
        t.wait(10_000);
        let state = t.referee.state();
        let position: String = readings(&hands.game).iter().map(|r| r.to_char()).collect();
        let recovered: Vec<String> = state.moves.iter().map(|m| m.point.to_string()).collect();
        let ok = state.infractions.is_empty()
            && recovered == names(record)
            && state.position == position;
        if !ok {
            let first_diff = recovered
                .iter()
                .zip(names(record))
                .position(|(a, b)| *a != b);
            failures.push(format!(
                "{}: {} alerts {:?}, {} of {} moves, first difference at {:?}, position equal: {}",
                record.name,
                state.infractions.len(),
                state
                    .infractions
                    .iter()
                    .map(|a| (a.kind, a.move_number))
                    .collect::<Vec<_>>(),
                recovered.len(),
                record.moves.len(),
                first_diff,
                state.position == position
            ));
        }
        moves += record.moves.len();
        inputs += t.journal.len();
    }
    eprintln!(
        "noisy corpus: {} games, {} moves, {} inputs, {} games with a problem",
        games.len(),
        moves,
        inputs,
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn blitz_corpus_games_without_presses_are_inferred_from_bursts() {
    let Some(dir) = corpus_dir() else { return };
    let games: Vec<Record> = ai_games(&dir).into_iter().take(60).collect();
    let (mut failures, mut moves, mut burst_moves) = (Vec::new(), 0, 0);
    for (i, record) in games.iter().enumerate() {
        let mut t = Table::started(RefereeConfig {
            size: record.size,
            ..RefereeConfig::default()
        });
        let mut hands = Hands::new(1_000 + i as u64, new_game(record.size).unwrap());
        hands.noise.presses = false;
        hands.noise.fast = 0.3;
        hands.noise.lift = 0.0;
        for &(c, mv) in &record.moves {
            hands.play(&mut t, c, mv);
        }
        t.wait(10_000);
        let state = t.referee.state();
        let recovered: Vec<String> = state.moves.iter().map(|m| m.point.to_string()).collect();
        if !state.infractions.is_empty() || recovered != names(record) {
            let first = recovered
                .iter()
                .zip(names(record))
                .position(|(a, b)| *a != b);
            let alerts: Vec<_> = state
                .infractions
                .iter()
                .map(|a| (a.kind, a.move_number))
                .collect();
            failures.push(format!(
                "{}: {alerts:?}, first difference at {first:?}",
                record.name
            ));
        }
        moves += record.moves.len();
        let mut announced: Vec<&str> = t
            .events
            .iter()
            .filter(|e| matches!(e.kind, goban_referee::EventKind::MovePlayed { .. }))
            .map(|e| e.at.as_str())
            .collect();
        let total = announced.len();
        announced.dedup();
        burst_moves += total - announced.len();
    }
    eprintln!(
        "blitz corpus: {} games, {moves} moves, {burst_moves} of them inferred inside multi-stone bursts, {} games with a problem",
        games.len(),
        failures.len()
    );
    assert!(burst_moves > 0, "the generator produced bursts");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn noisy_small_board_games_raise_no_alert() {
    let Some(dir) = corpus_dir() else { return };
    let games = small_board_games(&dir, 120);
    assert!(
        !games.is_empty(),
        "gnugo-regression has 9x9 and 13x13 games"
    );
    let mut failures = Vec::new();
    for (i, record) in games.iter().enumerate() {
        let mut t = table_for(record);
        let mut hands = Hands::new(5_000 + i as u64, new_game(record.size).unwrap());
        for &(c, mv) in &record.moves {
            hands.play(&mut t, c, mv);
        }
        t.wait(10_000);
        let state = t.referee.state();
        let recovered: Vec<String> = state.moves.iter().map(|m| m.point.to_string()).collect();
        if !state.infractions.is_empty() || recovered != names(record) {
            let alerts: Vec<_> = state
                .infractions
                .iter()
                .map(|a| (a.kind, a.move_number))
                .collect();
            let expected = names(record);
            let at = recovered
                .iter()
                .zip(&expected)
                .position(|(a, b)| a != b)
                .unwrap_or(recovered.len().min(expected.len()));
            failures.push(format!(
                "{} ({}x{}): {alerts:?}, moves diverge at {}: {:?} for {:?} ({} of {})",
                record.name,
                record.size,
                record.size,
                at + 1,
                recovered.get(at),
                expected.get(at),
                recovered.len(),
                expected.len()
            ));
        }
    }
    let nine = games.iter().filter(|g| g.size == 9).count();
    eprintln!(
        "noisy small boards: {} games ({nine} 9x9, {} 13x13), {} with a problem",
        games.len(),
        games.len() - nine,
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
