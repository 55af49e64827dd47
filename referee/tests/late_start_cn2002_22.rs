//! CN2002 22.1-22.4, a player late at the start, clause by clause: each test names its article.

mod common;

use common::table::Table;
use goban_referee::clock::Venue;
use goban_referee::{
    ArbiterAct, ArbiterCommand, InfractionKind, InfractionStatus, Input, Phase, RefereeConfig,
    RefereeError, RulingAction,
};
use goban_rules::Color::{self, Black as B, White as W};

const MINUTE: u64 = 60_000;

/// A 9x9 game under `tc` at `venue`, started now; nobody has moved.
fn table(tc: &str, venue: Venue) -> Table {
    Table::started(RefereeConfig {
        size: 9,
        time_control: Some(tc.parse().expect("valid time control")),
        venue,
        ..RefereeConfig::default()
    })
}

/// The arbiter `arbiter#1` declares `color` late by `absent_ms`.
fn declare(t: &mut Table, color: Color, absent_ms: u64) -> Result<(), RefereeError> {
    act(t, ArbiterCommand::LateStart { color, absent_ms })
}

fn act(t: &mut Table, command: ArbiterCommand) -> Result<(), RefereeError> {
    t.try_send(Input::ArbiterAct(ArbiterAct {
        by: "arbiter#1".into(),
        note: None,
        command,
    }))
}

fn rule(t: &mut Table, index: usize, action: RulingAction) -> Result<(), RefereeError> {
    let id = t.alerts()[index].id.clone();
    act(
        t,
        ArbiterCommand::Ruling {
            id,
            action,
            note: String::new(),
        },
    )
}

fn main_ms(t: &Table, color: Color) -> u64 {
    let clock = t.referee.state().clock.expect("a clock runs");
    match color {
        B => clock.black.main_ms,
        W => clock.white.main_ms,
    }
}

#[test]
fn cn2002_22_2_five_minutes_late_costs_ten_and_no_ruling_forfeits() {
    let mut t = table("absolute:main=90m", Venue::SameSite);
    t.wait(5 * MINUTE);
    declare(&mut t, B, 5 * MINUTE).unwrap();
    assert_eq!(main_ms(&t, B), 80 * MINUTE, "5 min absent, 10 min gone");
    let alert = t.alerts()[0].clone();
    assert_eq!(alert.kind, InfractionKind::LateStart);
    assert_eq!(alert.status, InfractionStatus::Sanctioned);
    assert_eq!(alert.ruled_by.as_deref(), Some("arbiter#1"));
    for action in [RulingAction::Confirm, RulingAction::Sanction] {
        assert!(
            matches!(
                rule(&mut t, 0, action),
                Err(RefereeError::AlreadyRuled { .. })
            ),
            "the deduction is the whole sanction: nothing left to confirm"
        );
    }
    let state = t.referee.state();
    assert_eq!((state.phase, state.result), (Phase::Playing, None));
}

#[test]
fn cn2002_22_2_beyond_fifteen_minutes_the_game_is_lost() {
    let mut t = table("absolute:main=90m", Venue::SameSite);
    t.wait(16 * MINUTE);
    declare(&mut t, B, 16 * MINUTE).unwrap();
    let alert = t.alerts()[0].clone();
    assert_eq!(alert.status, InfractionStatus::Open, "advised: {alert:?}");
    rule(&mut t, 0, RulingAction::Confirm).unwrap();
    assert_eq!(t.referee.state().result.as_deref(), Some("W+F"));
}

#[test]
fn cn2002_22_2_fifteen_minutes_exactly_is_within_the_limit() {
    let mut t = table("absolute:main=90m", Venue::SameSite);
    t.wait(15 * MINUTE);
    declare(&mut t, W, 15 * MINUTE).unwrap();
    assert_eq!(main_ms(&t, W), 60 * MINUTE);
    assert_eq!(t.referee.state().phase, Phase::Playing);
}

#[test]
fn cn2002_22_2_beyond_the_limit_loses_at_once_when_sanctioned_automatically() {
    let mut t = Table::started(RefereeConfig {
        size: 9,
        time_control: Some("absolute:main=90m".parse().unwrap()),
        ..RefereeConfig::default().with_all_sanctions()
    });
    t.wait(16 * MINUTE);
    declare(&mut t, W, 16 * MINUTE).unwrap();
    assert_eq!(t.referee.state().result.as_deref(), Some("B+F"));
}

#[test]
fn cn2002_22_1_separate_sites_allow_an_hour_inclusive() {
    let mut t = table("absolute:main=3h", Venue::Separate);
    t.wait(60 * MINUTE);
    declare(&mut t, B, 60 * MINUTE).unwrap();
    assert_eq!(main_ms(&t, B), 60 * MINUTE, "3 h less twice the hour");
    assert_eq!(t.alerts()[0].status, InfractionStatus::Sanctioned);

    let mut late = table("absolute:main=3h", Venue::Separate);
    late.wait(61 * MINUTE);
    declare(&mut late, B, 61 * MINUTE).unwrap();
    assert_eq!(late.alerts()[0].status, InfractionStatus::Open);
}

#[test]
fn cn2002_22_1_22_2_a_limit_set_by_the_tournament_replaces_the_figure() {
    let mut t = table("absolute:main=90m", Venue::Limit(20 * MINUTE));
    t.wait(19 * MINUTE);
    declare(&mut t, B, 19 * MINUTE).unwrap();
    assert_eq!(main_ms(&t, B), 90 * MINUTE - 38 * MINUTE);
    t.wait(2 * MINUTE);
    declare(&mut t, W, 21 * MINUTE).unwrap();
    let white = t
        .alerts()
        .into_iter()
        .find(|a| a.player == Some(W))
        .unwrap();
    assert_eq!(white.status, InfractionStatus::Open, "21 min > 20: a loss");
}

