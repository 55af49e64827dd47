//! Property tests of the clock: time is conserved (everything the clock ran is charged or free), events come in order, replay is identical.

use goban_referee::Timestamp;
use goban_referee::clock::{
    Clock, ClockError, ClockEvent, Color, Millis, MoveTime, SideReading, TimeControl,
};
use proptest::prelude::*;

const T0: Timestamp = Timestamp(1_796_029_200_000);

#[derive(Clone, Copy, Debug)]
enum Action {
    Press,
    Pause,
    Resume,
    Look,
}

fn time_controls() -> impl Strategy<Value = TimeControl> {
    let secs = |lo: u64, hi: u64| (lo..=hi).prop_map(Millis::seconds);
    let period = prop_oneof![Just(10u64), Just(30), Just(60)].prop_map(Millis::seconds);
    prop_oneof![
        secs(1, 120).prop_map(|main| TimeControl::Absolute { main }),
        (secs(0, 60), 1u32..4, period.clone()).prop_map(|(main, reserve, period)| {
            TimeControl::ByoyomiCn {
                main,
                reserve,
                period,
            }
        }),
        (secs(0, 60), 1u32..4, period).prop_map(|(main, periods, period)| TimeControl::ByoyomiJp {
            main,
            periods,
            period
        }),
        (secs(0, 60), 1u32..5, secs(5, 60))
            .prop_map(|(main, moves, block)| TimeControl::Canadian { main, moves, block }),
        (secs(1, 60), secs(0, 10), proptest::option::of(secs(60, 90))).prop_map(
            |(main, increment, max)| TimeControl::Fischer {
                main,
                increment,
                max
            }
        ),
    ]
}

fn actions() -> impl Strategy<Value = Vec<(Action, u64)>> {
    let action = prop_oneof![
        6 => Just(Action::Press),
        1 => Just(Action::Pause),
        1 => Just(Action::Resume),
        1 => Just(Action::Look),
    ];
    proptest::collection::vec((action, 0u64..90_000), 1..60)
}

/// What the test itself knows: how long each side's clock should have run.
#[derive(Default)]
struct Truth {
    run: [u64; 2],
    /// Time the current turn has run in earlier stretches (before a pause).
    turn_before: u64,
    stretch_from: Option<Timestamp>,
    paused: bool,
}

/// The clock's time accounts for one side must add up to what it ran.
fn check_conservation(tc: &TimeControl, clock: &Clock, side: Color, r: &SideReading) {
    let ledger = clock.ledger(side);
    let main0 = tc.main().as_ms();
    let spent_main = main0 + ledger.bonus_ms - r.main_ms;
    let charged = match *tc {
        TimeControl::ByoyomiCn {
            reserve: n, period, ..
        }
        | TimeControl::ByoyomiJp {
            periods: n, period, ..
        } => {
            let p = period.as_ms();
            let partial = if r.flagged { 0 } else { p - r.period_ms };
            (main0 - r.main_ms) + u64::from(n - r.periods) * p + ledger.free_ms + partial
        }
        TimeControl::Canadian { block, .. } => {
            (main0 - r.main_ms) + block.as_ms() + ledger.bonus_ms - r.period_ms
        }
        TimeControl::None => r.used_ms,
        TimeControl::Absolute { .. } | TimeControl::Fischer { .. } => spent_main,
    };
    assert_eq!(r.used_ms, charged, "{side} under {tc}: {r:?} {ledger:?}");
}

/// Runs the script; returns everything observable, for the replay check.
fn run(tc: TimeControl, script: &[(Action, u64)], drive: bool) -> Vec<String> {
    let mut clock = Clock::new(tc);
    clock.start(T0, Color::Black).unwrap();
    let mut truth = Truth {
        stretch_from: Some(T0),
        ..Truth::default()
    };
    let mut seen = Vec::new();
    let mut events: Vec<ClockEvent> = Vec::new();
    let mut now = T0;
    // Each side's clock when its current or next turn begins.
    let mut starts = [clock.reading(T0).black, clock.reading(T0).white];
    for (action, gap) in script {
        now = now.plus_ms(*gap);
        if drive {
            while let Some(deadline) = clock.poll_timeout().filter(|d| *d <= now) {
                events.extend(clock.handle_timeout(deadline));
            }
        }
        let to_move = clock.reading(now).to_move.unwrap();
        let turn_ms = truth.turn_before + truth.stretch_from.map_or(0, |from| now.ms_since(from));
        let outcome = match action {
            Action::Press => clock.complete_move(now, to_move).map(|m| {
                assert_eq!(m.used_ms, turn_ms, "the move took what the test timed");
                check_press_model(&tc, &starts[to_move.index()], &m);
                starts[to_move.index()] = m.after;
                format!("{m:?}")
            }),
            Action::Pause => clock.pause(now).map(|()| "paused".into()),
            Action::Resume => clock.resume(now).map(|()| "resumed".into()),
            Action::Look => Ok(format!("{:?}", clock.show(now))),
        };
        account(&mut truth, *action, &outcome, to_move, now);
        events.extend(clock.handle_timeout(now));
        if let Some(ClockEvent::FlagFall { side, at, .. }) =
            events.last().filter(|_| truth.stretch_from.is_some())
        {
            truth.run[side.index()] += at.ms_since(truth.stretch_from.take().unwrap());
        }
        let reading = clock.reading(now);
        for side in Color::BOTH {
            let r = reading.side(side);
            let live = truth
                .stretch_from
                .filter(|_| side == to_move)
                .map_or(0, |from| now.ms_since(from));
            assert_eq!(r.used_ms, truth.run[side.index()] + live, "{side} ran");
            check_conservation(&tc, &clock, side, r);
        }
        seen.push(format!("{outcome:?} {reading:?}"));
    }
    check_events(&events, &clock, now);
    seen.extend(events.iter().map(|e| format!("{e:?}")));
    seen
}

