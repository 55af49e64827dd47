//! The hall's disturbances as scenarios: each builds, per game, a profile, a fault script, the ports' wiring and what is expected.

use goban_hardware::sim::{ChatterAt, Device, Fault, FaultScript, HumanProfile, ScriptStep};
use goban_referee::InfractionKind;
use rand::Rng;
use rand::rngs::SmallRng;

use crate::hall::Wiring;

/// What one game of a scenario is played with.
pub(crate) struct Plan {
    pub(crate) profile: HumanProfile,
    pub(crate) script: FaultScript,
    pub(crate) wiring: Wiring,
    /// Staged alerts that are not false, by kind.
    pub(crate) staged: Vec<(InfractionKind, usize)>,
    /// How many times the board cannot see for a while (unplugged, chattering, joins late):
    /// each spell may leave moves it cannot explain, asked about once.
    pub(crate) blind_spells: usize,
    /// The board is plugged in only after this many presses.
    pub(crate) board_joins_after: Option<usize>,
    /// The timing signatures of issue 39, applied to the game's cues (`signatures.rs`).
    pub(crate) signatures: crate::signatures::Signatures,
}

/// A session of three games on the same board.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Series {
    /// The players clear the board before the arbiter starts the next game.
    pub(crate) cleared: bool,
    /// The second game has a handicap.
    pub(crate) handicap: bool,
}

/// Builds a game's plan from the RNG and the game's number of moves.
pub(crate) type Build = Box<dyn Fn(&mut SmallRng, usize) -> Plan>;

/// A named scenario.
pub(crate) struct Scenario {
    pub(crate) name: String,
    /// Single games from the handicap games rather than the even ones.
    pub(crate) handicap: bool,
    pub(crate) series: Option<Series>,
    /// Games played at least, whatever `GOBAN_STRESS_GAMES` says: the hardest scenarios
    /// (fights at blitz pace, chattering sensors) are cheap and need many games to show a
    /// rare misreading (issue 15).
    pub(crate) min_games: usize,
    pub(crate) build: Build,
}

/// Games of the hardest scenarios, at least.
const HARD_GAMES: usize = 12;

/// The demo's speed factor.
const DEMO: f64 = 4.0;

fn demo() -> HumanProfile {
    HumanProfile {
        speed: DEMO,
        ..HumanProfile::default()
    }
}

fn plan(profile: HumanProfile) -> Plan {
    Plan {
        profile,
        script: FaultScript::default(),
        wiring: Wiring::default(),
        staged: Vec::new(),
        blind_spells: 0,
        board_joins_after: None,
        signatures: crate::signatures::Signatures::default(),
    }
}

/// `count` moves spread over the game, at least 15 apart, away from both ends.
fn moves_for(rng: &mut SmallRng, moves: usize, count: usize) -> Vec<u32> {
    let span = moves.saturating_sub(30).max(1) / count.max(1);
    (0..count)
        .map(|i| {
            let lo = 10 + i * span;
            u32::try_from(rng.random_range(lo..lo + span.max(1))).unwrap_or(10)
        })
        .collect()
}

fn script(steps: Vec<(u32, Fault)>) -> FaultScript {
    FaultScript {
        steps: steps
            .into_iter()
            .map(|(at_move, fault)| ScriptStep { at_move, fault })
            .collect(),
    }
}

fn scenario(name: &str, build: impl Fn(&mut SmallRng, usize) -> Plan + 'static) -> Scenario {
    Scenario {
        name: name.to_owned(),
        handicap: false,
        series: None,
        min_games: 0,
        build: Box::new(build),
    }
}

/// A fast profile: the whole move, press included, takes about `ms` of real time.
fn pace(ms: f64) -> HumanProfile {
    // Gestures take about 700 ms of real time before the speed factor (hover, place, press).
    let speed = (700.0 / (ms * 0.42)).max(1.0);
    HumanProfile {
        speed,
        think_median_ms: ms * speed * 0.3,
        min_think_ms: ms * speed * 0.2,
        min_reply_ms: (ms * 0.35) as u64,
        min_press_ms: (ms * 0.2) as u64,
        ..HumanProfile::default()
    }
}