#[test]
fn cn2002_22_3_both_late_each_is_judged_separately() {
    let mut t = table("absolute:main=90m", Venue::SameSite);
    t.wait(4 * MINUTE);
    declare(&mut t, B, 4 * MINUTE).unwrap();
    t.wait(6 * MINUTE);
    declare(&mut t, W, 10 * MINUTE).unwrap();
    // Black: 4 minutes twice over, and the 6 minutes its clock has run since Black sat down.
    assert_eq!(main_ms(&t, B), 90 * MINUTE - 8 * MINUTE - 6 * MINUTE);
    // White: its clock has not run (Black has not moved); 10 minutes twice over.
    assert_eq!(main_ms(&t, W), 90 * MINUTE - 20 * MINUTE);
    assert_eq!(t.referee.state().phase, Phase::Playing);
}

#[test]
fn cn2002_22_3_both_beyond_the_limit_both_lose() {
    let mut t = table("absolute:main=90m", Venue::SameSite);
    t.wait(20 * MINUTE);
    declare(&mut t, B, 20 * MINUTE).unwrap();
    declare(&mut t, W, 18 * MINUTE).unwrap();
    rule(&mut t, 0, RulingAction::Confirm).unwrap();
    assert_eq!(t.referee.state().result.as_deref(), Some("W+F"));
    rule(&mut t, 1, RulingAction::Confirm).unwrap();
    assert_eq!(
        t.referee.state().result.as_deref(),
        Some("Void"),
        "both lose: no winner (the tournament scores a loss for each)"
    );
}

#[test]
fn cn2002_22_1_late_after_an_adjournment_the_clock_simply_runs() {
    let mut t = table("absolute:main=90m", Venue::SameSite);
    t.play("E5", B, &[]);
    t.press_black();
    t.wait(2_000);
    act(&mut t, ArbiterCommand::Seal).unwrap();
    t.wait(60 * MINUTE);
    act(&mut t, ArbiterCommand::Unseal).unwrap();
    let before = main_ms(&t, W);
    t.wait(40 * MINUTE);
    declare(&mut t, W, 40 * MINUTE).unwrap();
    let state = t.referee.state();
    assert_eq!(
        state.phase,
        Phase::Playing,
        "no loss limit after an adjournment"
    );
    assert!(state.infractions.is_empty(), "{:?}", state.infractions);
    assert_eq!(
        main_ms(&t, W),
        before - 40 * MINUTE,
        "only what the running clock took, not twice"
    );
}

#[test]
fn cn2002_22_4_without_main_time_the_absent_player_is_counted_out_in_byo_yomi() {
    // Sitting down before the count ends: the game goes on, whatever the absence.
    let mut t = table("byoyomi-jp:main=0s,periods=30,period=60s", Venue::SameSite);
    t.wait(20 * MINUTE + 10_000);
    declare(&mut t, B, 20 * MINUTE + 10_000).unwrap();
    let state = t.referee.state();
    assert_eq!((state.phase, state.result), (Phase::Playing, None));
    let clock = state.clock.unwrap();
    assert_eq!(clock.black.periods, 10, "20 periods counted out, no more");
    assert_eq!(state.infractions[0].status, InfractionStatus::Sanctioned);
}

#[test]
fn cn2002_22_4_the_count_ending_first_loses() {
    let mut t = table("byoyomi-jp:main=0s,periods=3,period=30s", Venue::SameSite);
    t.wait(2 * MINUTE);
    let state = t.referee.state();
    let forfeit = state
        .infractions
        .iter()
        .find(|a| a.kind == InfractionKind::TimeForfeit);
    assert!(
        forfeit.is_some(),
        "the count ended: {:?}",
        state.infractions
    );
    assert_eq!(forfeit.unwrap().player, Some(B));
}

#[test]
fn cn2002_22_4_a_very_short_main_time_is_not_deducted_twice() {
    // 10 minutes of main time, no longer than the 15-minute limit: a rapid game.
    let mut t = table("byoyomi-jp:main=10m,periods=30,period=30s", Venue::SameSite);
    t.wait(16 * MINUTE);
    declare(&mut t, B, 16 * MINUTE).unwrap();
    let state = t.referee.state();
    assert_eq!(state.phase, Phase::Playing, "no 15-minute limit under 22.4");
    let clock = state.clock.unwrap();
    assert_eq!((clock.black.main_ms, clock.black.periods), (0, 18));
}

#[test]
fn cn2002_22_1_a_late_start_after_the_players_first_move_is_refused() {
    let mut t = table("absolute:main=90m", Venue::SameSite);
    t.play("E5", B, &[]);
    t.press_black();
    t.wait(60_000);
    let before = t.referee.state();
    assert!(matches!(
        declare(&mut t, B, 60_000),
        Err(RefereeError::WrongPhase(_))
    ));
    let after = t.referee.state();
    assert_eq!(
        after.clock, before.clock,
        "a refused late start changes nothing"
    );
    assert!(after.infractions.is_empty());
    // White has not moved yet: White may still be declared late.
    declare(&mut t, W, 60_000).unwrap();
    assert_eq!(t.alerts()[0].player, Some(W));
}
