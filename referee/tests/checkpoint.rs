//! Checkpoints: restoring a checkpoint and handling the inputs after it gives what handling every input from the start gives.

mod common;

use common::corpus::{ai_games, corpus_dir, new_game};
use common::physical::Hands;
use common::table::Table;
use goban_referee::checkpoint::{CheckpointError, FORMAT, OLDEST_FORMAT};
use goban_referee::{ArbiterCommand, GameSetup, Input, Phase, Referee, RefereeConfig, Timestamp};
use goban_rules::Color;

/// Every input handled live from a fresh referee: the events made (JSON) and, after input `i`,
/// how many events there were and the checkpoint taken then.
struct Full {
    events: Vec<String>,
    made: Vec<usize>,
    checkpoints: Vec<Vec<u8>>,
    state: String,
}

fn full_run(config: &RefereeConfig, journal: &[(Timestamp, Input)]) -> Full {
    let mut r = Referee::new(config.clone()).unwrap();
    let mut full = Full {
        events: Vec::new(),
        made: vec![0],
        checkpoints: vec![r.checkpoint().unwrap()],
        state: String::new(),
    };
    for (at, input) in journal {
        let _ = r.handle(*at, input.clone());
        while let Some(e) = r.poll_event() {
            full.events.push(serde_json::to_string(&e).unwrap());
        }
        while r.poll_device_command().is_some() {}
        full.made.push(full.events.len());
        full.checkpoints.push(r.checkpoint().unwrap());
    }
    full.state = serde_json::to_string(&r.state()).unwrap();
    full
}

/// At each split: the checkpoint taken after `split` inputs, restored, then the rest of the
/// inputs handled live, make the same later events (time and content) and the same final state;
/// a quiet replay of the first `split` inputs (a restart without checkpoint) checkpoints the
/// same bytes; and a restored referee checkpoints the bytes it was restored from.
fn assert_checkpoint_and_tail_match(
    config: &RefereeConfig,
    journal: &[(Timestamp, Input)],
    splits: impl Iterator<Item = usize>,
) -> usize {
    let full = full_run(config, journal);
    let mut tried = 0;
    for split in splits {
        let bytes = &full.checkpoints[split];
        let mut r = Referee::restore(config, bytes)
            .unwrap_or_else(|err| panic!("restore after {split} inputs: {err}"));
        assert_eq!(
            &r.checkpoint().unwrap(),
            bytes,
            "a restored referee after {split} inputs checkpoints other bytes"
        );
        let mut quiet = Referee::new(config.clone()).unwrap();
        quiet.set_replaying(true);
        for (at, input) in &journal[..split] {
            let _ = quiet.handle(*at, input.clone());
        }
        quiet.set_replaying(false);
        assert_eq!(
            &quiet.checkpoint().unwrap(),
            bytes,
            "a quiet replay of {split} inputs checkpoints other bytes than live play"
        );
        let mut after = Vec::new();
        for (at, input) in &journal[split..] {
            let _ = r.handle(*at, input.clone());
            while let Some(e) = r.poll_event() {
                after.push(serde_json::to_string(&e).unwrap());
            }
        }
        assert_eq!(
            after,
            full.events[full.made[split]..],
            "events after the checkpoint of {split} inputs"
        );
        assert_eq!(
            serde_json::to_string(&r.state()).unwrap(),
            full.state,
            "state after the checkpoint of {split} inputs"
        );
        tried += 1;
    }
    tried
}

#[test]
fn a_noisy_corpus_game_restored_at_any_point_continues_as_the_full_replay() {
    let Some(dir) = corpus_dir() else {
        eprintln!("GOBAN_CORPUS not set: skipped");
        return;
    };
    let record = ai_games(&dir).into_iter().next().unwrap();
    let config = RefereeConfig {
        size: record.size,
        ..RefereeConfig::default()
    };
    let mut t = Table::started(config.clone());
    let mut hands = Hands::new(7, new_game(record.size).unwrap());
    for &(c, mv) in &record.moves {
        hands.play(&mut t, c, mv);
    }
    let n = t.journal.len();
    assert!(
        t.referee.state().move_number > 100,
        "a long game: {}",
        t.referee.state().move_number
    );
    // The start, the end, a spread of points, and a run of consecutive inputs (mid-settle).
    let mut splits: Vec<usize> = (0..=n).step_by((n / 9).max(1)).collect();
    splits.extend([n, n / 2 + 1, n / 2 + 2, n / 2 + 3]);
    let tried = assert_checkpoint_and_tail_match(&config, &t.journal, splits.into_iter());
    assert!(tried >= 10);
}

