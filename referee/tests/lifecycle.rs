//! The end of the game (two passes, DONE, RESIGN), counting with dead stones, results, rulings, SGF and the state snapshot.

mod common;

use common::table::Table;
use goban_referee::{ArbiterCommand, ClockKey, Input, Phase, RulingAction};
use goban_rules::Color;

const B: Color = Color::Black;
const W: Color = Color::White;

/// Black walls the left, White the right, on 9x9; a white stone dies inside Black's side.
fn territory_game(t: &mut Table) {
    for row in 1..=9 {
        t.play(&format!("D{row}"), B, &[]);
        t.play(&format!("F{row}"), W, &[]);
    }
    t.play("G5", B, &[]);
    t.play("B5", W, &[]);
}

#[test]
fn two_passes_end_play_and_counting_proposes_taken_off_stones_as_dead() {
    let mut t = Table::nine();
    territory_game(&mut t);
    t.press_black();
    t.wait(1_500);
    t.press_white();
    t.wait(6_000);
    let state = t.referee.state();
    assert_eq!(
        state.phase,
        Phase::Counting,
        "two consecutive passes end play (CN2002 7)"
    );
    // The players take the dead stones off: White's B5 and Black's G5.
    t.take("B5");
    t.take("G5");
    t.wait(1_000);
    let state = t.referee.state();
    assert_eq!(state.dead_stones, vec!["B5", "G5"], "index order");
    // Black: D-column 9 + A..C 27 = 36; White: F 9 + G..J 27 = 36; dame E 9 split:
    // 40.5 each; komi 3.75 stones: White wins by 3.75 stones.
    assert_eq!(state.proposed_result.as_deref(), Some("W+3.75"));
    assert!(
        state.result.is_none(),
        "final only on the arbiter's confirmation"
    );
    t.arbiter(ArbiterCommand::ConfirmResult);
    let state = t.referee.state();
    assert_eq!(state.result.as_deref(), Some("W+3.75"));
    assert_eq!(state.phase, Phase::Finished);
}

#[test]
fn the_arbiter_marks_and_unmarks_dead_groups() {
    let mut t = Table::nine();
    territory_game(&mut t);
    t.key(ClockKey::DoneL);
    t.key(ClockKey::DoneR);
    assert_eq!(t.referee.state().phase, Phase::Counting);
    t.arbiter(ArbiterCommand::MarkDead {
        points: vec!["B5".into()],
        dead: true,
    });
    assert_eq!(t.referee.state().dead_stones, vec!["B5"]);
    t.arbiter(ArbiterCommand::MarkDead {
        points: vec!["B5".into()],
        dead: false,
    });
    assert!(t.referee.state().dead_stones.is_empty());
    let refused = t.try_send(Input::Arbiter(ArbiterCommand::MarkDead {
        points: vec!["Z99".into()],
        dead: true,
    }));
    assert!(refused.is_err(), "a bad point is refused");
}

#[test]
fn resign_key_ends_the_game() {
    let mut t = Table::nine();
    t.play("E5", B, &[]);
    t.key(ClockKey::ResignR);
    let state = t.referee.state();
    assert_eq!(state.result.as_deref(), Some("B+R"));
    assert_eq!(state.phase, Phase::Finished);
}

#[test]
fn a_second_warning_loses_under_cn2002() {
    let mut t = Table::nine();
    t.play("E5", B, &[]);
    t.press_white();
    t.wait(1_000);
    t.put("C3", W);
    t.wait(1_000);
    t.play("G7", B, &[]);
    t.press_white();
    t.wait(1_000);
    t.put("C7", W);
    t.wait(1_000);
    let alerts = t.alerts();
    assert_eq!(alerts.len(), 2);
    for alert in &alerts {
        t.arbiter(ArbiterCommand::Ruling {
            id: alert.id.clone(),
            action: RulingAction::Sanction,
            note: String::new(),
        });
    }
    let state = t.referee.state();
    assert_eq!(state.warnings.white, 2);
    assert_eq!(
        state.result.as_deref(),
        Some("B+F"),
        "CN2002 24: a second warning loses"
    );
}