fn pace_scenarios() -> Vec<Scenario> {
    let mut out: Vec<Scenario> = [250.0, 500.0, 1_000.0]
        .into_iter()
        .map(|ms| Scenario {
            min_games: if ms < 300.0 { HARD_GAMES } else { 0 },
            ..scenario(&format!("pace {:.2} s/move", ms / 1_000.0), move |_, _| {
                plan(pace(ms))
            })
        })
        .collect();
    out.push(scenario("pace human (8 s median)", |_, _| {
        plan(HumanProfile::default())
    }));
    out.push(Scenario {
        handicap: true,
        ..scenario("handicap game, demo pace", |_, _| plan(demo()))
    });
    for share in [0.10, 0.35] {
        out.push(scenario(
            &format!("instant replies {:.0}%", share * 100.0),
            move |_, _| {
                plan(HumanProfile {
                    instant_reply_chance: share,
                    ..demo()
                })
            },
        ));
    }
    out
}

fn device_scenarios() -> Vec<Scenario> {
    let unplug = |device: Device| {
        move |rng: &mut SmallRng, moves: usize| {
            let steps: Vec<(u32, Fault)> = moves_for(rng, moves, 2)
                .into_iter()
                .map(|n| {
                    let down_ms = rng.random_range(1_000..=10_000);
                    (n, Fault::Unplug { device, down_ms })
                })
                .collect();
            Plan {
                blind_spells: steps.len(),
                script: script(steps),
                // About 3 s a move: 0 to 3 moves are made while it is unplugged.
                ..plan(HumanProfile {
                    speed: 3.0,
                    ..HumanProfile::default()
                })
            }
        }
    };
    let chatter = |on: ChatterAt| {
        move |rng: &mut SmallRng, moves: usize| {
            let steps: Vec<(u32, Fault)> = moves_for(rng, moves, 2)
                .into_iter()
                .map(|n| {
                    let hz = rng.random_range(2..=10);
                    let duration_ms = rng.random_range(5_000..=30_000);
                    (
                        n,
                        Fault::Chatter {
                            on,
                            hz,
                            duration_ms,
                        },
                    )
                })
                .collect();
            Plan {
                blind_spells: steps.len(),
                script: script(steps),
                ..plan(demo())
            }
        }
    };
    vec![
        scenario("board unplugged 1-10 s", unplug(Device::Board)),
        scenario("clock unplugged 1-10 s", unplug(Device::Clock)),
        Scenario {
            min_games: HARD_GAMES,
            ..scenario(
                "chatter 2-10 Hz 5-30 s, empty point",
                chatter(ChatterAt::Empty),
            )
        },
        Scenario {
            min_games: HARD_GAMES,
            ..scenario(
                "chatter 2-10 Hz 5-30 s, on a stone",
                chatter(ChatterAt::Stone),
            )
        },
        Scenario {
            min_games: HARD_GAMES,
            ..scenario(
                "chatter 2-10 Hz 5-30 s, next to move",
                chatter(ChatterAt::NextToMove),
            )
        },
        scenario("board joins mid-game", |rng, _| Plan {
            blind_spells: 1,
            board_joins_after: Some(rng.random_range(5..40)),
            ..plan(demo())
        }),
    ]
}

fn correction_scenarios() -> Vec<Scenario> {
    let corrected = |kind: InfractionKind| {
        move |rng: &mut SmallRng, moves: usize| {
            let at = moves_for(rng, moves, 2);
            let steps: Vec<(u32, Fault)> = at
                .iter()
                .map(|&n| {
                    let corrected_ms = Some(rng.random_range(300..=3_000));
                    let fault = match kind {
                        InfractionKind::DoubleMove => Fault::DoubleMove { corrected_ms },
                        InfractionKind::Takeback => Fault::Takeback { corrected_ms },
                        _ => Fault::DisplacedStones { corrected_ms },
                    };
                    (n, fault)
                })
                .collect();
            Plan {
                staged: vec![(kind, steps.len())],
                script: script(steps),
                ..plan(demo())
            }
        }
    };
    vec![
        scenario(
            "double move corrected 0.3-3 s",
            corrected(InfractionKind::DoubleMove),
        ),
        scenario(
            "takeback corrected 0.3-3 s",
            corrected(InfractionKind::Takeback),
        ),
        scenario(
            "displaced stone corrected 0.3-3 s",
            corrected(InfractionKind::DisplacedStones),
        ),
    ]
}

