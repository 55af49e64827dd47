//! The whole count-out call sequence of CN2002 12.3, with the instant of every call, driven through `poll_timeout` / `handle_timeout`.

use goban_referee::Timestamp;
use goban_referee::clock::{Clock, ClockEvent, Color, CountOutCall, TimeControl};

const T0: Timestamp = Timestamp(1_796_029_200_000);
const SECOND: u64 = 1_000;

fn build_clock(tc: &str, first: Color) -> Clock {
    let tc: TimeControl = tc.parse().expect("valid time control");
    let mut clock = Clock::new(tc);
    clock.start(T0, first).expect("fresh clock starts");
    clock
}

/// Drives the clock the way the daemon does: sleep until `poll_timeout`, then `handle_timeout`.
fn drive_until_stopped(clock: &mut Clock) -> Vec<ClockEvent> {
    let mut all = Vec::new();
    while let Some(deadline) = clock.poll_timeout() {
        let events = clock.handle_timeout(deadline);
        assert!(
            !events.is_empty(),
            "a deadline at {deadline:?} produced nothing"
        );
        assert!(
            events.iter().all(|e| e.at() == deadline),
            "events stamped when due"
        );
        all.extend(events);
    }
    all
}

fn call(side: Color, s: u64, call: CountOutCall) -> ClockEvent {
    ClockEvent::Call {
        side,
        at: T0.plus_ms(s * SECOND),
        call,
    }
}

fn elapsed(side: Color, at_s: u64, seconds: u64) -> ClockEvent {
    call(side, at_s, CountOutCall::Elapsed { seconds })
}

/// The calls of CN2002 12.3 written out from the text, for a byo-yomi starting at `from_s`.
fn build_expected_cn(side: Color, from_s: u64, reserve: u32) -> Vec<ClockEvent> {
    let mut want = Vec::new();
    let mut start = from_s;
    for left in (1..=reserve).rev() {
        if left > 1 {
            // "30秒, 40秒, 50秒, 55秒, 58秒, 1分, 还剩×分"
            for s in [30, 40, 50, 55, 58] {
                want.push(elapsed(side, start + s, s));
            }
            let at = T0.plus_ms((start + 60) * SECOND);
            want.push(ClockEvent::PeriodUsed {
                side,
                at,
                periods_left: left - 1,
            });
        } else {
            // "30秒, 40秒, 50秒, 此后随即以准确的语音逐秒报出: 1, 2, …, 10"
            for s in [30, 40, 50] {
                want.push(elapsed(side, start + s, s));
            }
            for n in 1..=10u8 {
                want.push(call(
                    side,
                    start + 50 + u64::from(n),
                    CountOutCall::Count { n },
                ));
            }
            let at = T0.plus_ms((start + 60) * SECOND);
            want.push(ClockEvent::FlagFall {
                side,
                at,
                article: "CN2002 12.3, 22.5".into(),
            });
        }
        start += 60;
    }
    want
}

#[test]
fn a_whole_byo_yomi_is_counted_out_as_cn2002_12_3_writes_it() {
    let mut clock = build_clock("byoyomi-cn:main=1m,reserve=3", Color::Black);
    let got = drive_until_stopped(&mut clock);
    let mut want = vec![ClockEvent::OvertimeStarted {
        side: Color::Black,
        at: T0.plus_ms(60 * SECOND),
        periods: 3,
        moves: None,
    }];
    want.extend(build_expected_cn(Color::Black, 60, 3));
    assert_eq!(got, want);
    // 1 overtime + 2 × (5 calls + "N left") + 3 calls + ten counts + the flag.
    assert_eq!(got.len(), 1 + 2 * 6 + 3 + 10 + 1);
    assert_eq!(clock.flag_fallen(), Some(Color::Black));
    let black = clock.reading(T0.plus_ms(1_000 * SECOND)).black;
    assert_eq!(
        (black.main_ms, black.periods, black.period_ms, black.flagged),
        (0, 0, 0, true)
    );
    assert_eq!(black.used_ms, 240 * SECOND);
}

#[test]
fn one_late_handle_gives_every_call_in_order_with_its_own_instant() {
    let mut clock = build_clock("byoyomi-cn:main=1m,reserve=3", Color::White);
    let got = clock.handle_timeout(T0.plus_ms(10_000 * SECOND));
    let mut want = vec![ClockEvent::OvertimeStarted {
        side: Color::White,
        at: T0.plus_ms(60 * SECOND),
        periods: 3,
        moves: None,
    }];
    want.extend(build_expected_cn(Color::White, 60, 3));
    assert_eq!(got, want);
    assert!(clock.handle_timeout(T0.plus_ms(20_000 * SECOND)).is_empty());
}

