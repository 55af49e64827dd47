//! Any sequence of presses and arbiter commands, with extreme time controls: no panic, and the clock's invariants hold.

use goban_referee::Timestamp;
use goban_referee::clock::{Clock, Color, Millis, TimeControl, Venue};
use proptest::prelude::*;

const T0: Timestamp = Timestamp(1_796_029_200_000);

#[derive(Clone, Copy, Debug)]
enum Op {
    Press(Color),
    Pause,
    Resume,
    Adjust(Color, i64),
    Late(Color, u64),
    Convert(Color),
    Handle,
}

fn colors() -> impl Strategy<Value = Color> {
    prop_oneof![Just(Color::Black), Just(Color::White)]
}

fn ops() -> impl Strategy<Value = Vec<(Op, u64)>> {
    let op = prop_oneof![
        6 => colors().prop_map(Op::Press),
        1 => Just(Op::Pause),
        1 => Just(Op::Resume),
        1 => (colors(), -400_000i64..400_000).prop_map(|(c, d)| Op::Adjust(c, d)),
        1 => (colors(), 0u64..4_000_000).prop_map(|(c, a)| Op::Late(c, a)),
        1 => colors().prop_map(Op::Convert),
        2 => Just(Op::Handle),
    ];
    proptest::collection::vec((op, 0u64..120_000), 1..80)
}

fn time_controls() -> impl Strategy<Value = TimeControl> {
    let any_ms = prop_oneof![0u64..200_000, Just(u64::MAX), Just(u64::MAX / 2)].prop_map(Millis);
    let positive = prop_oneof![1u64..200_000, Just(u64::MAX)].prop_map(Millis);
    let period = (1_000u64..90_000).prop_map(Millis);
    let count = 1u32..6;
    prop_oneof![
        Just(TimeControl::None),
        positive
            .clone()
            .prop_map(|main| TimeControl::Absolute { main }),
        (any_ms.clone(), count.clone(), period.clone()).prop_map(|(main, reserve, period)| {
            TimeControl::ByoyomiCn {
                main,
                reserve,
                period,
            }
        }),
        (any_ms.clone(), count.clone(), period.clone()).prop_map(|(main, periods, period)| {
            TimeControl::ByoyomiJp {
                main,
                periods,
                period,
            }
        }),
        (any_ms, count, period).prop_map(|(main, moves, block)| TimeControl::Canadian {
            main,
            moves,
            block
        }),
        (
            positive,
            any::<u64>(),
            proptest::option::of(Just(Millis(u64::MAX)))
        )
            .prop_map(|(main, inc, max)| TimeControl::Fischer {
                main,
                increment: Millis(inc),
                max
            }),
    ]
}

fn apply(clock: &mut Clock, op: Op, now: Timestamp) {
    // Refusals are fine; only panics and broken invariants fail.
    let _ = match op {
        Op::Press(c) => clock.complete_move(now, c).map(drop),
        Op::Pause => clock.pause(now),
        Op::Resume => clock.resume(now),
        Op::Adjust(c, d) => clock.adjust(now, c, d, "prop".into()).map(drop),
        Op::Late(c, a) => clock.late_start(now, c, a).map(drop),
        Op::Convert(c) => clock.convert_forfeit_to_pass(now, c),
        Op::Handle => {
            clock.handle_timeout(now);
            Ok(())
        }
    };
}

fn check_invariants(clock: &mut Clock, now: Timestamp, used_before: &mut [u64; 2]) {
    let reading = clock.reading(now);
    if let Some(fallen) = clock.flag_fallen() {
        assert!(reading.side(fallen).flagged, "a fallen flag shows");
        assert_eq!(reading.running, None, "the clocks stand on a flag fall");
    }
    if reading.running.is_some() {
        assert!(!reading.paused);
    }
    for side in Color::BOTH {
        let used = reading.side(side).used_ms;
        assert!(
            used >= used_before[side.index()],
            "{side}'s used time never shrinks"
        );
        used_before[side.index()] = used;
    }
    let events = clock.handle_timeout(now);
    assert!(
        events.windows(2).all(|w| w[0].at() <= w[1].at()),
        "{events:?}"
    );
    assert!(
        events.iter().all(|e| e.at() <= now),
        "nothing handled early"
    );
    if let Some(next) = clock.poll_timeout() {
        assert!(
            next > now,
            "after handling at {now:?} nothing is still due ({next:?})"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn any_commands_keep_the_clock_consistent(
        tc in time_controls(),
        script in ops(),
        separate in any::<bool>(),
        first in colors(),
    ) {
        let venue = if separate { Venue::Separate } else { Venue::SameSite };
        let mut clock = Clock::new(tc).with_venue(venue);
        clock.start(T0, first).unwrap();
        let mut now = T0;
        let mut used = [0u64; 2];
        for (op, gap) in script {
            now = now.plus_ms(gap);
            apply(&mut clock, op, now);
            check_invariants(&mut clock, now, &mut used);
        }
    }
}
