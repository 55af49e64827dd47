//! Random input storms: the referee never panics, refuses bad input cleanly and stays deterministic.

mod common;

use goban_referee::{
    ArbiterCommand, Button, ClockKey, Device, GameSetup, InfractionId, Input, PointChange, Reading,
    Referee, RefereeConfig, RulingAction, Timestamp,
};
use goban_rules::Color;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn random_input(rng: &mut SmallRng, points: u16) -> Input {
    let reading = |rng: &mut SmallRng| {
        [
            Reading::Empty,
            Reading::Black,
            Reading::White,
            Reading::Unknown,
        ][rng.random_range(0..4)]
    };
    match rng.random_range(0..100) {
        0..=59 => {
            let n = rng.random_range(1..4);
            let changes = (0..n)
                .map(|_| PointChange {
                    index: rng.random_range(0..points + 3),
                    state: reading(rng),
                })
                .collect();
            Input::BoardDiff { changes }
        }
        60..=64 => Input::BoardSnapshot {
            points: (0..points).map(|_| reading(rng).to_char()).collect(),
        },
        65..=74 => Input::ClockPress {
            button: if rng.random_bool(0.5) {
                Button::L
            } else {
                Button::R
            },
        },
        75..=77 => {
            let keys = [
                ClockKey::Pause,
                ClockKey::Resume,
                ClockKey::DoneL,
                ClockKey::DoneR,
                ClockKey::ResignL,
            ];
            Input::ClockKey {
                key: keys[rng.random_range(0..keys.len())],
            }
        }
        78..=79 => Input::BoardGap,
        80 => Input::DeviceDisconnected {
            device: Device::Board,
        },
        81 => Input::DeviceConnected {
            device: Device::Board,
        },
        82..=89 => Input::Timeout,
        _ => Input::Arbiter(random_command(rng)),
    }
}

fn random_command(rng: &mut SmallRng) -> ArbiterCommand {
    let color = if rng.random_bool(0.5) {
        Color::Black
    } else {
        Color::White
    };
    match rng.random_range(0..11) {
        0 => ArbiterCommand::StartGame(GameSetup {
            time_control: Some("byoyomi-jp:main=10s,periods=2,period=5s".parse().unwrap()),
            ..GameSetup::default()
        }),
        1 => ArbiterCommand::Ruling {
            id: InfractionId(format!("board-1/{}", rng.random_range(1..4))),
            action: [
                RulingAction::Confirm,
                RulingAction::Sanction,
                RulingAction::Dismiss,
                RulingAction::Convert,
            ][rng.random_range(0..4)],
            note: String::new(),
        },
        2 => ArbiterCommand::Pause,
        3 => ArbiterCommand::Resume,
        4 => ArbiterCommand::AdjustClock {
            color,
            delta_ms: rng.random_range(-20_000..20_000),
            by: "a".into(),
        },
        5 => ArbiterCommand::MarkDead {
            points: vec!["C3".into(), "Q16".into()],
            dead: rng.random_bool(0.5),
        },
        6 => ArbiterCommand::ConfirmResult,
        7 => ArbiterCommand::VoidMove {
            number: rng.random_range(0..5),
        },
        8 => ArbiterCommand::RestoreMove {
            number: rng.random_range(0..5),
        },
        9 => ArbiterCommand::MarkSeki {
            points: vec!["C3".into()],
            ruling: [
                Some(goban_rules::score::SekiRuling::InSeki),
                Some(goban_rules::score::SekiRuling::NotInSeki),
                None,
            ][rng.random_range(0..3)],
        },
        _ => ArbiterCommand::LateStart {
            color,
            absent_ms: rng.random_range(0..2_000_000),
        },
    }
}

fn run(seed: u64, config: &RefereeConfig) -> Vec<String> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut r = Referee::new(config.clone()).unwrap();
    let mut now = Timestamp(common::table::T0);
    let mut out = Vec::new();
    r.handle(
        now,
        Input::Arbiter(ArbiterCommand::StartGame(GameSetup::default())),
    )
    .unwrap();
    for _ in 0..400 {
        now = now.plus_ms(rng.random_range(0..700));
        let input = random_input(&mut rng, 81);
        let answer = r.handle(now, input);
        out.push(format!("{:?}", answer.map_err(|e| e.to_string())));
        while let Some(e) = r.poll_event() {
            out.push(serde_json::to_string(&e).unwrap());
        }
        while let Some(c) = r.poll_device_command() {
            out.push(format!("{c:?}"));
        }
    }
    r.sgf().expect("the SGF after any inputs");
    out.push(serde_json::to_string(&r.state()).unwrap());
    out
}

#[test]
fn random_input_storms_never_panic_and_replay_identically() {
    for seed in 0..40 {
        let config = if seed % 2 == 0 {
            RefereeConfig {
                size: 9,
                ..RefereeConfig::default()
            }
        } else {
            RefereeConfig {
                size: 9,
                ..RefereeConfig::default()
            }
            .with_all_sanctions()
        };
        let first = run(seed, &config);
        let second = run(seed, &config);
        assert_eq!(first, second, "seed {seed}");
    }
}