#[test]
fn a_move_within_the_minute_restarts_the_count_for_the_next_move() {
    let mut clock = build_clock("byoyomi-cn:main=0s,reserve=2", Color::Black);
    let first = clock.handle_timeout(T0.plus_ms(45 * SECOND));
    assert_eq!(
        first,
        vec![elapsed(Color::Black, 30, 30), elapsed(Color::Black, 40, 40)]
    );
    clock
        .complete_move(T0.plus_ms(45 * SECOND), Color::Black)
        .unwrap();
    // White's count starts at its own press instant.
    assert_eq!(clock.poll_timeout(), Some(T0.plus_ms(75 * SECOND)));
    clock
        .complete_move(T0.plus_ms(50 * SECOND), Color::White)
        .unwrap();
    // Black's minute is whole again: the first call is 30 s after White's press.
    assert_eq!(clock.poll_timeout(), Some(T0.plus_ms(80 * SECOND)));
    let got = clock.handle_timeout(T0.plus_ms(110 * SECOND));
    let want = vec![
        elapsed(Color::Black, 80, 30),
        elapsed(Color::Black, 90, 40),
        elapsed(Color::Black, 100, 50),
        elapsed(Color::Black, 105, 55),
        elapsed(Color::Black, 108, 58),
        ClockEvent::PeriodUsed {
            side: Color::Black,
            at: T0.plus_ms(110 * SECOND),
            periods_left: 1,
        },
    ];
    assert_eq!(got, want);
}

#[test]
fn pausing_holds_the_count_and_resuming_shifts_it() {
    let mut clock = build_clock("byoyomi-cn:main=0s,reserve=1", Color::Black);
    assert_eq!(
        clock.handle_timeout(T0.plus_ms(35 * SECOND)),
        vec![elapsed(Color::Black, 30, 30)]
    );
    clock.pause(T0.plus_ms(35 * SECOND)).unwrap();
    assert_eq!(clock.poll_timeout(), None);
    assert!(clock.handle_timeout(T0.plus_ms(500 * SECOND)).is_empty());
    clock.resume(T0.plus_ms(600 * SECOND)).unwrap();
    // 40 s of the minute falls 5 s after resuming.
    assert_eq!(clock.poll_timeout(), Some(T0.plus_ms(605 * SECOND)));
    let got = drive_until_stopped(&mut clock);
    assert_eq!(got.len(), 2 + 10 + 1);
    assert_eq!(got[0], elapsed(Color::Black, 605, 40));
    assert_eq!(
        got[2],
        call(Color::Black, 616, CountOutCall::Count { n: 1 })
    );
    assert_eq!(got[12].at(), T0.plus_ms(625 * SECOND));
    assert!(matches!(got[12], ClockEvent::FlagFall { .. }));
}

#[test]
fn thirty_second_fast_periods_follow_the_same_principle() {
    let mut clock = build_clock("byoyomi-cn:main=0s,reserve=2,period=30s", Color::Black);
    let got = drive_until_stopped(&mut clock);
    let mut want: Vec<ClockEvent> = [10, 20, 25, 28].map(|s| elapsed(Color::Black, s, s)).into();
    want.push(ClockEvent::PeriodUsed {
        side: Color::Black,
        at: T0.plus_ms(30 * SECOND),
        periods_left: 1,
    });
    want.extend([10, 20].map(|s| elapsed(Color::Black, 30 + s, s)));
    want.extend(
        (1..=10u8).map(|n| call(Color::Black, 50 + u64::from(n), CountOutCall::Count { n })),
    );
    want.push(ClockEvent::FlagFall {
        side: Color::Black,
        at: T0.plus_ms(60 * SECOND),
        article: "CN2002 12.3, 22.5".into(),
    });
    assert_eq!(got, want);
}

#[test]
fn ten_second_fast_periods_count_every_second_in_the_last() {
    let mut clock = build_clock("byoyomi-cn:main=0s,reserve=1,period=10s", Color::White);
    let got = drive_until_stopped(&mut clock);
    let counts: Vec<_> = got
        .iter()
        .filter(|e| e.is_call())
        .map(|e| e.at().ms_since(T0))
        .collect();
    assert_eq!(counts, (1..=10).map(|s| s * SECOND).collect::<Vec<_>>());
    assert!(matches!(
        got.last(),
        Some(ClockEvent::FlagFall {
            side: Color::White,
            ..
        })
    ));
}