fn skew_scenarios() -> Vec<Scenario> {
    let mut out = Vec::new();
    // v1 devices on a lagging port with the default `port_skew`: the referee measures the lag
    // from play and raises one `port_lag` device alert instead of premature presses (39.5).
    for skew_ms in [150_i64, 250] {
        out.push(scenario(
            &format!("skew board {skew_ms:+} ms, default port_skew, lag measured"),
            move |_, _| Plan {
                wiring: Wiring {
                    skew_ms,
                    sync: false,
                    port_skew_ms: None,
                },
                ..plan(HumanProfile {
                    instant_reply_chance: 0.2,
                    ..demo()
                })
            },
        ));
    }
    for sync in [false, true] {
        for skew_ms in [-250_i64, -100, 100, 150, 200, 250] {
            // v1 devices on a port lagging more than honest play absorbs (~100 ms): the
            // operator sets `[referee] port_skew` to the lag plus a margin (docs/referee.md "Skew").
            let window = (!sync && skew_ms > 100).then(|| skew_ms.unsigned_abs() + 50);
            let name = format!(
                "skew board {skew_ms:+} ms{}",
                match window {
                    _ if sync => ", SYNC".to_owned(),
                    Some(w) => format!(", window {w} ms"),
                    None => String::new(),
                }
            );
            out.push(scenario(&name, move |_, _| Plan {
                wiring: Wiring {
                    skew_ms,
                    sync,
                    port_skew_ms: window,
                },
                ..plan(HumanProfile {
                    instant_reply_chance: 0.2,
                    ..demo()
                })
            }));
        }
    }
    out
}

fn series_scenarios() -> Vec<Scenario> {
    let mut out = Vec::new();
    for handicap in [false, true] {
        for cleared in [true, false] {
            let name = format!(
                "3 games, {}{}",
                if cleared { "cleared" } else { "not cleared" },
                if handicap { ", 2nd handicap" } else { "" }
            );
            out.push(Scenario {
                name,
                handicap: false,
                series: Some(Series { cleared, handicap }),
                min_games: 0,
                build: Box::new(|_, _| plan(demo())),
            });
        }
    }
    out
}

/// The order of play as the hall met it (issue 39): each signature at blitz and demo pace.
fn order_scenarios() -> Vec<Scenario> {
    use crate::signatures::Signatures;
    let with = |profile: HumanProfile, signatures: Signatures| Plan {
        signatures,
        ..plan(profile)
    };
    let flicker = Signatures {
        newest_flicker: 0.3,
        ..Signatures::default()
    };
    let tie = Signatures {
        tie: 0.3,
        ..Signatures::default()
    };
    vec![
        Scenario {
            min_games: HARD_GAMES,
            ..scenario(
                "newest stone flickers as the reply lands, 0.25 s/move",
                move |_, _| with(pace(250.0), flicker),
            )
        },
        scenario(
            "newest stone flickers as the reply lands, demo pace",
            move |_, _| with(demo(), flicker),
        ),
        scenario(
            "stone and press in one millisecond, 0.5 s/move",
            move |_, _| with(pace(500.0), tie),
        ),
        scenario(
            "stone and press in one millisecond, demo pace",
            move |_, _| with(demo(), tie),
        ),
        scenario(
            "double move pressed, the arbiter removes it",
            |rng, moves| {
                let steps: Vec<(u32, Fault)> = moves_for(rng, moves, 2)
                    .into_iter()
                    .map(|n| (n, Fault::DoubleMove { corrected_ms: None }))
                    .collect();
                Plan {
                    staged: vec![(InfractionKind::DoubleMove, steps.len())],
                    script: script(steps),
                    ..plan(demo())
                }
            },
        ),
        scenario("first move before the board is read", |_, _| Plan {
            board_joins_after: Some(0),
            ..plan(demo())
        }),
        scenario("two moves before the board is read", |_, _| Plan {
            board_joins_after: Some(1),
            ..plan(demo())
        }),
        scenario("host away 30-100 s, human pace", move |rng, moves| {
            let after = rng.random_range(10..(moves / 2).max(11));
            let down_ms = rng.random_range(30_000..=100_000);
            Plan {
                blind_spells: 1,
                ..with(
                    HumanProfile::default(),
                    Signatures {
                        host_away: Some((after, down_ms)),
                        ..Signatures::default()
                    },
                )
            }
        }),
        scenario("host away 5-20 s, demo pace", move |rng, moves| {
            let after = rng.random_range(10..(moves / 2).max(11));
            let down_ms = rng.random_range(5_000..=20_000);
            Plan {
                blind_spells: 1,
                ..with(
                    demo(),
                    Signatures {
                        host_away: Some((after, down_ms)),
                        ..Signatures::default()
                    },
                )
            }
        }),
    ]
}

/// Every scenario of the suite, in table order.
pub(crate) fn all() -> Vec<Scenario> {
    let mut out = pace_scenarios();
    out.extend(order_scenarios());
    out.extend(device_scenarios());
    out.extend(correction_scenarios());
    out.extend(skew_scenarios());
    out.extend(series_scenarios());
    out
}
