//! "I'm on my way": an arbiter takes an open alert; every arbiter sees who; the game is untouched.

mod common;

use common::table::Table;
use goban_referee::{ArbiterAct, ArbiterCommand, EventKind, Input, RefereeError, RulingAction};
use goban_rules::Color::{Black as B, White as W};

/// White presses before placing a stone: one open `premature_press` alert (CN2002 17.4).
fn table_with_alert() -> Table {
    let mut t = Table::nine();
    t.play("E5", B, &[]);
    t.press_white();
    t.wait(1_200);
    t.put("C3", W);
    t.wait(1_000);
    assert_eq!(t.alerts().len(), 1);
    t
}

fn act(t: &mut Table, by: &str, command: ArbiterCommand) -> Result<(), RefereeError> {
    t.try_send(Input::ArbiterAct(ArbiterAct {
        by: by.into(),
        note: None,
        command,
    }))
}

fn take(t: &mut Table, by: &str, withdraw: bool, take_over: bool) -> Result<(), RefereeError> {
    let id = t.alerts()[0].id.clone();
    act(
        t,
        by,
        ArbiterCommand::Acknowledge {
            id,
            withdraw,
            take_over,
        },
    )
}

#[test]
fn the_taker_is_on_the_alert_and_in_the_audit_trail() {
    let mut t = table_with_alert();
    let before = t.referee.state();
    take(&mut t, "Li Wei", false, false).unwrap();
    let state = t.referee.state();
    let alert = &state.infractions[0];
    assert_eq!(alert.taken_by.as_deref(), Some("Li Wei"));
    assert!(alert.taken_at.is_some());
    assert_eq!(alert.status, before.infractions[0].status, "still open");
    assert_eq!(
        (state.warnings, state.clock),
        (before.warnings, before.clock)
    );
    let last = state.audit.last().unwrap();
    assert_eq!(
        (last.action.as_str(), last.by.as_str()),
        ("acknowledge", "Li Wei")
    );
    let heard = t.events_where(|k| {
        matches!(k, EventKind::InfractionChanged { infraction }
            if infraction.taken_by.as_deref() == Some("Li Wei"))
    });
    assert_eq!(heard.len(), 1, "every arbiter hears of it (SSE, MQTT)");
}

#[test]
fn a_second_arbiter_is_told_who_took_it_unless_taking_over() {
    let mut t = table_with_alert();
    take(&mut t, "Li Wei", false, false).unwrap();
    let refused = take(&mut t, "Anna", false, false);
    assert!(
        matches!(&refused, Err(RefereeError::Taken { by, .. }) if by == "Li Wei"),
        "{refused:?}"
    );
    assert_eq!(t.alerts()[0].taken_by.as_deref(), Some("Li Wei"));
    take(&mut t, "Li Wei", false, false).expect("taking one's own again is harmless");
    take(&mut t, "Anna", false, true).unwrap();
    assert_eq!(t.alerts()[0].taken_by.as_deref(), Some("Anna"));
    take(&mut t, "Anna", true, false).unwrap();
    assert_eq!(t.alerts()[0].taken_by, None, "handed back");
}

#[test]
fn a_closed_alert_cannot_be_taken() {
    let mut t = table_with_alert();
    let id = t.alerts()[0].id.clone();
    act(
        &mut t,
        "Li Wei",
        ArbiterCommand::Ruling {
            id,
            action: RulingAction::Dismiss,
            note: String::new(),
        },
    )
    .unwrap();
    let refused = take(&mut t, "Anna", false, false);
    assert!(
        matches!(refused, Err(RefereeError::AlreadyRuled { .. })),
        "{refused:?}"
    );
    assert_eq!(t.alerts()[0].taken_by, None);
}
