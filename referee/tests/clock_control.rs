//! The arbiter's hand on the clock: pause (CN2002 14), corrections (22.8-22.9), late starts (22.1-22.4) and the 22.5 conversion.

use goban_referee::Timestamp;
use goban_referee::clock::{
    AdjustmentReason, Clock, ClockError, ClockEvent, Color, TimeControl, Venue,
};

const T0: Timestamp = Timestamp(1_796_029_200_000);
const MINUTE: u64 = 60_000;

fn build_clock(tc: &str, first: Color) -> Clock {
    let tc: TimeControl = tc.parse().expect("valid time control");
    let mut clock = Clock::new(tc);
    clock.start(T0, first).expect("fresh clock starts");
    clock
}

fn at(ms: u64) -> Timestamp {
    T0.plus_ms(ms)
}

#[test]
fn paused_time_does_not_count_cn2002_14() {
    let mut clock = build_clock("absolute:main=90m", Color::Black);
    clock.pause(at(10_000)).unwrap();
    assert_eq!(clock.pause(at(11_000)).unwrap_err(), ClockError::Paused);
    assert_eq!(
        clock.complete_move(at(12_000), Color::Black).unwrap_err(),
        ClockError::Paused
    );
    assert_eq!(clock.poll_timeout(), None);
    let paused = clock.reading(at(900_000));
    assert_eq!(
        (paused.running, paused.to_move, paused.paused),
        (None, Some(Color::Black), true)
    );
    assert_eq!(paused.black.main_ms, 5_390_000);
    clock.resume(at(1_000_000)).unwrap();
    assert_eq!(
        clock.resume(at(1_000_001)).unwrap_err(),
        ClockError::NotPaused
    );
    assert_eq!(clock.poll_timeout(), Some(at(1_000_000 + 5_390_000)));
    let record = clock.complete_move(at(1_005_000), Color::Black).unwrap();
    assert_eq!((record.used_ms, record.after.main_ms), (15_000, 5_385_000));
    assert_eq!(clock.ledger(Color::Black).used_ms, 15_000);
}

#[test]
fn corrections_are_recorded_with_who_made_them_cn2002_22_8() {
    let mut clock = build_clock("absolute:main=90m", Color::Black);
    let white = clock
        .adjust(at(5_000), Color::White, 60_000, "chief arbiter".into())
        .unwrap();
    assert_eq!(white.main_ms, 5_460_000);
    // The running side: charged up to now, then corrected; the flag moves with it.
    let black = clock
        .adjust(at(10_000), Color::Black, -30_000, "arbiter B".into())
        .unwrap();
    assert_eq!(black.main_ms, 5_400_000 - 10_000 - 30_000);
    assert_eq!(clock.reading(at(10_000)).black.main_ms, 5_360_000);
    assert_eq!(clock.reading(at(20_000)).black.main_ms, 5_350_000);
    assert_eq!(clock.poll_timeout(), Some(at(10_000 + 5_360_000)));
    let log = clock.adjustments();
    assert_eq!(log.len(), 2);
    assert_eq!(
        (log[0].side, log[0].delta_ms, log[0].by.as_str()),
        (Color::White, 60_000, "chief arbiter")
    );
    assert_eq!(
        (log[1].at, log[1].reason),
        (at(10_000), AdjustmentReason::Correction)
    );
    let record = clock.complete_move(at(25_000), Color::Black).unwrap();
    assert_eq!((record.used_ms, record.after.main_ms), (15_000, 5_345_000));
    assert_eq!(clock.ledger(Color::Black).used_ms, 25_000);
}

