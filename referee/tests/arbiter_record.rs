//! What an arbiter and a scorer read: the count's unit and breakdown, seki rulings, dead stones
//! kept at the end, the audit trail in the SGF, and the count-out calls in both languages.

mod common;

use common::table::Table;
use goban_referee::clock::CallCode;
use goban_referee::{
    ArbiterAct, ArbiterCommand, EventKind, GameSetup, Input, Phase, RefereeConfig,
};
use goban_rules::score::SekiRuling;
use goban_rules::{Color, Ruleset, ScoreUnit};

const B: Color = Color::Black;
const W: Color = Color::White;

/// Black walls the left, White the right, on 9x9; a white stone dies inside Black's side.
fn build_counting(ruleset: Ruleset) -> Table {
    let mut t = Table::new(RefereeConfig {
        size: 9,
        ..RefereeConfig::default()
    });
    t.arbiter(ArbiterCommand::StartGame(GameSetup {
        ruleset: Some(ruleset),
        ..GameSetup::default()
    }));
    for row in 1..=9 {
        t.play(&format!("D{row}"), B, &[]);
        t.play(&format!("F{row}"), W, &[]);
    }
    t.play("G5", B, &[]);
    t.play("B5", W, &[]);
    t.key(goban_referee::ClockKey::DoneL);
    t.key(goban_referee::ClockKey::DoneR);
    assert_eq!(t.referee.state().phase, Phase::Counting);
    t
}

fn signed(command: ArbiterCommand, note: &str) -> Input {
    Input::ArbiterAct(ArbiterAct {
        by: "arbiter#2".into(),
        note: Some(note.into()),
        command,
    })
}

#[test]
fn the_result_says_its_unit_and_the_count_per_side() {
    let mut t = build_counting(Ruleset::Cn2002);
    t.arbiter(ArbiterCommand::MarkDead {
        points: vec!["B5".into(), "G5".into()],
        dead: true,
    });
    let state = t.referee.state();
    assert_eq!(state.result_unit, ScoreUnit::Stones);
    let count = state.count.expect("a count while counting");
    // Black: D column 9 stones + A..C 27 points; White: F 9 + G..J 27; dame E 9 shared.
    assert_eq!((count.black.stones, count.black.territory), (9, 27));
    assert_eq!((count.white.stones, count.white.territory), (9, 27));
    assert_eq!(count.dame, 9);
    assert_eq!(count.komi, 3.75, "7.5 points are 3 3/4 stones");
    assert_eq!(count.handicap_giveback, 0.0);
    assert_eq!(state.proposed_result.as_deref(), Some("W+3.75"));
    let json = serde_json::to_value(&state).unwrap();
    assert_eq!(json["result_unit"], "stones");
    assert_eq!(json["count"]["black"]["stones"], 9);
    t.arbiter(ArbiterCommand::ConfirmResult);
    let state = t.referee.state();
    assert_eq!(state.result.as_deref(), Some("W+3.75"));
    assert!(
        state.count.is_some(),
        "the count stays beside the result it gave"
    );
    assert_eq!(
        state.dead_stones,
        ["B5", "G5"],
        "the final state keeps the dead stones"
    );
    let live = serde_json::to_value(state.live()).unwrap();
    assert_eq!(live["dead_stones"][0], "B5");
    assert_eq!(live["result_unit"], "stones");
}

#[test]
fn jk_counts_in_points_and_a_result_set_otherwise_drops_the_count() {
    let mut t = build_counting(Ruleset::Jk);
    let state = t.referee.state();
    assert_eq!(state.result_unit, ScoreUnit::Points);
    assert_eq!(
        state.count.unwrap().komi,
        6.5,
        "the ruleset's komi, in points"
    );
    t.arbiter(ArbiterCommand::SetResult {
        result: "B+R".parse().unwrap(),
        force: false,
    });
    let state = t.referee.state();
    assert_eq!(state.result.as_deref(), Some("B+R"));
    assert!(
        state.count.is_none(),
        "no breakdown beside a result the count did not give"
    );
}

#[test]
fn a_seki_ruling_changes_the_jk_count_and_is_refused_outside_counting() {
    let mut t = build_counting(Ruleset::Jk);
    t.arbiter(ArbiterCommand::MarkDead {
        points: vec!["B5".into(), "G5".into()],
        dead: true,
    });
    let before = t.referee.state().count.unwrap();
    // Ruling the D wall in seki takes Black's territory out of the JK count.
    t.send(signed(
        ArbiterCommand::MarkSeki {
            points: vec!["D5".into()],
            ruling: Some(SekiRuling::InSeki),
        },
        "both sides agreed",
    ));
    let state = t.referee.state();
    assert_eq!(state.seki.len(), 1);
    assert_eq!(
        (state.seki[0].point.as_str(), state.seki[0].ruling),
        ("D5", SekiRuling::InSeki)
    );
    let after = state.count.unwrap();
    assert_eq!(before.black.territory, 27);
    assert_eq!(after.black.territory, 0);
    assert_eq!(after.seki_points, 27);
    let audit = t.referee.state().audit;
    let entry = audit.last().unwrap();
    assert_eq!(entry.action, "mark_seki");
    assert!(entry.what.contains("ruled in seki: D5"), "{entry:?}");
    // Withdrawn through any stone of the group: the count is as before.
    t.arbiter(ArbiterCommand::MarkSeki {
        points: vec!["D1".into()],
        ruling: None,
    });
    assert_eq!(t.referee.state().count.unwrap(), before);
    assert!(t.referee.state().seki.is_empty());
    // A dead stone is in no seki; an empty point names no group.
    for point in ["B5", "E5"] {
        let refused = t.try_send(Input::Arbiter(ArbiterCommand::MarkSeki {
            points: vec![point.into()],
            ruling: Some(SekiRuling::InSeki),
        }));
        assert!(refused.is_err(), "{point}");
    }
    let mut playing = Table::nine();
    playing.play("E5", B, &[]);
    let refused = playing.try_send(Input::Arbiter(ArbiterCommand::MarkSeki {
        points: vec!["E5".into()],
        ruling: Some(SekiRuling::InSeki),
    }));
    assert!(refused.is_err(), "seki is ruled while counting");
}

