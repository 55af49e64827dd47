//! Every infraction of the rules digest can be staged from a script; repairs end on the record's position.

mod common;

use common::{build_capture_game, build_ko_game, expected_position};
use goban_hardware::sim::{
    Act, FaultScript, HumanProfile, INFRACTION_IDS, Scenario, SimGame, Timeline,
};
use goban_protocol::{Button, PointState};
use std::time::Duration;

fn build_timeline(game: SimGame, script: &str, seed: u64) -> Timeline {
    let script = FaultScript::from_json(script, "test").unwrap();
    Scenario {
        game,
        profile: HumanProfile::default(),
        script,
        seed,
    }
    .build()
    .unwrap()
}

/// Where each infraction is staged, and the article its notes must cite.
fn plan_for(id: &str) -> (SimGame, u32, &'static str) {
    match id {
        "forbidden_point" => (build_capture_game(), 8, "CN2002 19"),
        "ko_violation" => (build_ko_game(), 10, "CN2002 18.3"),
        "occupied_point" => (build_capture_game(), 4, "CN2002 2.3"),
        "double_move" => (build_capture_game(), 3, "CN2002 17.2"),
        "wrong_colour" => (build_capture_game(), 2, ""),
        "missed_capture" => (build_capture_game(), 1, "CN2002 18.2, 22.6"),
        "wrong_capture" => (build_capture_game(), 4, "CN2002 18.1"),
        "premature_press" => (build_capture_game(), 3, "CN2002 17.4"),
        "takeback" => (build_capture_game(), 5, "CN2002 17.3"),
        "displaced_stones" => (build_capture_game(), 6, "CN2002 17.5"),
        "board_disturbed" => (build_capture_game(), 8, "CN2002 17.6"),
        "time_forfeit" | "late_start" => (build_capture_game(), 5, ""),
        other => panic!("unknown infraction {other}"),
    }
}