#[test]
fn a_dismissed_alert_stays_dismissed() {
    let mut t = Table::nine();
    t.play("E5", B, &[]);
    t.press_white();
    t.wait(1_000);
    t.put("C3", W);
    t.wait(1_000);
    let id = t.alerts()[0].id.clone();
    t.arbiter(ArbiterCommand::Ruling {
        id: id.clone(),
        action: RulingAction::Dismiss,
        note: "hand slipped".into(),
    });
    let alert = t.alerts().into_iter().find(|a| a.id == id).unwrap();
    assert_eq!(alert.status, goban_referee::InfractionStatus::Dismissed);
    assert_eq!(alert.note, "hand slipped");
    assert_eq!(t.referee.state().warnings.white, 0);
}

#[test]
fn void_and_restore_the_last_move() {
    let mut t = Table::nine();
    t.play("E5", B, &[]);
    t.arbiter(ArbiterCommand::VoidMove { number: 1 });
    assert_eq!(t.moves(), vec!["pass"]);
    t.wait(5_000);
    assert!(
        t.alerts().is_empty(),
        "the sensors cannot overturn the ruling"
    );
    t.arbiter(ArbiterCommand::RestoreMove { number: 1 });
    assert_eq!(t.moves(), vec!["E5"]);
    assert!(
        t.try_send(Input::Arbiter(ArbiterCommand::VoidMove { number: 7 }))
            .is_err()
    );
}

#[test]
fn state_snapshot_has_the_api_fields() {
    let mut t = Table::nine();
    t.play("E5", B, &[]);
    let json = serde_json::to_value(t.referee.state()).unwrap();
    for field in [
        "v",
        "seq",
        "board",
        "game",
        "size",
        "ruleset",
        "komi",
        "position",
        "move_number",
        "to_move",
        "moves",
        "captures",
        "clock",
        "infractions",
        "warnings",
        "device",
        "phase",
        "result",
    ] {
        assert!(json.get(field).is_some(), "missing {field}");
    }
    assert_eq!(json["v"], 1);
    assert_eq!(json["ruleset"], "cn2002");
    assert_eq!(json["phase"], "playing");
    assert_eq!(json["to_move"], "white");
    assert_eq!(json["moves"][0]["point"], "E5");
    assert_eq!(json["position"].as_str().unwrap().len(), 81);
    assert_eq!(
        json["position"].as_str().unwrap().chars().nth(40),
        Some('B'),
        "E5 is index 40 on 9x9"
    );
    assert_eq!(json["device"]["board"], "connected");
}

/// The daemon's ledger is a board's only counter (its `v` and gap-free `seq` on every message:
/// `daemon/src/runtime/ledger_tests.rs`): the referee numbers nothing.
#[test]
fn the_referee_numbers_neither_its_events_nor_its_state() {
    let mut t = Table::nine();
    t.play("E5", B, &[]);
    assert!(t.events.len() > 3, "{:?}", t.events);
    for event in &t.events {
        let json = serde_json::to_value(event).unwrap();
        assert!(
            json.get("seq").is_none() && json.get("v").is_none(),
            "{json}"
        );
    }
    assert_eq!(t.referee.state().seq, 0, "the publisher numbers the state");
}