/// An independent model of one move under each system, from the texts.
fn check_press_model(tc: &TimeControl, start: &SideReading, m: &MoveTime) {
    let e = m.used_ms;
    let (left, after) = (&m.left, &m.after);
    if e < start.main_ms {
        assert_eq!(left.main_ms, start.main_ms - e, "main time runs down");
    } else {
        assert_eq!(left.main_ms, 0);
    }
    let r = e.saturating_sub(start.main_ms);
    match *tc {
        TimeControl::ByoyomiCn { period, .. } | TimeControl::ByoyomiJp { period, .. }
            if e >= start.main_ms =>
        {
            // Each full period costs one (CN2002 12.3); the move keeps the one it is made in.
            let p = period.as_ms();
            assert_eq!(start.period_ms, p, "turns start with a whole period");
            assert_eq!(u64::from(start.periods - left.periods), r / p);
            assert_eq!(left.period_ms, p - r % p);
            assert_eq!((after.periods, after.period_ms), (left.periods, p));
        }
        TimeControl::Canadian { moves, block, .. } if e >= start.main_ms => {
            assert_eq!(left.period_ms, start.period_ms - r);
            let to_go = start.moves_left.unwrap_or(moves) - 1;
            let want = if to_go == 0 {
                (moves, left.period_ms + block.as_ms())
            } else {
                (to_go, left.period_ms)
            };
            assert_eq!(
                (after.moves_left.unwrap_or(0), after.period_ms),
                want,
                "CN2002 12.5 carry-over"
            );
        }
        TimeControl::Fischer { increment, max, .. } => {
            let raised = left.main_ms + increment.as_ms();
            let want = max.map_or(raised, |cap| raised.min(cap.as_ms()).max(left.main_ms));
            assert_eq!(after.main_ms, want);
        }
        _ => assert_eq!(
            after,
            &SideReading {
                used_ms: after.used_ms,
                ..*left
            }
        ),
    }
}

/// Keeps the test's own account of running time in step with the script.
fn account(
    truth: &mut Truth,
    action: Action,
    outcome: &Result<String, ClockError>,
    to_move: Color,
    now: Timestamp,
) {
    match (action, outcome) {
        (Action::Press, Ok(_)) | (Action::Pause, Ok(_)) => {
            let from = truth.stretch_from.take().expect("a running stretch");
            truth.run[to_move.index()] += now.ms_since(from);
            truth.paused = matches!(action, Action::Pause);
            truth.turn_before = if truth.paused {
                truth.turn_before + now.ms_since(from)
            } else {
                0
            };
            if !truth.paused {
                truth.stretch_from = Some(now);
            }
        }
        (Action::Resume, Ok(_)) => {
            truth.paused = false;
            truth.stretch_from = Some(now);
        }
        _ => {}
    }
}

fn check_events(events: &[ClockEvent], clock: &Clock, now: Timestamp) {
    assert!(
        events.windows(2).all(|w| w[0].at() <= w[1].at()),
        "events in time order"
    );
    assert!(
        events.iter().all(|e| e.at() <= now),
        "no event from the future"
    );
    let falls: Vec<_> = events
        .iter()
        .filter(|e| matches!(e, ClockEvent::FlagFall { .. }))
        .collect();
    assert!(falls.len() <= 1, "one flag fall at most: {falls:?}");
    assert_eq!(falls.first().map(|e| e.side()), clock.flag_fallen());
    if let Some(fall) = falls.first() {
        assert_eq!(events.last(), Some(*fall), "nothing after a flag fall");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn time_is_conserved_for_random_presses(tc in time_controls(), script in actions(), drive in any::<bool>()) {
        run(tc, &script, drive);
    }

    #[test]
    fn replaying_the_same_inputs_gives_the_same_outputs(tc in time_controls(), script in actions()) {
        prop_assert_eq!(run(tc, &script, true), run(tc, &script, true));
    }

    #[test]
    fn generated_time_controls_print_and_parse_back(tc in time_controls()) {
        let text = tc.to_string();
        prop_assert_eq!(text.parse::<TimeControl>(), Ok(tc));
    }
}