#[test]
fn the_sgf_carries_the_arbiters_actions_and_the_count() {
    let mut t = build_counting(Ruleset::Cn2002);
    t.send(signed(
        ArbiterCommand::MarkDead {
            points: vec!["B5".into(), "G5".into()],
            dead: true,
        },
        "agreed by both players",
    ));
    t.arbiter(ArbiterCommand::ConfirmResult);
    let sgf = t.referee.sgf().expect("the SGF");
    assert!(sgf.contains("arbiter#2 "), "{sgf}");
    assert!(
        sgf.contains("marked dead: B5 G5. Note: agreed by both players"),
        "{sgf}"
    );
    assert!(sgf.contains("counted result confirmed"), "{sgf}");
    // The start is on the root node; the count's TB/TW close the record.
    let root = &sgf[..sgf.find(";B[").unwrap()];
    assert!(root.contains("game started"), "{sgf}");
    let last = &sgf[sgf.rfind("\n;").unwrap()..];
    assert!(last.contains("TB[") && last.contains("TW["), "{sgf}");
    // B5 (dead white stone) is Black's point, be in SGF; G5 (dead black) White's, ge.
    let tb = &last[last.find("TB").unwrap()..last.find("TW").unwrap()];
    assert!(tb.contains("[be]"), "{sgf}");
    assert!(last[last.find("TW").unwrap()..].contains("[ge]"), "{sgf}");
}

#[test]
fn a_warning_ruling_names_its_article_in_the_trail() {
    let mut t = Table::nine();
    t.play("E5", B, &[]);
    t.press_white();
    t.wait(1_000);
    t.put("C3", W);
    t.wait(1_000);
    let id = t.alerts()[0].id.clone();
    t.arbiter(ArbiterCommand::Ruling {
        id,
        action: goban_referee::RulingAction::Sanction,
        note: String::new(),
    });
    let entry = t.referee.state().audit.last().cloned().unwrap();
    assert!(
        entry
            .what
            .contains("clock pressed before the stone was placed by White (CN2002 17.4)"),
        "{entry:?}"
    );
    assert!(
        entry.what.contains("warning to White, 1 in all (art. 24)"),
        "{entry:?}"
    );
    let sgf = t.referee.sgf().expect("the SGF");
    assert!(
        sgf.contains("Clock pressed before the stone was placed (CN2002 17.4) by White at C3: sanctioned, warning (art. 24)"),
        "{sgf}"
    );
    assert!(
        sgf.contains("warning to White, 1 in all (art. 24)"),
        "{sgf}"
    );
}

#[test]
fn a_minute_used_is_called_in_english_and_chinese() {
    let mut t = Table::new(RefereeConfig {
        size: 9,
        ..RefereeConfig::default()
    });
    t.arbiter(ArbiterCommand::StartGame(GameSetup {
        time_control: Some("byoyomi-cn:main=1m,reserve=3".parse().unwrap()),
        ..GameSetup::default()
    }));
    // Black thinks for main time plus one minute and a half.
    t.wait(150_000);
    let calls: Vec<(String, String, CallCode)> = t
        .events_where(|k| matches!(k, EventKind::ClockCall { .. }))
        .into_iter()
        .filter_map(|e| match &e.kind {
            EventKind::ClockCall {
                call,
                call_zh,
                code,
                ..
            } => Some((call.clone(), call_zh.clone(), *code)),
            _ => None,
        })
        .collect();
    let used = calls
        .iter()
        .find(|(_, _, code)| matches!(code, CallCode::PeriodUsed { .. }))
        .expect("a minute used");
    assert_eq!(used.0, "1 minute used, 2 left");
    assert_eq!(used.1, "还剩2分钟");
    assert!(
        calls
            .iter()
            .any(|(en, zh, _)| en == "30 seconds" && zh == "30秒"),
        "{calls:?}"
    );
    assert!(
        calls.iter().all(|(en, _, _)| !en.contains("periods")),
        "{calls:?}"
    );
}

#[test]
fn free_handicap_stones_read_off_the_board_are_the_sgf_setup() {
    let t = Table::with_free_handicap(GameSetup::default(), &["C3", "G7", "E5"]);
    let sgf = t.referee.sgf().expect("the SGF");
    assert!(sgf.contains("HA[3]"), "{sgf}");
    // Added stones (AB), not moves: C3 = cg, E5 = ee, G7 = gc in SGF letters.
    let setup = &sgf[sgf.find("AB").expect("AB")..];
    let setup = &setup[..setup.find("PL").unwrap_or(setup.len())];
    for point in ["[cg]", "[ee]", "[gc]"] {
        assert!(setup.contains(point), "{sgf}");
    }
    assert!(
        sgf.contains("PL[W]"),
        "White moves first after a handicap: {sgf}"
    );
    assert!(
        sgf.contains("free placement"),
        "the start's audit names the placement: {sgf}"
    );
}