#[test]
fn taking_all_of_the_running_sides_time_is_a_flag_fall_and_giving_it_back_pauses() {
    let mut clock = build_clock("absolute:main=5m", Color::Black);
    clock
        .adjust(at(1_000), Color::Black, -299_000, "arbiter".into())
        .unwrap();
    let fall = clock.handle_timeout(at(1_000));
    assert_eq!(
        fall,
        vec![ClockEvent::FlagFall {
            side: Color::Black,
            at: at(1_000),
            article: "CN2002 12.4".into()
        }]
    );
    assert_eq!(clock.flag_fallen(), Some(Color::Black));
    clock
        .adjust(
            at(5_000),
            Color::Black,
            60_000,
            "chief arbiter: faulty clock".into(),
        )
        .unwrap();
    assert_eq!(clock.flag_fallen(), None);
    assert!(clock.reading(at(6_000)).paused);
    clock.resume(at(7_000)).unwrap();
    assert_eq!(clock.poll_timeout(), Some(at(67_000)));
}

#[test]
fn corrections_beyond_main_time_cost_whole_byo_yomi_periods() {
    let mut clock = build_clock("byoyomi-cn:main=1m,reserve=5", Color::Black);
    let white = clock
        .adjust(at(0), Color::White, -(30_000 + 150_000), "arbiter".into())
        .unwrap();
    assert_eq!(
        (white.main_ms, white.periods, white.period_ms),
        (0, 3, 60_000)
    );
}

#[test]
fn a_late_player_loses_the_absence_twice_over_cn2002_22_2() {
    // Black is late: its own clock ran the whole absence once; as much again is taken.
    let mut clock = build_clock("absolute:main=90m", Color::Black);
    let late = clock
        .late_start(at(10 * MINUTE), Color::Black, 10 * MINUTE)
        .unwrap();
    assert!(!late.forfeit);
    assert_eq!(
        (late.already_charged_ms, late.deducted_ms),
        (10 * MINUTE, 10 * MINUTE)
    );
    assert_eq!(late.article, "CN2002 22.2");
    assert_eq!(
        clock.reading(at(10 * MINUTE)).black.main_ms,
        90 * MINUTE - 20 * MINUTE
    );
    let log = clock.adjustments();
    assert_eq!(
        (log[0].reason, log[0].delta_ms, log[0].by.as_str()),
        (AdjustmentReason::LateStart, -600_000, "CN2002 22.2")
    );
    assert_eq!(
        clock
            .late_start(at(11 * MINUTE), Color::Black, MINUTE)
            .unwrap_err(),
        ClockError::LateStartTwice(Color::Black)
    );
}

#[test]
fn a_late_second_player_is_charged_the_same_twice_over() {
    // White is late; Black played after one minute, so White's clock ran nine of the ten.
    let mut clock = build_clock("absolute:main=90m", Color::Black);
    clock.complete_move(at(MINUTE), Color::Black).unwrap();
    let late = clock
        .late_start(at(10 * MINUTE), Color::White, 10 * MINUTE)
        .unwrap();
    assert_eq!(
        (late.already_charged_ms, late.deducted_ms),
        (9 * MINUTE, 11 * MINUTE)
    );
    assert_eq!(clock.reading(at(10 * MINUTE)).white.main_ms, 70 * MINUTE);
}

#[test]
fn paused_time_is_not_part_of_the_first_deduction() {
    let mut clock = build_clock("absolute:main=90m", Color::Black);
    clock.pause(at(2 * MINUTE)).unwrap();
    clock.resume(at(5 * MINUTE)).unwrap();
    let late = clock
        .late_start(at(10 * MINUTE), Color::Black, 10 * MINUTE)
        .unwrap();
    assert_eq!(
        (late.already_charged_ms, late.deducted_ms),
        (7 * MINUTE, 13 * MINUTE)
    );
    assert_eq!(clock.reading(at(10 * MINUTE)).black.main_ms, 70 * MINUTE);
}

