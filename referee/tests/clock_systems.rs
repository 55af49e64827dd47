//! Exact millisecond arithmetic of every time system through the `Clock` API (CN2002 12.3-12.5, JK 3, Fischer).

use goban_referee::Timestamp;
use goban_referee::clock::{Clock, ClockError, ClockEvent, Color, MoveTime, TimeControl};

const T0: Timestamp = Timestamp(1_796_029_200_000);

fn build_clock(tc: &str) -> Clock {
    let tc: TimeControl = tc.parse().expect("valid time control");
    let mut clock = Clock::new(tc);
    clock.start(T0, Color::Black).expect("fresh clock starts");
    clock
}

fn at(ms: u64) -> Timestamp {
    T0.plus_ms(ms)
}

fn press(clock: &mut Clock, ms: u64, mover: Color) -> MoveTime {
    clock.complete_move(at(ms), mover).expect("press accepted")
}

#[test]
fn absolute_time_runs_down_and_the_flag_falls_at_zero_cn2002_12_4() {
    let mut clock = build_clock("absolute:main=90m");
    let b1 = press(&mut clock, 12_345, Color::Black);
    assert_eq!(
        (b1.used_ms, b1.left.main_ms, b1.after.main_ms),
        (12_345, 5_387_655, 5_387_655)
    );
    let w1 = press(&mut clock, 12_346, Color::White);
    assert_eq!(w1.after.main_ms, 5_399_999);
    let reading = clock.reading(at(112_346));
    assert_eq!(reading.running, Some(Color::Black));
    assert_eq!(reading.black.main_ms, 5_287_655);
    assert_eq!(reading.white.main_ms, 5_399_999);
    assert_eq!(clock.poll_timeout(), Some(at(12_346 + 5_387_655)));
    assert!(clock.handle_timeout(at(12_346 + 5_387_654)).is_empty());
    let events = clock.handle_timeout(at(12_346 + 5_387_655));
    assert_eq!(
        events,
        vec![ClockEvent::FlagFall {
            side: Color::Black,
            at: at(5_400_001),
            article: "CN2002 12.4".into()
        }]
    );
    assert_eq!(clock.flag_fallen(), Some(Color::Black));
    assert_eq!(clock.poll_timeout(), None);
    let late = clock.complete_move(at(5_400_002), Color::Black);
    assert_eq!(
        late.unwrap_err(),
        ClockError::FlagFallen {
            side: Color::Black,
            at_ms: at(5_400_001).0
        }
    );
    assert_eq!(
        clock.reading(at(9_999_999)).black.used_ms,
        5_400_000 - 1 + 1
    );
}

#[test]
fn chinese_byo_yomi_moves_within_the_minute_cost_nothing_cn2002_12_3() {
    let mut clock = build_clock("byoyomi-cn:main=1m,reserve=3");
    // Black: 60 s of main time and 59.999 s of the first reserved minute: free.
    let b1 = press(&mut clock, 119_999, Color::Black);
    assert_eq!(
        (b1.left.main_ms, b1.left.periods, b1.left.period_ms),
        (0, 3, 1)
    );
    assert_eq!((b1.after.periods, b1.after.period_ms), (3, 60_000));
    assert_eq!(clock.ledger(Color::Black).free_ms, 59_999);
    let w1 = press(&mut clock, 130_000, Color::White);
    assert_eq!(w1.after.main_ms, 60_000 - 10_001);
    // Exactly 60 s: the minute is used ("达到60秒的视为已使用").
    let b2 = press(&mut clock, 190_000, Color::Black);
    assert_eq!((b2.left.periods, b2.left.period_ms), (2, 60_000));
    assert_eq!(b2.after.periods, 2);
    press(&mut clock, 190_001, Color::White);
    // 119.999 s: one full minute used, the second kept.
    let b3 = press(&mut clock, 310_000, Color::Black);
    assert_eq!((b3.left.periods, b3.left.period_ms), (1, 1));
    assert_eq!(b3.after.periods, 1);
    assert_eq!(clock.ledger(Color::Black).free_ms, 59_999 + 59_999);
}

