//! A second and third game on the same board, with and without clearing it, with and without handicap: stones found at a game's start are guidance, never moves nor alerts.

mod common;

use common::hall::{replug, unplug};
use common::table::Table;
use goban_referee::{ArbiterCommand, GameSetup, Input, Reading};
use goban_rules::Color;

const B: Color = Color::Black;
const W: Color = Color::White;

fn start(t: &mut Table, handicap: u8) {
    t.arbiter(ArbiterCommand::StartGame(GameSetup {
        handicap: (handicap > 0).then_some(handicap),
        ..GameSetup::default()
    }));
}

fn first_game(t: &mut Table) {
    t.play("E5", B, &[]);
    t.play("C3", W, &[]);
    t.play("G7", B, &[]);
    t.key(goban_referee::ClockKey::ResignR);
}

fn clear(t: &mut Table) {
    for i in 0..t.board.len() {
        if t.board[i] != Reading::Empty {
            t.set(&[(i, Reading::Empty)]);
            t.wait(150);
        }
    }
    t.wait(1_000);
}

/// The daemon re-reads the board for the new game: all `?` for a moment, then the snapshot.
fn reread(t: &mut Table) {
    let unknown: String = "?".repeat(t.board.len());
    t.send(Input::BoardSnapshot { points: unknown });
    t.wait(500);
    let points: String = t.board.iter().map(|r| r.to_char()).collect();
    t.send(Input::BoardSnapshot { points });
}

fn place_handicap(t: &mut Table, points: &[&str]) {
    for p in points {
        t.put(p, B);
        t.wait(400);
    }
    t.wait(1_000);
}

#[test]
fn the_next_game_never_reads_the_last_games_stones_as_moves() {
    for cleared in [false, true] {
        for reread_board in [false, true] {
            for replugged in [false, true] {
                let mut t = Table::nine();
                first_game(&mut t);
                for game in 2..=3 {
                    if cleared {
                        clear(&mut t);
                    }
                    if replugged {
                        unplug(&mut t);
                        t.wait(300);
                        replug(&mut t);
                    }
                    start(&mut t, 0);
                    if reread_board {
                        reread(&mut t);
                    }
                    t.wait(6_000);
                    let what = format!(
                        "game {game}, cleared {cleared}, re-read {reread_board}, replugged {replugged}"
                    );
                    assert!(t.moves().is_empty(), "{what}: {:?}", t.moves());
                    assert!(t.alerts().is_empty(), "{what}: {:#?}", t.alerts());
                    let guidance = t.referee.state().guidance;
                    assert_eq!(guidance.remove.is_empty(), cleared, "{what}: {guidance:?}");
                    if !cleared {
                        clear(&mut t);
                        assert!(t.referee.state().guidance.remove.is_empty(), "{what}");
                    }
                    first_game(&mut t);
                    assert_eq!(t.alerts().len(), 0, "{what}");
                }
            }
        }
    }
}

#[test]
fn a_fixed_handicap_for_the_next_game_is_guidance_then_the_setup() {
    for cleared in [false, true] {
        for reread_board in [false, true] {
            let mut t = Table::nine();
            first_game(&mut t);
            if cleared {
                clear(&mut t);
            }
            start(&mut t, 4);
            if reread_board {
                reread(&mut t);
            }
            t.wait(2_000);
            let what = format!("cleared {cleared}, re-read {reread_board}");
            assert!(t.alerts().is_empty(), "{what}: {:#?}", t.alerts());
            let guidance = t.referee.state().guidance;
            assert!(!guidance.add.is_empty(), "{what}: place the handicap");
            if !cleared {
                clear(&mut t);
            }
            place_handicap(&mut t, &["C3", "G7", "C7", "G3"]);
            let state = t.referee.state();
            assert!(
                state.guidance.add.is_empty(),
                "{what}: {:?}",
                state.guidance
            );
            assert!(
                state.guidance.remove.is_empty(),
                "{what}: {:?}",
                state.guidance
            );
            assert!(t.alerts().is_empty(), "{what}: {:#?}", t.alerts());
            assert!(t.moves().is_empty(), "{what}: {:?}", t.moves());
            t.play("E5", W, &[]);
            t.play("D5", B, &[]);
            assert_eq!(t.moves(), vec!["E5", "D5"], "{what}");
            assert!(t.alerts().is_empty(), "{what}: {:#?}", t.alerts());
        }
    }
}