#[test]
fn beyond_the_venue_limit_the_game_is_lost_cn2002_22_1_22_2() {
    let mut same_site = build_clock("absolute:main=90m", Color::Black);
    let late = same_site
        .late_start(at(16 * MINUTE), Color::White, 15 * MINUTE + 1)
        .unwrap();
    assert!(late.forfeit);
    assert_eq!((late.deducted_ms, late.limit_ms), (0, 15 * MINUTE));
    assert!(same_site.adjustments().is_empty());

    let separate = Clock::new("absolute:main=3h".parse().unwrap()).with_venue(Venue::Separate);
    let mut at_limit = separate.clone();
    at_limit.start(T0, Color::Black).unwrap();
    let late = at_limit
        .late_start(at(60 * MINUTE), Color::Black, 60 * MINUTE)
        .unwrap();
    assert!(
        !late.forfeit,
        "one hour itself is allowed (不得超过1小时(含))"
    );
    assert_eq!(late.article, "CN2002 22.1");
    assert_eq!(at_limit.reading(at(60 * MINUTE)).black.main_ms, 60 * MINUTE);
    let mut over = separate;
    over.start(T0, Color::Black).unwrap();
    assert!(
        over.late_start(at(61 * MINUTE), Color::Black, 60 * MINUTE + 1)
            .unwrap()
            .forfeit
    );
}

#[test]
fn without_main_time_byo_yomi_runs_during_the_absence_cn2002_22_4() {
    let mut clock = build_clock("byoyomi-cn:main=0s,reserve=5", Color::Black);
    let late = clock.late_start(at(30_000), Color::Black, 30_000).unwrap();
    assert_eq!((late.deducted_ms, late.article), (0, "CN2002 22.4"));
    assert_eq!(
        Clock::new(TimeControl::None)
            .late_start(T0, Color::Black, 1)
            .unwrap_err(),
        ClockError::NotStarted
    );
}

#[test]
fn a_flag_fall_converted_to_a_pass_keeps_the_same_byo_yomi_cn2002_22_5() {
    let mut clock = build_clock("byoyomi-cn:main=0s,reserve=1", Color::Black);
    assert_eq!(
        clock
            .convert_forfeit_to_pass(at(1), Color::Black)
            .unwrap_err(),
        ClockError::NoFlagFall(Color::Black)
    );
    let events = clock.handle_timeout(at(60_000));
    assert!(matches!(
        events.last(),
        Some(ClockEvent::FlagFall {
            side: Color::Black,
            ..
        })
    ));
    assert_eq!(
        clock
            .convert_forfeit_to_pass(at(90_000), Color::White)
            .unwrap_err(),
        ClockError::NoFlagFall(Color::White)
    );
    clock
        .convert_forfeit_to_pass(at(90_000), Color::Black)
        .unwrap();
    let reading = clock.reading(at(90_000));
    assert_eq!(reading.running, Some(Color::White));
    assert_eq!(
        (
            reading.black.periods,
            reading.black.period_ms,
            reading.black.flagged
        ),
        (1, 60_000, false)
    );
    clock.complete_move(at(100_000), Color::White).unwrap();
    assert_eq!(clock.poll_timeout(), Some(at(130_000)));
    clock.complete_move(at(159_999), Color::Black).unwrap();
    assert_eq!(clock.reading(at(159_999)).black.periods, 1);
}

#[test]
fn only_byo_yomi_continues_after_a_flag_fall() {
    let mut clock = build_clock("fischer:main=1m,increment=5s", Color::White);
    clock.handle_timeout(at(MINUTE));
    assert_eq!(clock.flag_fallen(), Some(Color::White));
    assert_eq!(
        clock
            .convert_forfeit_to_pass(at(MINUTE), Color::White)
            .unwrap_err(),
        ClockError::NoByoYomi
    );
}

#[test]
fn queued_events_can_be_polled_one_by_one() {
    let mut clock = build_clock("byoyomi-jp:main=1s,periods=2,period=10s", Color::Black);
    clock.complete_move(at(15_000), Color::Black).unwrap();
    assert!(matches!(
        clock.poll_event(),
        Some(ClockEvent::OvertimeStarted { .. })
    ));
    assert!(matches!(
        clock.poll_event(),
        Some(ClockEvent::PeriodUsed {
            periods_left: 1,
            ..
        })
    ));
    assert_eq!(clock.poll_event(), None);
}

