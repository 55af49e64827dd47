//! The referee's clock duties: time left at the press, flag falls after a press (CN2002 12.4, 22.5), the venue's late limit (22.1-22.2), running readings for MQTT `clock`.

mod common;

use common::table::Table;
use goban_referee::clock::Venue;
use goban_referee::{
    ArbiterCommand, DeviceCommand, EventKind, GameSetup, InfractionKind, Phase, RefereeConfig,
};
use goban_rules::Color;

const B: Color = Color::Black;

fn build_table(tc: &str, config: RefereeConfig) -> Table {
    let mut t = Table::new(RefereeConfig { size: 9, ..config });
    t.arbiter(ArbiterCommand::StartGame(GameSetup {
        time_control: Some(tc.parse().unwrap()),
        ..Default::default()
    }));
    t
}

fn clock_events(t: &Table) -> usize {
    t.events_where(|k| matches!(k, EventKind::Clock { .. }))
        .len()
}

fn shows(t: &Table) -> usize {
    t.commands
        .iter()
        .filter(|c| matches!(c, DeviceCommand::Show { .. }))
        .count()
}

#[test]
fn a_press_after_the_flag_fell_is_one_time_forfeit() {
    // CN2002 12.4, 22.5: the flag falls at 60 s; Black then plays and presses.
    let mut t = build_table("absolute:main=1m", RefereeConfig::default());
    t.wait(61_000);
    t.play("E5", B, &[]);
    t.press_black();
    t.wait(2_000);
    let forfeits: Vec<_> = t
        .alerts()
        .into_iter()
        .filter(|a| a.kind == InfractionKind::TimeForfeit)
        .collect();
    assert_eq!(forfeits.len(), 1, "one flag fall, one alert: {forfeits:?}");
    assert_eq!(forfeits[0].player, Some(B));
    assert!(
        forfeits[0].article.starts_with("CN2002 12.4"),
        "{}",
        forfeits[0].article
    );
    let falls = t.events_where(|k| matches!(k, EventKind::FlagFall { .. }));
    assert_eq!(falls.len(), 1);
    // Nothing was charged for the move made after the fall.
    assert_eq!(t.referee.state().moves[0].time_left_ms, None);
}

#[test]
fn byo_yomi_records_the_period_time_at_the_press() {
    // Japanese byo-yomi, 30 s periods: a 12 s move leaves 18 s at the press, though the period resets to 30 s.
    let mut t = build_table(
        "byoyomi-jp:main=0s,period=30s,periods=3",
        RefereeConfig::default(),
    );
    t.wait(11_600);
    t.play("E5", B, &[]);
    let record = &t.referee.state().moves[0];
    assert_eq!(record.time_left_ms, Some(18_000));
    assert_eq!(record.periods_left, Some(3));
}

fn late_by_twenty_minutes(venue: Venue) -> Phase {
    let config = RefereeConfig {
        venue,
        ..RefereeConfig::default()
    }
    .with_all_sanctions();
    let mut t = build_table("absolute:main=2h", config);
    t.wait(20 * 60_000);
    t.arbiter(ArbiterCommand::LateStart {
        color: B,
        absent_ms: 20 * 60_000,
    });
    assert_eq!(t.alerts()[0].kind, InfractionKind::LateStart);
    t.referee.state().phase
}

#[test]
fn the_configured_venue_sets_the_late_start_limit() {
    // 20 minutes late: beyond 15 minutes at a same-site venue (CN2002 22.2), within 1 hour apart (22.1).
    assert_eq!(late_by_twenty_minutes(Venue::SameSite), Phase::Finished);
    assert_eq!(late_by_twenty_minutes(Venue::Separate), Phase::Playing);
    let parsed: RefereeConfig = serde_json::from_str("{}").unwrap();
    assert_eq!(parsed.venue, Venue::SameSite, "serde default: same venue");
    assert_eq!(parsed.clock_tick_ms, 1000);
}