#[test]
fn every_digest_infraction_is_staged_and_repaired() {
    for id in INFRACTION_IDS {
        let (game, at, article) = plan_for(id);
        let expected = expected_position(&game);
        let script = format!(r#"{{"steps": [{{"at_move": {at}, "fault": "{id}"}}]}}"#);
        let timeline = build_timeline(game.clone(), &script, 3);
        assert!(timeline.skipped.is_empty(), "{id}: {:?}", timeline.skipped);
        if !article.is_empty() {
            assert!(
                timeline.steps.iter().any(|s| s.note.contains(article)),
                "{id} cites {article}"
            );
        }
        assert_eq!(
            timeline.final_position, expected,
            "{id}: the arbiter's repairs restore the record"
        );
        let plain = build_timeline(game, r#"{"steps": []}"#, 3);
        assert_ne!(
            timeline.steps, plain.steps,
            "{id} changes what happens at the table"
        );
    }
}

#[test]
fn a_ko_retake_shows_on_the_ko_point_then_is_undone() {
    let timeline = build_timeline(
        build_ko_game(),
        r#"{"steps": [{"at_move": 10, "fault": "ko_violation"}]}"#,
        9,
    );
    let at = |s: &str| {
        goban_rules::Point::parse_human(s, goban_rules::BoardSize::NINE)
            .unwrap()
            .0
    };
    let (b4, c4) = (at("B4"), at("C4"));
    let touched: Vec<&Act> = timeline
        .steps
        .iter()
        .filter(|s| s.note.contains("ko_violation"))
        .map(|s| &s.act)
        .collect();
    let lands = touched
        .iter()
        .any(|a| matches!(a, Act::Board { changes } if changes.contains(&(b4, PointState::White))));
    let takes = touched
        .iter()
        .any(|a| matches!(a, Act::Board { changes } if changes.contains(&(c4, PointState::Empty))));
    assert!(lands && takes, "White retakes B4 and lifts C4: {touched:?}");
}

#[test]
fn premature_press_comes_before_the_stone_and_late_removal_after_the_press() {
    let t = build_timeline(
        build_capture_game(),
        r#"{"steps": [{"at_move": 3, "fault": "premature_press"}]}"#,
        1,
    );
    let idx = |pred: &dyn Fn(&Act) -> bool| {
        t.steps
            .iter()
            .position(|s| s.note.starts_with("move 3") && pred(&s.act))
            .unwrap()
    };
    let press = idx(&|a| matches!(a, Act::Press { .. }));
    let stone = idx(
        &|a| matches!(a, Act::Board { changes } if changes.iter().any(|c| c.1 == PointState::Black)),
    );
    assert!(press < stone);

    let t = build_timeline(
        build_capture_game(),
        r#"{"steps": [{"at_move": 1, "fault": "missed_capture"}]}"#,
        1,
    );
    let press = t
        .steps
        .iter()
        .position(|s| s.note.starts_with("move 7") && matches!(s.act, Act::Press { .. }))
        .unwrap();
    let removal = t
        .steps
        .iter()
        .position(|s| s.note.contains("captured stone removed") && s.note.starts_with("move 7"))
        .unwrap();
    assert!(
        press < removal,
        "the press comes while the captured stone is on the board"
    );
}

#[test]
fn wrong_colour_swaps_the_buttons_from_that_move() {
    let t = build_timeline(
        build_capture_game(),
        r#"{"steps": [{"at_move": 3, "fault": "wrong_colour"}]}"#,
        1,
    );
    let buttons: Vec<Button> = t
        .steps
        .iter()
        .filter_map(|s| match s.act {
            Act::Press { button } => Some(button),
            _ => None,
        })
        .collect();
    assert_eq!(&buttons[..4], &[Button::L, Button::R, Button::R, Button::L]);
}

#[test]
fn time_forfeit_and_late_start_take_the_scripted_time() {
    let plain = build_timeline(build_capture_game(), r#"{"steps": []}"#, 2).duration();
    let t = build_timeline(
        build_capture_game(),
        r#"{"steps": [{"at_move": 1, "fault": "late_start", "absent_ms": 960000}]}"#,
        2,
    );
    assert!(t.duration() >= plain + Duration::from_secs(900));
    assert!(t.steps[0].delay >= Duration::from_secs(960));
    let t = build_timeline(
        build_capture_game(),
        r#"{"steps": [{"at_move": 5, "fault": "time_forfeit", "think_ms": 7200000}]}"#,
        2,
    );
    assert!(t.steps.iter().any(|s| s.delay >= Duration::from_secs(7200)));
}

#[test]
fn impossible_stagings_are_reported_not_faked() {
    // No ko ever arises in the capture game.
    let t = build_timeline(
        build_capture_game(),
        r#"{"steps": [{"at_move": 2, "fault": "ko_violation"}]}"#,
        1,
    );
    assert_eq!(t.skipped.len(), 1, "{:?}", t.skipped);
    assert_eq!(t.final_position, expected_position(&build_capture_game()));
}

#[test]
fn the_same_seed_gives_the_same_timeline() {
    let script = r#"{"steps": [{"at_move": 2, "fault": "garbage"}, {"at_move": 8, "fault": "board_disturbed"}]}"#;
    let a = build_timeline(build_capture_game(), script, 42);
    let b = build_timeline(build_capture_game(), script, 42);
    let c = build_timeline(build_capture_game(), script, 43);
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn clock_keys_are_scripted_by_their_wire_names() {
    let t = build_timeline(
        build_capture_game(),
        r#"{"steps": [{"at_move": 4, "fault": "clock_key", "key": "PAUSE"},
                      {"at_move": 4, "fault": "clock_key", "key": "RESUME"},
                      {"at_move": 5, "fault": "clock_key", "key": "TEA_BREAK"}]}"#,
        1,
    );
    let keys: Vec<goban_protocol::Key> = t
        .steps
        .iter()
        .filter_map(|s| match s.act {
            Act::Key { key } => Some(key),
            _ => None,
        })
        .collect();
    assert_eq!(
        keys,
        vec![goban_protocol::Key::Pause, goban_protocol::Key::Resume]
    );
    assert_eq!(
        t.skipped.len(),
        1,
        "the unknown key is reported: {:?}",
        t.skipped
    );
}
