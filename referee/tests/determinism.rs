//! Determinism: replaying the recorded input log gives identical events, commands and state.

mod common;

use common::corpus::{ai_games, corpus_dir, new_game};
use common::physical::Hands;
use common::table::Table;
use goban_referee::{ArbiterCommand, GameSetup, Input, Referee, RefereeConfig};
use goban_rules::Color;

fn replay(
    config: RefereeConfig,
    journal: &[(goban_referee::Timestamp, Input)],
) -> (Vec<String>, String) {
    let mut r = Referee::new(config).unwrap();
    let mut events = Vec::new();
    for (at, input) in journal {
        // Round-trip every input through JSON, as the daemon's journal stores it.
        let json = serde_json::to_string(input).unwrap();
        let _ = r.handle(*at, serde_json::from_str(&json).unwrap());
        while let Some(e) = r.poll_event() {
            events.push(serde_json::to_string(&e).unwrap());
        }
    }
    (events, serde_json::to_string(&r.state()).unwrap())
}

/// Replays `journal[..split]` with outputs off, as a restart does, then the rest live: the
/// events of the live part, and the final state.
fn replay_quietly_then_live(
    config: RefereeConfig,
    journal: &[(goban_referee::Timestamp, Input)],
    split: usize,
) -> (Vec<String>, String) {
    let mut r = Referee::new(config).unwrap();
    r.set_replaying(true);
    for (at, input) in &journal[..split] {
        let _ = r.handle(*at, input.clone());
    }
    assert!(r.poll_event().is_none(), "a quiet replay made an event");
    assert!(
        r.poll_device_command().is_none(),
        "a quiet replay made a command"
    );
    r.set_replaying(false);
    let mut events = Vec::new();
    for (at, input) in &journal[split..] {
        let _ = r.handle(*at, input.clone());
        while let Some(e) = r.poll_event() {
            events.push(serde_json::to_string(&e).unwrap());
        }
    }
    (events, serde_json::to_string(&r.state()).unwrap())
}

/// The quiet replay leaves the referee where the full one does: same later events (time
/// and content), same state, at several split points.
fn assert_quiet_replay_matches(
    config: &RefereeConfig,
    journal: &[(goban_referee::Timestamp, Input)],
) {
    let mut r = Referee::new(config.clone()).unwrap();
    let mut all = Vec::new();
    // made[i]: events made by the first i inputs.
    let mut made = vec![0];
    for (at, input) in journal {
        let _ = r.handle(*at, input.clone());
        while let Some(e) = r.poll_event() {
            all.push(serde_json::to_string(&e).unwrap());
        }
        made.push(all.len());
    }
    let state = serde_json::to_string(&r.state()).unwrap();
    let step = (journal.len() / 5).max(1);
    for split in (0..=journal.len()).step_by(step) {
        let (after, quiet_state) = replay_quietly_then_live(config.clone(), journal, split);
        assert_eq!(
            after,
            all[made[split]..],
            "events after a quiet replay of {split} inputs"
        );
        assert_eq!(
            quiet_state, state,
            "state after a quiet replay of {split} inputs"
        );
    }
}

#[test]
fn replaying_the_input_log_reproduces_every_output() {
    let config = RefereeConfig {
        size: 9,
        ..RefereeConfig::default()
    };
    let mut t = Table::new(config.clone());
    let setup = GameSetup {
        time_control: Some("byoyomi-cn:main=1m,reserve=2".parse().unwrap()),
        ..Default::default()
    };
    t.arbiter(ArbiterCommand::StartGame(setup));
    t.play("E5", Color::Black, &[]);
    t.press_white();
    t.wait(800);
    t.put("C3", Color::White);
    t.wait(200_000);
    let original: Vec<String> = t
        .events
        .iter()
        .map(|e| serde_json::to_string(e).unwrap())
        .collect();
    let (events, state) = replay(config.clone(), &t.journal);
    assert_eq!(events, original);
    assert_eq!(state, serde_json::to_string(&t.referee.state()).unwrap());
    assert!(
        original.iter().any(|e| e.contains("clock_call")),
        "the log includes clock deadlines"
    );
    assert_quiet_replay_matches(&config, &t.journal);
}

#[test]
fn replaying_a_noisy_corpus_game_reproduces_every_output() {
    let Some(dir) = corpus_dir() else { return };
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
    let original: Vec<String> = t
        .events
        .iter()
        .map(|e| serde_json::to_string(e).unwrap())
        .collect();
    let (events, state) = replay(config.clone(), &t.journal);
    assert_eq!(events.len(), original.len());
    assert_eq!(events, original);
    assert_eq!(state, serde_json::to_string(&t.referee.state()).unwrap());
    assert_quiet_replay_matches(&config, &t.journal);
}

#[test]
fn replaying_a_game_with_a_setup_block_reproduces_every_output() {
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
    let original: Vec<String> = t
        .events
        .iter()
        .map(|e| serde_json::to_string(e).unwrap())
        .collect();
    assert!(
        original.iter().any(|e| e.contains("\"setup_block\"")),
        "the log has a block"
    );
    let (events, state) = replay(config.clone(), &t.journal);
    assert_eq!(events, original);
    assert_eq!(state, serde_json::to_string(&t.referee.state()).unwrap());
    assert!(state.contains("\"order_known\":false"), "{state}");
    assert_quiet_replay_matches(&config, &t.journal);
}
