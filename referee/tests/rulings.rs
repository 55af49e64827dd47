//! Rulings with one meaning (docs/referee.md "Rulings"): confirm applies the article's sanction,
//! an alert takes one ruling, a dismissal undoes an automatic warning and the loss it caused.

mod common;

use common::table::Table;
use goban_referee::{
    ArbiterAct, ArbiterCommand, InfractionKind, InfractionStatus, Input, Phase, RefereeConfig,
    RefereeError, RulingAction,
};
use goban_rules::Color::{Black as B, White as W};

fn ruling(t: &mut Table, index: usize, action: RulingAction) -> Result<(), RefereeError> {
    let id = t.alerts()[index].id.clone();
    t.try_send(Input::ArbiterAct(ArbiterAct {
        by: "arbiter#2".into(),
        note: Some("seen from the next table".into()),
        command: ArbiterCommand::Ruling {
            id,
            action,
            note: String::new(),
        },
    }))
}

/// White presses before placing a stone: a `premature_press` (CN2002 17.4), one warning.
fn premature_press(t: &mut Table, black: &str, white: &str) {
    t.play(black, B, &[]);
    t.press_white();
    t.wait(1_200);
    t.put(white, W);
    t.wait(1_000);
}

#[test]
fn confirm_applies_the_sanction_and_a_second_ruling_is_refused() {
    let mut t = Table::nine();
    premature_press(&mut t, "E5", "C3");
    assert_eq!(t.alerts()[0].kind, InfractionKind::PrematurePress);
    ruling(&mut t, 0, RulingAction::Confirm).unwrap();
    let state = t.referee.state();
    assert_eq!(state.warnings.white, 1, "confirm gives the warning of 17.4");
    let alert = &state.infractions[0];
    assert_eq!(alert.status, InfractionStatus::Confirmed);
    assert!(alert.sanction_applied);
    assert_eq!(alert.ruled_by.as_deref(), Some("arbiter#2"));
    for action in [RulingAction::Sanction, RulingAction::Dismiss] {
        let refused = ruling(&mut t, 0, action);
        assert!(
            matches!(refused, Err(RefereeError::AlreadyRuled { .. })),
            "{refused:?}"
        );
    }
    let state = t.referee.state();
    assert_eq!(state.warnings.white, 1, "a refused ruling changes nothing");
    assert_eq!(state.infractions[0].status, InfractionStatus::Confirmed);
    let audit: Vec<&str> = state.audit.iter().map(|e| e.action.as_str()).collect();
    assert_eq!(
        audit,
        ["start_game", "ruling"],
        "refused rulings leave no entry"
    );
    assert_eq!(state.audit[1].by, "arbiter#2");
}

#[test]
fn dismissing_an_automatic_second_warning_lifts_the_loss() {
    let mut t = Table::started(
        RefereeConfig {
            size: 9,
            ..RefereeConfig::default()
        }
        .with_all_sanctions(),
    );
    premature_press(&mut t, "E5", "C3");
    t.play("G5", B, &[]);
    t.press_white();
    t.wait(1_200);
    t.put("C7", W);
    t.wait(1_000);
    let state = t.referee.state();
    assert_eq!(state.warnings.white, 2, "{:#?}", state.infractions);
    assert_eq!(
        state.result.as_deref(),
        Some("B+F"),
        "a second warning loses (24.2)"
    );
    assert_eq!(state.phase, Phase::Finished);

    ruling(&mut t, 1, RulingAction::Dismiss).unwrap();
    let state = t.referee.state();
    assert_eq!(state.warnings.white, 1, "the warning is withdrawn");
    assert_eq!(state.result, None, "and the loss it caused lifted");
    assert_eq!(state.phase, Phase::Playing);
    assert_eq!(state.infractions[1].status, InfractionStatus::Dismissed);
    assert!(!state.infractions[1].sanction_applied);
    // The first, automatic, sanction is still open to one ruling by an arbiter.
    ruling(&mut t, 0, RulingAction::Confirm).unwrap();
    assert_eq!(
        t.referee.state().warnings.white,
        1,
        "confirming it adds nothing twice"
    );
}

#[test]
fn a_late_start_beyond_the_limit_is_advised_then_confirmed_as_a_loss() {
    let mut t = Table::started(RefereeConfig {
        size: 9,
        time_control: Some("absolute:main=90m".parse().unwrap()),
        ..RefereeConfig::default()
    });
    t.try_send(Input::Arbiter(ArbiterCommand::LateStart {
        color: B,
        absent_ms: 20 * 60_000,
    }))
    .unwrap();
    let alert = t.alerts()[0].clone();
    assert_eq!(alert.kind, InfractionKind::LateStart);
    assert!(!alert.sanction_applied);
    assert_eq!(t.referee.state().phase, Phase::Playing);
    ruling(&mut t, 0, RulingAction::Confirm).unwrap();
    assert_eq!(t.referee.state().result.as_deref(), Some("W+F"));
}