#[test]
fn a_running_clock_publishes_a_reading_each_second() {
    let mut t = build_table("absolute:main=10m", RefereeConfig::default());
    let (events0, shows0) = (clock_events(&t), shows(&t));
    t.wait(5_500);
    assert_eq!(
        clock_events(&t) - events0,
        5,
        "one reading per second of running time"
    );
    assert_eq!(shows(&t) - shows0, 5, "the $SHOW display refreshed with it");
    let last = t
        .events
        .iter()
        .rev()
        .find_map(|e| match &e.kind {
            EventKind::Clock { clock } => Some(*clock),
            _ => None,
        })
        .unwrap();
    assert_eq!(last.black.main_ms, 600_000 - 5_000);
    assert_eq!(last.running, Some(B));
}

#[test]
fn a_press_restarts_the_tick_and_a_pause_stops_it() {
    let mut t = build_table("absolute:main=10m", RefereeConfig::default());
    t.wait(700);
    let before = clock_events(&t);
    t.press_black(); // a bare press: the clock switches at once and publishes
    assert_eq!(clock_events(&t), before + 1);
    t.wait(999);
    assert_eq!(
        clock_events(&t),
        before + 1,
        "the next tick counts from the press"
    );
    t.wait(1);
    assert_eq!(clock_events(&t), before + 2);
    t.arbiter(ArbiterCommand::Pause);
    let paused = clock_events(&t);
    t.wait(10_000);
    assert_eq!(
        clock_events(&t),
        paused,
        "no readings while paused (CN2002 14)"
    );
    t.arbiter(ArbiterCommand::Resume);
    assert_eq!(clock_events(&t), paused + 1);
    t.wait(3_000);
    assert_eq!(clock_events(&t), paused + 4);
}

#[test]
fn the_tick_can_be_turned_off() {
    let config = RefereeConfig {
        clock_tick_ms: 0,
        ..RefereeConfig::default()
    };
    let mut t = build_table("absolute:main=10m", config);
    let before = clock_events(&t);
    t.wait(30_000);
    assert_eq!(clock_events(&t), before);
    t.arbiter(ArbiterCommand::AdjustClock {
        color: B,
        delta_ms: 60_000,
        by: "arbiter".into(),
    });
    assert_eq!(
        clock_events(&t),
        before + 1,
        "an adjustment still publishes"
    );
}

#[test]
fn the_completing_press_publishes_the_time_left_as_a_correction() {
    let mut t = build_table("fischer:main=10m,increment=5s", RefereeConfig::default());
    t.play("E5", B, &[]); // the stone lands, 400 ms later the press
    let played = t.events_where(|k| matches!(k, EventKind::MovePlayed { .. }));
    assert!(
        matches!(
            &played[0].kind,
            EventKind::MovePlayed {
                time_left_ms: None,
                ..
            }
        ),
        "the stone is announced before the press"
    );
    let completed: Vec<_> = t
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Correction {
                number,
                was,
                now,
                time_left_ms: Some(ms),
                ..
            } => Some((*number, was.clone(), now.clone(), *ms)),
            _ => None,
        })
        .collect();
    assert_eq!(
        completed,
        vec![(1, "E5".into(), "E5".into(), 600_000 - 400)]
    );
    let event = t
        .events
        .iter()
        .find(|e| matches!(&e.kind, EventKind::Correction { .. }))
        .unwrap();
    let json = serde_json::to_value(event).unwrap();
    assert_eq!(json["event"], "correction");
    assert_eq!(json["time_left_ms"], 599_600);
}

#[test]
fn a_pass_is_announced_with_its_time_left() {
    let mut t = build_table("absolute:main=10m", RefereeConfig::default());
    t.wait(2_000);
    t.press_black(); // a bare press, nothing answers: a pass at the deadline (CN2002 2.5)
    t.wait(6_000);
    let passes: Vec<_> = t
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::MovePlayed {
                point,
                time_left_ms,
                ..
            } if point == "pass" => Some(*time_left_ms),
            _ => None,
        })
        .collect();
    assert_eq!(passes, vec![Some(598_000)]);
    assert_eq!(t.referee.state().moves[0].time_left_ms, Some(598_000));
}