#[test]
fn sgf_records_moves_times_and_infractions() {
    let mut t = Table::new(goban_referee::RefereeConfig {
        size: 9,
        ..Default::default()
    });
    let setup = goban_referee::GameSetup {
        time_control: Some("fischer:main=10m,increment=5s".parse().unwrap()),
        black: Some("Ke".into()),
        ..Default::default()
    };
    t.arbiter(ArbiterCommand::StartGame(setup));
    t.play("E5", B, &[]);
    t.press_white();
    t.wait(1_000);
    t.put("C3", W);
    t.wait(1_000);
    let sgf = t.referee.sgf().expect("the SGF");
    assert!(sgf.contains("SZ[9]"), "{sgf}");
    assert!(sgf.contains("PB[Ke]"), "{sgf}");
    assert!(sgf.contains(";B[ee]"), "{sgf}");
    assert!(sgf.contains("BL["), "per-move time left: {sgf}");
    let moves = t.referee.state().moves;
    assert_eq!(
        moves[0].time_left_ms,
        Some(600_000 - 400),
        "Fischer: the time left at the press, before the increment"
    );
    assert!(
        sgf.contains("BL[599.6]"),
        "BL is the time at the press: {sgf}"
    );
    assert!(
        sgf.contains("Clock pressed before the stone was placed (CN2002 17.4) by White"),
        "{sgf}"
    );
    // The time system at the root: Fischer 10 min + 5 s.
    assert!(sgf.contains("TM[600]OT[Fischer +5s per move]"), "{sgf}");
}

#[test]
fn unreadable_points_are_a_device_matter_not_a_move() {
    let mut t = Table::nine();
    t.play("E5", B, &[]);
    t.put("C3", W);
    let c3 = t.idx("C3");
    t.set(&[(c3, goban_referee::Reading::Unknown)]);
    t.wait(5_000);
    let state = t.referee.state();
    assert!(state.infractions.is_empty());
    assert_eq!(state.device.unknown_points, vec!["C3"]);
    assert_eq!(t.moves(), vec!["E5"], "no game decision on a `?` point");
    t.put("C3", W);
    t.wait(1_000);
    assert_eq!(t.moves(), vec!["E5", "C3"]);
    assert!(t.referee.state().device.unknown_points.is_empty());
}

#[test]
fn after_a_sequence_gap_diffs_wait_for_a_snapshot() {
    let mut t = Table::nine();
    t.send(Input::BoardGap);
    assert!(
        t.commands
            .contains(&goban_referee::DeviceCommand::SnapRequest)
    );
    let refused = t.try_send(Input::BoardDiff {
        changes: vec![goban_referee::PointChange {
            index: 40,
            state: goban_referee::Reading::Black,
        }],
    });
    assert!(refused.is_err());
    t.board[40] = goban_referee::Reading::Black;
    let points: String = t.board.iter().map(|r| r.to_char()).collect();
    t.send(Input::BoardSnapshot { points });
    t.wait(1_000);
    assert_eq!(t.moves(), vec!["E5"]);
}

#[test]
fn handicap_stones_placed_after_the_start_raise_nothing() {
    let mut t = Table::new(goban_referee::RefereeConfig {
        size: 9,
        ..Default::default()
    });
    let setup = goban_referee::GameSetup {
        handicap: Some(2),
        ..Default::default()
    };
    t.arbiter(ArbiterCommand::StartGame(setup));
    t.wait(5_000);
    assert!(t.alerts().is_empty(), "{:#?}", t.alerts());
    let state = t.referee.state();
    assert_eq!(state.to_move, W, "White moves first after a handicap");
    for p in state
        .guidance
        .add
        .iter()
        .map(|s| s.point.clone())
        .collect::<Vec<_>>()
    {
        t.put(&p, B);
        t.wait(500);
    }
    t.wait(3_000);
    t.play("E5", W, &[]);
    assert!(t.alerts().is_empty(), "{:#?}", t.alerts());
    assert_eq!(t.moves(), vec!["E5"]);
}

#[test]
fn a_sealed_move_is_read_on_resumption() {
    let mut t = Table::nine();
    t.play("E5", B, &[]);
    t.arbiter(ArbiterCommand::Seal);
    assert_eq!(t.referee.state().phase, Phase::Paused);
    t.put("C3", W);
    t.wait(60_000);
    assert_eq!(t.moves(), vec!["E5"], "nothing is read while sealed");
    t.arbiter(ArbiterCommand::Unseal);
    assert_eq!(t.moves(), vec!["E5", "C3"]);
    assert!(t.alerts().is_empty());
}

