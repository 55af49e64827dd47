//! Shared helpers for the integration tests: corpus lookup, its SGF files, and positions
//! from diagrams.
#![allow(dead_code, unreachable_pub)]

pub mod sgf_files;

use std::path::PathBuf;

use goban_rules::{Board, BoardSize, Color, Game, GameSetup, KoRule, Move, Point, Ruleset};

/// The corpus directory, or `None` (after printing why) when `GOBAN_CORPUS` is unset
/// outside CI. Under `CI=true` an unset variable is a failure.
pub fn corpus_dir(test: &str) -> Option<PathBuf> {
    match std::env::var_os("GOBAN_CORPUS") {
        Some(dir) => Some(PathBuf::from(dir)),
        None if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("{test}: GOBAN_CORPUS is not set, but CI=true: set it to ../shared/corpus")
        }
        None => {
            eprintln!(
                "{test}: skipped, GOBAN_CORPUS is not set (export GOBAN_CORPUS=$PWD/../shared/corpus)"
            );
            None
        }
    }
}

/// A board from rows, top row first: `X` black, `O` white, anything else empty.
pub fn build_board(rows: &[&str]) -> Board {
    let size = BoardSize::new(rows.len() as u8).unwrap();
    let mut b = Board::new(size);
    for (r, line) in rows.iter().enumerate() {
        assert_eq!(
            line.chars().count(),
            rows.len(),
            "row {r} of a square diagram"
        );
        for (c, ch) in line.chars().enumerate() {
            let p = Point::from_row_col(r as u8, c as u8, size).unwrap();
            match ch {
                'X' => assert!(b.put_setup_stone(p, Color::Black)),
                'O' => assert!(b.put_setup_stone(p, Color::White)),
                _ => {}
            }
        }
    }
    b
}

/// A game from a diagram under `ruleset` and `ko_rule`, `first` to move.
pub fn build_game(rows: &[&str], ruleset: Ruleset, ko_rule: KoRule, first: Color) -> Game {
    let board = build_board(rows);
    let setup = GameSetup::new(board.size(), ruleset).with_ko_rule(ko_rule);
    Game::from_position(setup, board, first, goban_rules::FreeHandicap::Placed)
}

/// The point named in letters-and-numbers notation.
pub fn pt(game: &Game, name: &str) -> Point {
    Point::parse_human(name, game.setup().size).unwrap()
}

/// Plays `name` (or "pass") for the colour to move and returns the captured names.
pub fn play(game: &mut Game, name: &str) -> Vec<String> {
    let color = game.to_move();
    let mv = if name == "pass" {
        Move::Pass
    } else {
        Move::Play(pt(game, name))
    };
    let size = game.setup().size;
    let caps = game
        .play(color, mv)
        .unwrap_or_else(|e| panic!("{color} {name}: {e}"));
    caps.iter().map(|p| p.to_human(size)).collect()
}

/// Names of the points, sorted.
pub fn names(game: &Game, points: &[Point]) -> Vec<String> {
    let mut v: Vec<String> = points
        .iter()
        .map(|p| p.to_human(game.setup().size))
        .collect();
    v.sort();
    v
}
