//! The simulator's hall disturbances: chattering sensors, self-corrected double moves, takebacks and displaced stones, instant replies, fast pace.

mod common;

use common::{build_capture_game, expected_position};
use goban_hardware::sim::{Act, FaultScript, HumanProfile, Scenario, SimGame, Timeline};
use goban_protocol::PointState;
use std::time::Duration;

fn build(game: SimGame, profile: HumanProfile, script: &str, seed: u64) -> Timeline {
    Scenario {
        game,
        profile,
        script: FaultScript::from_json(script, "test").unwrap(),
        seed,
    }
    .build()
    .unwrap()
}

/// The acts with their absolute times.
fn timed(timeline: &Timeline) -> Vec<(Duration, &Act, &str)> {
    let mut at = Duration::ZERO;
    timeline
        .steps
        .iter()
        .map(|s| {
            at += s.delay;
            (at, &s.act, s.note.as_str())
        })
        .collect()
}

#[test]
fn a_chattering_sensor_flips_at_its_rate_and_ends_on_the_true_reading() {
    for on in ["empty", "stone", "next_to_move"] {
        let script = format!(
            r#"{{"steps": [{{"at_move": 3, "fault": "chatter", "on": "{on}", "hz": 5, "duration_ms": 4000}}]}}"#
        );
        let tl = build(build_capture_game(), HumanProfile::default(), &script, 7);
        assert!(tl.skipped.is_empty(), "{on}: {:?}", tl.skipped);
        let flips: Vec<(Duration, Option<PointState>)> = timed(&tl)
            .into_iter()
            .filter_map(|(at, act, _)| match act {
                Act::Stuck { state, .. } => Some((at, *state)),
                _ => None,
            })
            .collect();
        // 5 Hz for 4 s: 20 wrong readings and 20 returns, with ±20% jitter, then steady.
        assert!(
            (38..=42).contains(&flips.len()),
            "{on}: {} flips",
            flips.len()
        );
        assert_eq!(
            flips.last().unwrap().1,
            None,
            "{on}: ends on the true reading"
        );
        let span = flips.last().unwrap().0 - flips[0].0;
        assert!(span > Duration::from_millis(3_000) && span < Duration::from_millis(5_000));
        assert_eq!(tl.final_position, expected_position(&build_capture_game()));
    }
}

#[test]
fn a_self_corrected_double_move_is_lifted_after_the_given_time_without_a_press() {
    let script = r#"{"steps": [{"at_move": 2, "fault": "double_move", "corrected_ms": 700}]}"#;
    let tl = build(build_capture_game(), HumanProfile::default(), script, 3);
    let acts = timed(&tl);
    let placed = acts
        .iter()
        .position(|(_, _, note)| {
            note.contains("double_move") && (note.contains("placed") || note.contains("settles"))
        })
        .expect("second stone placed");
    let removed = acts
        .iter()
        .position(|(_, _, note)| note.contains("second stone is removed"))
        .expect("second stone removed");
    assert_eq!(acts[removed].0 - acts[placed].0, Duration::from_millis(700));
    assert!(
        acts[placed..removed]
            .iter()
            .all(|(_, act, _)| !matches!(act, Act::Press { .. })),
        "no press for a corrected double move"
    );
    assert_eq!(tl.final_position, expected_position(&build_capture_game()));
}

#[test]
fn corrected_takeback_and_displaced_stone_are_put_back_after_the_given_time() {
    for fault in ["takeback", "displaced_stones"] {
        let script =
            format!(r#"{{"steps": [{{"at_move": 3, "fault": "{fault}", "corrected_ms": 400}}]}}"#);
        let tl = build(build_capture_game(), HumanProfile::default(), &script, 5);
        assert!(tl.skipped.is_empty(), "{fault}: {:?}", tl.skipped);
        let back = tl
            .steps
            .iter()
            .find(|s| s.note.contains("goes back") || s.note.contains("put back"))
            .unwrap_or_else(|| panic!("{fault}: no correction"));
        assert_eq!(back.delay, Duration::from_millis(400), "{fault}");
        assert_eq!(tl.final_position, expected_position(&build_capture_game()));
    }
}

#[test]
fn instant_replies_come_within_a_moment_of_the_press() {
    let profile = HumanProfile {
        instant_reply_chance: 1.0,
        ..HumanProfile::default()
    };
    let tl = build(build_capture_game(), profile, r#"{"steps": []}"#, 9);
    let acts = timed(&tl);
    for pair in acts.windows(2) {
        // 200-500 ms to the board, then at most 250 ms of hand over the board.
        if matches!(pair[0].1, Act::Press { .. }) && matches!(pair[1].1, Act::Board { .. }) {
            assert!(
                pair[1].0 - pair[0].0 < Duration::from_millis(750),
                "{pair:?}"
            );
        }
    }
}

#[test]
fn a_blitz_profile_plays_a_move_in_about_a_quarter_second() {
    let profile = HumanProfile {
        speed: 6.0,
        think_median_ms: 400.0,
        min_think_ms: 250.0,
        min_reply_ms: 80,
        min_press_ms: 50,
        ..HumanProfile::default()
    };
    let game = build_capture_game();
    let moves = game.moves.len();
    let tl = build(game, profile, r#"{"steps": []}"#, 11);
    let per_move = tl.duration() / u32::try_from(moves).unwrap();
    assert!(per_move < Duration::from_millis(400), "{per_move:?}");
}
