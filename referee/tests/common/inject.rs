//! Injects one infraction of a given kind into a noisy corpus game, then lets the players restore the board as guided.

use goban_referee::{ArbiterCommand, InfractionKind, Input, Reading, RulingAction};
use goban_rules::{Color, Game, IllegalReason, Move, Point};
use rand::Rng;

use super::corpus::Record;
use super::physical::{Hands, neighbours};
use super::table::{Table, stone};

/// Whether `kind` can be injected before move `i` of `record` (shadow at that point: `game`).
pub fn fits(kind: InfractionKind, game: &Game, record: &Record, i: usize) -> bool {
    let (c, mv) = record.moves[i];
    let Move::Play(x) = mv else { return false };
    match kind {
        InfractionKind::ForbiddenPoint => suicide_point(game, c).is_some(),
        InfractionKind::KoViolation => game.ko_point().is_some_and(|(_, k)| k == c),
        InfractionKind::OccupiedPoint => stones_of(game, c.opponent()).next().is_some(),
        InfractionKind::DoubleMove => i > 0 && free_point(game, c.opponent()).is_some(),
        InfractionKind::WrongColour | InfractionKind::LateStart => i == 0,
        InfractionKind::MissedCapture => game.preview(c, x).is_ok_and(|caps| !caps.is_empty()),
        InfractionKind::WrongCapture => wrong_capture_target(game, c, x).is_some(),
        InfractionKind::PrematurePress => i > 0,
        InfractionKind::Takeback => empty_neighbour(game, x.index()).is_some(),
        InfractionKind::DisplacedStones => movable_stone(game, c).is_some(),
        InfractionKind::BoardDisturbed => game.board().stones().count() >= 8,
        InfractionKind::TimeForfeit => i > 4,
    }
}

fn stones_of(game: &Game, color: Color) -> impl Iterator<Item = Point> + '_ {
    game.board()
        .stones()
        .filter(move |&(_, c)| c == color)
        .map(|(p, _)| p)
}

fn suicide_point(game: &Game, c: Color) -> Option<Point> {
    game.setup()
        .size
        .all_points()
        .find(|&p| game.preview(c, p).map_err(|e| e.reason) == Err(IllegalReason::Suicide))
}

fn free_point(game: &Game, c: Color) -> Option<Point> {
    game.setup()
        .size
        .all_points()
        .find(|&p| game.preview(c, p).is_ok_and(|caps| caps.is_empty()) && is_quiet_point(game, p))
}

/// An empty point with no stone around it, so a stray stone there changes nothing else.
fn is_quiet_point(game: &Game, p: Point) -> bool {
    let size = usize::from(game.setup().size.lines());
    neighbours(p.index(), size)
        .iter()
        .all(|&q| game.board().get(Point(q as u16)).is_none())
}

fn empty_neighbour(game: &Game, x: usize) -> Option<usize> {
    let size = usize::from(game.setup().size.lines());
    neighbours(x, size)
        .into_iter()
        .find(|&q| game.board().get(Point(q as u16)).is_none())
}

/// An opponent stone beside `x` that survives the move there.
fn wrong_capture_target(game: &Game, c: Color, x: Point) -> Option<usize> {
    let caps = game.preview(c, x).ok()?;
    let size = usize::from(game.setup().size.lines());
    neighbours(x.index(), size).into_iter().find(|&q| {
        game.board().get(Point(q as u16)) == Some(c.opponent()) && !caps.contains(&Point(q as u16))
    })
}

/// A stone of `c` with an empty neighbour, not in atari-sensitive spots: any will do physically.
fn movable_stone(game: &Game, c: Color) -> Option<(usize, usize)> {
    stones_of(game, c).find_map(|p| empty_neighbour(game, p.index()).map(|y| (p.index(), y)))
}

/// Plays `record` with `kind` injected before move `at`; returns after the last move.
pub fn play_with(
    t: &mut Table,
    hands: &mut Hands,
    record: &Record,
    kind: InfractionKind,
    at: usize,
) {
    if kind == InfractionKind::WrongColour {
        hands.black_button = hands.black_button.other();
    }
    for (i, &(c, mv)) in record.moves.iter().enumerate() {
        if i == at {
            if !inject(t, hands, kind, c, mv) {
                return;
            }
            continue;
        }
        hands.play(t, c, mv);
    }
}

