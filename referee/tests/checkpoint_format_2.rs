//! A daemon upgraded mid-tournament: checkpoints of format 2 (written before the referee stopped numbering its events) still restore, and the game goes on as it would have.

use goban_referee::checkpoint::{FORMAT, OLDEST_FORMAT};
use goban_referee::{Input, Referee, RefereeConfig, Timestamp};
use serde_json::Value;

const COUNTING: &[u8] = include_bytes!("fixtures/checkpoint-format-2/counting.json");
const FINISHED: &[u8] = include_bytes!("fixtures/checkpoint-format-2/finished.json");
const TAIL_INPUTS: &str = include_str!("fixtures/checkpoint-format-2/tail-inputs.json");
const TAIL_EVENTS: &str = include_str!("fixtures/checkpoint-format-2/tail-events.jsonl");
const FINAL_STATE: &str = include_str!("fixtures/checkpoint-format-2/final-state.json");
const FINAL_SGF: &str = include_str!("fixtures/checkpoint-format-2/final.sgf");

/// The config the fixtures were written under (the daemon builds it from its config file).
fn fixture_config() -> RefereeConfig {
    RefereeConfig {
        size: 9,
        ..RefereeConfig::default()
    }
}

/// `json` without the keys only the old referee's numbering put there (`v`, `seq`).
fn without_numbering(mut json: Value) -> Value {
    if let Some(object) = json.as_object_mut() {
        object.remove("v");
        object.remove("seq");
    }
    json
}

fn tail_inputs() -> Vec<(Timestamp, Input)> {
    let rows: Vec<Value> = serde_json::from_str(TAIL_INPUTS).unwrap();
    rows.into_iter()
        .map(|row| {
            let at = Timestamp(row["at_ms"].as_u64().unwrap());
            (at, serde_json::from_value(row["input"].clone()).unwrap())
        })
        .collect()
}

/// The state as the old referee wrote it, but for `seq` (the publisher numbers it now).
fn assert_final_state(referee: &Referee) {
    let mut expected: Value = serde_json::from_str(FINAL_STATE).unwrap();
    assert!(
        expected["seq"].as_u64().unwrap() > 100,
        "the old referee numbered it"
    );
    expected["seq"] = 0.into();
    let state = serde_json::to_value(referee.state()).unwrap();
    assert_eq!(state, expected);
    assert_eq!(referee.sgf().unwrap(), FINAL_SGF);
}

#[test]
fn the_fixtures_are_of_format_2_with_the_old_counter() {
    assert_eq!((OLDEST_FORMAT, FORMAT), (2, 3));
    for bytes in [COUNTING, FINISHED] {
        let json: Value = serde_json::from_slice(bytes).unwrap();
        assert_eq!(json["format"], 2);
        assert!(json["referee"]["seq"].as_u64().unwrap() > 100);
        assert_eq!(json["referee"]["config"]["first_seq"], 1);
    }
}

#[test]
fn a_format_2_checkpoint_while_counting_restores_and_the_game_ends_as_it_did() {
    let mut referee = Referee::restore(&fixture_config(), COUNTING).unwrap();
    let state = referee.state();
    assert_eq!(
        state.proposed_result.as_deref(),
        Some("W+3.75"),
        "in stones"
    );
    let mut events = Vec::new();
    for (at, input) in tail_inputs() {
        referee.handle(at, input).unwrap();
        while let Some(event) = referee.poll_event() {
            events.push(serde_json::to_value(&event).unwrap());
        }
    }
    let expected: Vec<Value> = TAIL_EVENTS
        .lines()
        .map(|line| without_numbering(serde_json::from_str(line).unwrap()))
        .collect();
    assert_eq!(events, expected);
    assert_final_state(&referee);
}

#[test]
fn a_format_2_checkpoint_of_a_finished_game_restores_its_result() {
    let referee = Referee::restore(&fixture_config(), FINISHED).unwrap();
    assert_eq!(referee.state().result.as_deref(), Some("W+3.75"));
    assert_final_state(&referee);
}

#[test]
fn a_restored_format_2_checkpoint_is_written_again_in_format_3_without_the_counter() {
    let referee = Referee::restore(&fixture_config(), FINISHED).unwrap();
    let bytes = referee.checkpoint().unwrap();
    let json: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(json["format"], FORMAT);
    assert!(
        json["referee"].get("seq").is_none(),
        "no counter of its own"
    );
    assert!(json["referee"]["config"].get("first_seq").is_none());
    let again = Referee::restore(&fixture_config(), &bytes).unwrap();
    assert_final_state(&again);
}