#[test]
fn japanese_byo_yomi_overrunning_uses_one_period_per_period_jk_3() {
    let mut clock = build_clock("byoyomi-jp:main=10s,periods=3,period=30s");
    let b1 = press(&mut clock, 39_999, Color::Black);
    assert_eq!(
        (b1.left.periods, b1.left.period_ms, b1.after.period_ms),
        (3, 1, 30_000)
    );
    press(&mut clock, 40_000, Color::White);
    let b2 = press(&mut clock, 105_000, Color::Black);
    assert_eq!((b2.left.periods, b2.left.period_ms), (1, 25_000));
    assert_eq!((b2.after.periods, b2.after.period_ms), (1, 30_000));
    press(&mut clock, 105_001, Color::White);
    // The queued overtime start of an earlier turn is due at once.
    assert_eq!(clock.poll_timeout(), Some(at(10_000)));
    // Nobody handled the timeouts during Black's long second move: its facts were queued, stamped when due.
    let events = clock.handle_timeout(at(135_001));
    let black = Color::Black;
    let want = vec![
        ClockEvent::OvertimeStarted {
            side: black,
            at: at(10_000),
            periods: 3,
            moves: None,
        },
        ClockEvent::PeriodUsed {
            side: black,
            at: at(70_000),
            periods_left: 2,
        },
        ClockEvent::PeriodUsed {
            side: black,
            at: at(100_000),
            periods_left: 1,
        },
        ClockEvent::FlagFall {
            side: black,
            at: at(135_001),
            article: "JK 3".into(),
        },
    ];
    assert_eq!(events, want);
}

#[test]
fn canadian_blocks_carry_unused_time_over_cn2002_12_5() {
    let mut clock = build_clock("canadian:main=1m,moves=3,block=2m");
    // Black enters the block 10 s into a 70 s move: 110 s left, 2 moves to go.
    let b1 = press(&mut clock, 70_000, Color::Black);
    assert_eq!(
        (b1.after.main_ms, b1.after.period_ms, b1.after.moves_left),
        (0, 110_000, Some(2))
    );
    press(&mut clock, 71_000, Color::White);
    let b2 = press(&mut clock, 101_000, Color::Black);
    assert_eq!((b2.after.period_ms, b2.after.moves_left), (80_000, Some(1)));
    press(&mut clock, 102_000, Color::White);
    // The third move of the block: 20.5 s unused carries into the next 2 minutes.
    let b3 = press(&mut clock, 161_500, Color::Black);
    assert_eq!((b3.left.period_ms, b3.left.moves_left), (20_500, Some(1)));
    assert_eq!(
        (b3.after.period_ms, b3.after.moves_left),
        (140_500, Some(3))
    );
    assert_eq!(clock.ledger(Color::Black).bonus_ms, 120_000);
    let show = clock.show(at(161_500));
    assert_eq!((show.black_ms, show.black_periods), (140_500, 3));
    assert_eq!((show.white_ms, show.white_periods), (60_000 - 2_000, 3));
}

#[test]
fn canadian_flag_falls_when_the_block_runs_out() {
    let mut clock = build_clock("canadian:main=1m,moves=3,block=2m");
    assert_eq!(clock.poll_timeout(), Some(at(60_000)));
    let started = clock.handle_timeout(at(60_000));
    assert_eq!(
        started,
        vec![ClockEvent::OvertimeStarted {
            side: Color::Black,
            at: at(60_000),
            periods: 0,
            moves: Some(3)
        }]
    );
    assert_eq!(clock.poll_timeout(), Some(at(180_000)));
    let fall = clock.handle_timeout(at(180_000));
    assert_eq!(
        fall,
        vec![ClockEvent::FlagFall {
            side: Color::Black,
            at: at(180_000),
            article: "CN2002 12.5".into()
        }]
    );
}

#[test]
fn fischer_adds_the_increment_up_to_the_cap() {
    let mut clock = build_clock("fischer:main=1m,increment=10s,max=75s");
    let b1 = press(&mut clock, 3_000, Color::Black);
    assert_eq!((b1.left.main_ms, b1.after.main_ms), (57_000, 67_000));
    press(&mut clock, 4_000, Color::White);
    let b2 = press(&mut clock, 5_000, Color::Black);
    assert_eq!((b2.left.main_ms, b2.after.main_ms), (66_000, 75_000));
    assert_eq!(clock.ledger(Color::Black).bonus_ms, 10_000 + 9_000);
    let w = clock.reading(at(5_000)).white;
    assert_eq!(w.main_ms, 69_000);
}

#[test]
fn presses_out_of_turn_or_before_the_start_are_refused() {
    let tc: TimeControl = "absolute:main=5m".parse().unwrap();
    let mut clock = Clock::new(tc);
    assert_eq!(
        clock.complete_move(T0, Color::Black).unwrap_err(),
        ClockError::NotStarted
    );
    assert_eq!(clock.poll_timeout(), None);
    clock.start(T0, Color::Black).unwrap();
    assert_eq!(
        clock.start(T0, Color::White).unwrap_err(),
        ClockError::AlreadyStarted
    );
    let wrong = clock.complete_move(at(10), Color::White).unwrap_err();
    assert_eq!(
        wrong,
        ClockError::NotYourTurn {
            mover: Color::White,
            running: Color::Black
        }
    );
    assert_eq!(clock.reading(at(10)).black.main_ms, 299_990);
}