/// Passes, counting, a dispute that resumes play, a voided move and a clock: the rules game is
/// rebuilt from its moves at every point.
#[test]
fn a_game_through_counting_resumption_and_a_voided_move_restores_at_every_input() {
    let config = RefereeConfig {
        size: 9,
        ..RefereeConfig::default()
    };
    let mut t = Table::new(config.clone());
    t.arbiter(ArbiterCommand::StartGame(GameSetup {
        time_control: Some("byoyomi-cn:main=1m,reserve=2".parse().unwrap()),
        ..Default::default()
    }));
    for row in 1..=9 {
        t.play(&format!("D{row}"), Color::Black, &[]);
        t.play(&format!("F{row}"), Color::White, &[]);
    }
    t.play("G5", Color::Black, &[]);
    t.play("B5", Color::White, &[]);
    // Black's D2 counts as a pass (a void replays the later moves; after a resumption it
    // could not: the rules game counts the two passes again).
    let voided = t.try_send(Input::Arbiter(ArbiterCommand::VoidMove { number: 3 }));
    assert!(voided.is_ok(), "{voided:?}");
    t.wait(1_000);
    t.press_black();
    t.wait(1_500);
    t.press_white();
    t.wait(6_000);
    assert_eq!(t.referee.state().phase, Phase::Counting);
    t.take("B5");
    t.wait(1_000);
    t.arbiter(ArbiterCommand::ResumePlay {
        first: Color::White,
    });
    t.put("B5", Color::White);
    t.wait(4_000);
    t.play("B6", Color::White, &[]);
    t.play("H5", Color::Black, &[]);
    t.wait(3_000);
    let state = t.referee.state();
    assert_eq!(state.phase, Phase::Playing);
    assert_eq!(state.moves[2].point, "pass", "the void stands");
    let n = t.journal.len();
    let tried = assert_checkpoint_and_tail_match(&config, &t.journal, 0..=n);
    assert_eq!(tried, n + 1);
}

/// Counting, then the arbiter confirms the count: a checkpoint taken while counting keeps the
/// count beside the result it gives (its result is written in points, the count's in stones).
#[test]
fn a_game_confirmed_from_its_count_restores_at_every_input() {
    let config = RefereeConfig {
        size: 9,
        ..RefereeConfig::default()
    };
    let mut t = Table::new(config.clone());
    t.arbiter(ArbiterCommand::StartGame(GameSetup::default()));
    for row in 1..=9 {
        t.play(&format!("D{row}"), Color::Black, &[]);
        t.play(&format!("F{row}"), Color::White, &[]);
    }
    t.play("G5", Color::Black, &[]);
    t.play("B5", Color::White, &[]);
    t.press_black();
    t.wait(1_500);
    t.press_white();
    t.wait(6_000);
    t.take("B5");
    t.take("G5");
    t.wait(1_000);
    t.arbiter(ArbiterCommand::ConfirmResult);
    let state = t.referee.state();
    assert_eq!(state.result.as_deref(), Some("W+3.75"));
    assert!(state.count.is_some(), "the count stays beside its result");
    let n = t.journal.len();
    let tried = assert_checkpoint_and_tail_match(&config, &t.journal, 0..=n);
    assert_eq!(tried, n + 1);
}

#[test]
fn a_game_with_moves_of_unknown_order_restores_at_every_input() {
    use common::hall::{button, put_unseen, replug, unplug};
    let config = RefereeConfig {
        size: 9,
        ..RefereeConfig::default()
    };
    let mut t = Table::timed_nine();
    unplug(&mut t);
    for (p, c) in [
        ("G7", Color::Black),
        ("C7", Color::White),
        ("G3", Color::Black),
    ] {
        t.wait(1_000);
        put_unseen(&mut t, p, c);
        t.wait(400);
        t.press(button(c));
    }
    t.wait(1_000);
    replug(&mut t);
    t.wait(1_500);
    t.play("A1", Color::White, &[]);
    t.play("J9", Color::Black, &[]);
    let state = t.referee.state();
    let known: Vec<bool> = state.moves.iter().map(|m| m.order_known).collect();
    assert_eq!(known, [true, true, false, false, false, true, true]);
    let n = t.journal.len();
    let tried = assert_checkpoint_and_tail_match(&config, &t.journal, 0..=n);
    assert_eq!(tried, n + 1);
}

#[test]
fn a_checkpoint_of_another_format_config_or_damaged_is_refused() {
    let mut t = Table::nine();
    t.play("E5", Color::Black, &[]);
    let config = t.referee.config().clone();
    let bytes = t.referee.checkpoint().unwrap();
    assert!(Referee::restore(&config, &bytes).is_ok());

    let mut json: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    json["format"] = serde_json::json!(FORMAT + 1);
    let other = serde_json::to_vec(&json).unwrap();
    assert!(matches!(
        Referee::restore(&config, &other),
        Err(CheckpointError::Format { found, .. }) if found == FORMAT + 1
    ));
    json["format"] = serde_json::json!(OLDEST_FORMAT - 1);
    let older = serde_json::to_vec(&json).unwrap();
    assert!(matches!(
        Referee::restore(&config, &older),
        Err(CheckpointError::Format { found, .. }) if found == OLDEST_FORMAT - 1
    ));

    let changed = RefereeConfig {
        settle_ms: config.settle_ms + 100,
        ..config.clone()
    };
    assert!(matches!(
        Referee::restore(&changed, &bytes),
        Err(CheckpointError::ConfigChanged)
    ));

    let cut = &bytes[..bytes.len() / 2];
    assert!(matches!(
        Referee::restore(&config, cut),
        Err(CheckpointError::Decode(_))
    ));

    // A move the rules refuse (a stone on a stone) cannot be played again: refused, not trusted.
    let mut json: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    let moves = &mut json["referee"]["game"]["game"]["moves"];
    let first = moves[0].clone();
    moves.as_array_mut().unwrap().push(first);
    let bad = serde_json::to_vec(&json).unwrap();
    assert!(matches!(
        Referee::restore(&config, &bad),
        Err(CheckpointError::Decode(_))
    ));
}