#[test]
fn taking_all_of_the_waiting_sides_time_drops_its_flag_when_its_clock_starts() {
    let mut clock = build_clock("byoyomi-jp:main=5m,periods=2,period=30s", Color::Black);
    let white = clock
        .adjust(at(1_000), Color::White, -400_000, "arbiter".into())
        .unwrap();
    assert_eq!(
        (white.main_ms, white.periods, white.period_ms, white.flagged),
        (0, 0, 0, false)
    );
    assert_eq!(clock.flag_fallen(), None);
    clock.complete_move(at(2_000), Color::Black).unwrap();
    assert_eq!(clock.poll_timeout(), Some(at(2_000)));
    let fall = clock.handle_timeout(at(2_000));
    assert_eq!(
        fall,
        vec![ClockEvent::FlagFall {
            side: Color::White,
            at: at(2_000),
            article: "JK 3".into()
        }]
    );
    assert_eq!(clock.adjustments().len(), 1);
}

#[test]
fn a_queued_event_is_due_at_once() {
    let mut clock = build_clock("byoyomi-cn:main=1s,reserve=2", Color::Black);
    clock.complete_move(at(5_000), Color::Black).unwrap();
    assert_eq!(
        clock.poll_timeout(),
        Some(at(1_000)),
        "the unhandled overtime start"
    );
    let queued = clock.handle_timeout(at(5_000));
    assert_eq!(
        queued,
        vec![ClockEvent::OvertimeStarted {
            side: Color::Black,
            at: at(1_000),
            periods: 2,
            moves: None
        }]
    );
    assert_eq!(clock.poll_timeout(), Some(at(6_000)), "White's main time");
}

#[test]
fn both_players_late_are_dealt_with_separately_cn2002_22_3() {
    let mut clock = build_clock("absolute:main=60m", Color::Black);
    // Black arrives after 5 minutes and plays at once; White arrives after 12.
    let black = clock
        .late_start(at(5 * MINUTE), Color::Black, 5 * MINUTE)
        .unwrap();
    assert_eq!((black.forfeit, black.deducted_ms), (false, 5 * MINUTE));
    clock.complete_move(at(5 * MINUTE), Color::Black).unwrap();
    let white = clock
        .late_start(at(12 * MINUTE), Color::White, 12 * MINUTE)
        .unwrap();
    assert_eq!(
        (white.already_charged_ms, white.deducted_ms),
        (7 * MINUTE, 17 * MINUTE)
    );
    let reading = clock.reading(at(12 * MINUTE));
    assert_eq!(reading.black.main_ms, 50 * MINUTE);
    assert_eq!(reading.white.main_ms, 36 * MINUTE);
    let json = serde_json::to_value(clock.adjustments()).unwrap();
    assert_eq!(json[1]["reason"], "late_start");
    assert_eq!(json[1]["side"], "white");
    assert_eq!(json[1]["delta_ms"], -1_020_000);
}

#[test]
fn a_second_flag_fall_can_be_converted_again() {
    let mut clock = build_clock("byoyomi-jp:main=0s,periods=1,period=10s", Color::Black);
    let mut turn_start = 0;
    for round in 0..3 {
        let fall = clock.handle_timeout(at(turn_start + 10_000));
        assert_eq!(fall.len(), 1, "round {round}: {fall:?}");
        clock
            .convert_forfeit_to_pass(at(turn_start + 10_000), Color::Black)
            .unwrap();
        // White answers in 9 s, within its period.
        clock
            .complete_move(at(turn_start + 19_000), Color::White)
            .unwrap();
        turn_start += 19_000;
    }
    assert_eq!(clock.ledger(Color::Black).used_ms, 30_000);
    assert_eq!(clock.reading(at(turn_start)).white.periods, 1);
}