#[test]
fn a_press_after_an_unhandled_flag_fall_is_refused_and_the_fall_queued() {
    let mut clock = build_clock("byoyomi-cn:main=0s,reserve=1");
    let err = clock.complete_move(at(60_500), Color::Black).unwrap_err();
    assert_eq!(
        err,
        ClockError::FlagFallen {
            side: Color::Black,
            at_ms: at(60_000).0
        }
    );
    let events = clock.handle_timeout(at(60_500));
    assert_eq!(
        events,
        vec![ClockEvent::FlagFall {
            side: Color::Black,
            at: at(60_000),
            article: "CN2002 12.3, 22.5".into()
        }],
        "stale count-out calls are dropped, the flag fall is kept"
    );
}

#[test]
fn reading_serialises_like_api_md() {
    let mut clock = build_clock("byoyomi-cn:main=20m,reserve=5");
    press(&mut clock, 1_200_000 + 19_000 + 60_000, Color::Black);
    let reading = clock.reading(at(1_279_000));
    let json = serde_json::to_value(&reading).unwrap();
    assert_eq!(json["running"], "white");
    assert_eq!(json["black"]["main_ms"], 0);
    assert_eq!(json["black"]["periods"], 4);
    assert_eq!(json["black"]["period_ms"], 60_000);
    assert_eq!(json["white"]["main_ms"], 1_200_000);
    assert_eq!(json["white"]["periods"], 5);
    assert!(json["black"].get("moves_left").is_none());
    assert_eq!(json["time_control"], "byoyomi-cn:main=20m,reserve=5");
    let running = clock.reading(at(1_279_000 + 1_200_000 + 19_000));
    let json = serde_json::to_value(&running).unwrap();
    assert_eq!(json["white"]["main_ms"], 0);
    assert_eq!(json["white"]["period_ms"], 41_000);
    let back: goban_referee::clock::ClockReading = serde_json::from_value(json).unwrap();
    assert_eq!(back, running);
    let show = clock.show(at(1_279_000 + 1_200_000 + 19_000));
    assert_eq!(
        (
            show.black_ms,
            show.white_ms,
            show.black_periods,
            show.white_periods
        ),
        (60_000, 41_000, 4, 5)
    );
    assert_eq!(show.running_letter(), 'W');
}

#[test]
fn no_time_control_only_keeps_who_used_how_much() {
    let mut clock = build_clock("none");
    assert_eq!(clock.poll_timeout(), None);
    let b1 = press(&mut clock, 3_600_000, Color::Black);
    assert_eq!(
        (b1.used_ms, b1.left.main_ms, b1.left.flagged),
        (3_600_000, 0, false)
    );
    press(&mut clock, 3_700_000, Color::White);
    assert!(clock.handle_timeout(at(99_000_000)).is_empty());
    let reading = clock.reading(at(3_700_500));
    assert_eq!(
        (reading.black.used_ms, reading.white.used_ms),
        (3_600_500, 100_000)
    );
    assert_eq!(
        serde_json::to_value(&reading).unwrap()["time_control"],
        "none"
    );
}

#[test]
fn canadian_reading_carries_moves_left() {
    let mut clock = build_clock("canadian:main=0s,moves=2,block=1m");
    press(&mut clock, 10_000, Color::Black);
    let json = serde_json::to_value(clock.reading(at(15_000))).unwrap();
    assert_eq!(json["black"]["moves_left"], 1);
    assert_eq!(json["black"]["period_ms"], 50_000);
    assert_eq!(json["white"]["moves_left"], 2);
    assert_eq!(json["white"]["period_ms"], 55_000);
    assert_eq!(json["running"], "white");
}

#[test]
fn main_time_running_out_mid_move_starts_the_period_there() {
    // 10 s of main time left, a 75 s move: 65 s into byo-yomi uses one minute, keeps the second.
    let mut clock = build_clock("byoyomi-cn:main=10s,reserve=2");
    let b1 = press(&mut clock, 75_000, Color::Black);
    assert_eq!(
        (b1.left.main_ms, b1.left.periods, b1.left.period_ms),
        (0, 1, 55_000)
    );
    assert_eq!((b1.after.periods, b1.after.period_ms), (1, 60_000));
    assert_eq!(clock.ledger(Color::Black).free_ms, 5_000);
}