#[test]
fn an_automatic_time_forfeit_ends_the_game() {
    let config = goban_referee::RefereeConfig {
        size: 9,
        ..Default::default()
    }
    .with_all_sanctions();
    let mut t = Table::new(config);
    let setup = goban_referee::GameSetup {
        time_control: Some("byoyomi-jp:main=1m,periods=1,period=10s".parse().unwrap()),
        ..Default::default()
    };
    t.arbiter(ArbiterCommand::StartGame(setup));
    t.wait(71_000);
    let state = t.referee.state();
    assert_eq!(state.result.as_deref(), Some("W+T"));
    assert_eq!(
        state.infractions[0].kind,
        goban_referee::InfractionKind::TimeForfeit
    );
}

#[test]
fn colours_not_fixed_by_the_draw_swap_silently() {
    let mut t = Table::new(goban_referee::RefereeConfig {
        size: 9,
        ..Default::default()
    });
    let setup = goban_referee::GameSetup {
        colours_fixed: Some(false),
        ..Default::default()
    };
    t.arbiter(ArbiterCommand::StartGame(setup));
    t.put("E5", B);
    t.wait(600);
    t.press(goban_referee::Button::R);
    t.wait(1_000);
    t.put("C3", W);
    t.wait(600);
    t.press(goban_referee::Button::L);
    t.wait(1_000);
    assert!(t.alerts().is_empty(), "{:#?}", t.alerts());
    assert_eq!(t.moves(), vec!["E5", "C3"]);
}

#[test]
fn events_serialise_flat_with_board_time_and_kind() {
    let mut t = Table::nine();
    t.play("E5", B, &[]);
    let moved = t
        .events
        .iter()
        .find(|e| matches!(e.kind, goban_referee::EventKind::MovePlayed { .. }))
        .unwrap();
    let json = serde_json::to_value(moved).unwrap();
    assert_eq!(json["board"], "board");
    assert_eq!(json["game"], "board-1");
    assert!(json["at"].as_str().is_some_and(|at| at.ends_with('Z')));
    assert_eq!(json["event"], "move_played");
    assert_eq!(json["point"], "E5");
    assert_eq!(json["color"], "black");
    let back: goban_referee::Event = serde_json::from_value(json).unwrap();
    assert_eq!(&back, moved);
}

#[test]
fn a_dead_stone_dispute_resumes_play_with_the_claimant_first() {
    let mut t = Table::nine();
    territory_game(&mut t);
    t.press_black();
    t.wait(1_500);
    t.press_white();
    t.wait(6_000);
    assert_eq!(t.referee.state().phase, Phase::Counting);
    t.take("B5");
    t.wait(1_000);
    t.arbiter(ArbiterCommand::ResumePlay { first: W });
    let state = t.referee.state();
    assert_eq!(state.phase, Phase::Playing);
    assert_eq!(
        state.to_move, W,
        "CN2002 21.4: the side claiming dead moves first"
    );
    assert_eq!(state.guidance.add.len(), 1, "the stone taken off goes back");
    t.put("B5", W);
    t.wait(4_000);
    t.play("B6", W, &[]);
    assert!(t.alerts().is_empty(), "{:#?}", t.alerts());
    assert_eq!(t.moves().last().map(String::as_str), Some("B6"));
}

#[test]
fn free_handicap_stones_are_read_off_the_board() {
    let mut t = Table::new(goban_referee::RefereeConfig {
        size: 9,
        ..Default::default()
    });
    let setup = goban_referee::GameSetup {
        handicap: Some(3),
        free_handicap: Some(true),
        ..Default::default()
    };
    t.arbiter(ArbiterCommand::StartGame(setup));
    for p in ["C3", "G7", "E5"] {
        t.put(p, B);
        t.wait(800);
    }
    t.wait(3_000);
    let state = t.referee.state();
    assert!(state.infractions.is_empty(), "{:#?}", state.infractions);
    assert_eq!(state.to_move, W);
    assert_eq!(state.position.matches('B').count(), 3);
    t.play("C7", W, &[]);
    assert_eq!(t.moves(), vec!["C7"]);
    assert!(t.alerts().is_empty());
}