/// The injection before (or instead of) move `mv` of `c`; `false` when the game ended.
fn inject(t: &mut Table, hands: &mut Hands, kind: InfractionKind, c: Color, mv: Move) -> bool {
    let Move::Play(x) = mv else { return true };
    let x = x.index();
    let d = c.opponent();
    let _ = IllegalReason::Ko;
    match kind {
        InfractionKind::ForbiddenPoint | InfractionKind::KoViolation => {
            let p = match kind {
                InfractionKind::KoViolation => hands.game.ko_point().map(|(p, _)| p.index()),
                _ => suicide_point(&hands.game, c).map(|p| p.index()),
            };
            let Some(p) = p else { return true };
            hands.think(t);
            t.set(&[(p, stone(c))]);
            t.wait(1_000);
            // Advised, not sanctioned: the guidance shows it, the player takes it back and plays on.
            t.set(&[(p, Reading::Empty)]);
            t.wait(800);
            hands.play(t, c, mv);
        }
        InfractionKind::OccupiedPoint => {
            let q = stones_of(&hands.game, d)
                .next()
                .map(|p| p.index())
                .unwrap_or(x);
            hands.think(t);
            t.set(&[(q, stone(c))]);
            t.wait(1_000);
            t.set(&[(q, stone(d))]);
            t.wait(800);
            hands.play(t, c, mv);
        }
        InfractionKind::DoubleMove => {
            let Some(e) = free_point(&hands.game, d) else {
                return true;
            };
            t.wait(500);
            t.set(&[(e.index(), stone(d))]);
            t.wait(1_000);
            t.set(&[(e.index(), Reading::Empty)]);
            t.wait(800);
            hands.play(t, c, mv);
        }
        InfractionKind::WrongColour => hands.play(t, c, mv),
        InfractionKind::LateStart => {
            t.wait(120_000);
            t.arbiter(ArbiterCommand::LateStart {
                color: c,
                absent_ms: 120_000,
            });
            hands.play(t, c, mv);
        }
        InfractionKind::MissedCapture => {
            hands.think(t);
            let caps = hands.game.play(c, mv).expect("legal");
            t.set(&[(x, stone(c))]);
            t.wait(500);
            t.press(hands.button(c));
            for p in caps {
                t.wait(700);
                t.set(&[(p.index(), Reading::Empty)]);
            }
        }
        InfractionKind::WrongCapture => {
            let Some(q) = wrong_capture_target(&hands.game, c, Point(x as u16)) else {
                return true;
            };
            hands.think(t);
            hands.place(t, c, mv);
            t.wait(400);
            t.set(&[(q, Reading::Empty)]);
            t.wait(500);
            t.press(hands.button(c));
            t.wait(4_000);
            t.set(&[(q, stone(d))]);
        }
        InfractionKind::PrematurePress => {
            hands.think(t);
            t.press(hands.button(c));
            t.wait(hands.rng.random_range(300..1_500));
            hands.place(t, c, mv);
        }
        InfractionKind::Takeback => {
            hands.play(t, c, mv);
            let Some(y) = empty_neighbour(&hands.game, x) else {
                return true;
            };
            t.wait(600);
            t.set(&[(x, Reading::Empty), (y, stone(c))]);
            t.wait(1_000);
            t.set(&[(y, Reading::Empty), (x, stone(c))]);
        }
        InfractionKind::DisplacedStones => {
            let Some((q, y)) = movable_stone(&hands.game, c) else {
                return true;
            };
            hands.think(t);
            t.set(&[(q, Reading::Empty), (y, stone(c))]);
            t.wait(1_000);
            t.set(&[(y, Reading::Empty), (q, stone(c))]);
            hands.play(t, c, mv);
        }
        InfractionKind::BoardDisturbed => {
            let knocked: Vec<(usize, Reading)> = hands
                .game
                .board()
                .stones()
                .take(5)
                .map(|(p, col)| (p.index(), stone(col)))
                .collect();
            t.wait(500);
            t.set(
                &knocked
                    .iter()
                    .map(|&(p, _)| (p, Reading::Empty))
                    .collect::<Vec<_>>(),
            );
            t.wait(2_000);
            t.set(&knocked);
            t.wait(1_000);
            hands.play(t, c, mv);
        }
        InfractionKind::TimeForfeit => {
            // The player thinks past the main time and the byo-yomi (CN2002 12.4); the arbiter
            // finds a clock fault, dismisses the alert and gives time back (22.8-22.9).
            t.wait(3 * 60 * 60 * 1000);
            let Some(id) = t.alerts().first().map(|a| a.id.clone()) else {
                return false;
            };
            let note = "clock fault".to_owned();
            t.send(Input::Arbiter(ArbiterCommand::Ruling {
                id,
                action: RulingAction::Dismiss,
                note,
            }));
            t.arbiter(ArbiterCommand::Pause);
            t.arbiter(ArbiterCommand::AdjustClock {
                color: c,
                delta_ms: 1_800_000,
                by: "arbiter".into(),
            });
            t.arbiter(ArbiterCommand::Resume);
            hands.play(t, c, mv);
        }
    }
    true
}
