//! Counting hand-built positions under every ruleset, and GNU Go's seki_score case.
mod common;

use common::{build_board, build_game, pt};
use goban_rules::sgf::read_sgf;
use goban_rules::{
    Color, CountInput, DeadStones, Game, GameSetup, HandicapPlacement, KoRule, Move, Ruleset,
    ScoreUnit, Warnings, score_position,
};

/// 9x9: Black owns columns A-E (45 points), White F-J (36).
fn split_nine() -> Vec<String> {
    (0..9).map(|_| "....XO...".to_owned()).collect()
}

fn rows(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn cn2002_area_in_stones_with_komi_and_warnings() {
    let r = split_nine();
    let g = build_game(
        &rows(&r),
        Ruleset::Cn2002,
        KoRule::Situational,
        Color::Black,
    );
    let s = g.score(&CountInput::default()).unwrap();
    assert_eq!((s.black.total, s.white.total), (45.0, 36.0));
    assert_eq!(s.unit, ScoreUnit::Stones);
    // (45 - 36) / 2 - 3.75 = 0.75 (CN2002 art. 11).
    assert_eq!(s.result.to_rules_string(), "B+0.75");
    // SGF RE is in points, as other SGF tools read it.
    assert_eq!(s.result.to_sgf(), "B+1.5");
    assert_eq!(s.margin.points(), 1.5);
    // A warning costs Black one stone (CN2002 24.1): 0.75 - 1.
    let warned = CountInput {
        warnings: Warnings { black: 1, white: 0 },
        ..CountInput::default()
    };
    assert_eq!(g.score(&warned).unwrap().result.to_rules_string(), "W+0.25");
}

#[test]
fn cn2002_nineteen_185_wins_by_three_quarters_184_loses_by_a_quarter() {
    // Black owns 185 points: rows 1-5 up to column H (9 each), rows 6-19 up to J (10 each).
    let mut v = Vec::new();
    for r in 0..19 {
        v.push(if r < 5 {
            "........XO.........".to_owned()
        } else {
            ".........XO........".to_owned()
        });
    }
    let board = build_board(&rows(&v));
    let setup = GameSetup::new(board.size(), Ruleset::Cn2002);
    let s = score_position(&board, &setup, [0, 0], &CountInput::default()).unwrap();
    assert_eq!(s.black.total, 185.0);
    assert_eq!(s.result.to_rules_string(), "B+0.75");
    let warned = CountInput {
        warnings: Warnings { black: 1, white: 0 },
        ..CountInput::default()
    };
    assert_eq!(
        score_position(&board, &setup, [0, 0], &warned)
            .unwrap()
            .result
            .to_rules_string(),
        "W+0.25"
    );
}

#[test]
fn cn2002_handicap_black_gives_back_half_the_stones() {
    let r = split_nine();
    let board = build_board(&rows(&r));
    let setup =
        GameSetup::new(board.size(), Ruleset::Cn2002).with_handicap(4, HandicapPlacement::Fixed);
    assert_eq!(setup.komi, 0.0);
    let s = score_position(&board, &setup, [0, 0], &CountInput::default()).unwrap();
    // 4.5 stones ahead, minus 4 / 2 given back.
    assert_eq!(s.handicap_giveback, 2.0);
    assert_eq!(s.result.to_rules_string(), "B+2.5");
    assert_eq!(s.result.to_sgf(), "B+5");
}

#[test]
fn ing_counts_area_in_points_with_eight_komi() {
    let r = split_nine();
    let g = build_game(&rows(&r), Ruleset::Ing, KoRule::Situational, Color::Black);
    let s = g.score(&CountInput::default()).unwrap();
    assert_eq!((s.unit, s.komi), (ScoreUnit::Points, 8.0));
    assert_eq!(s.result.to_sgf(), "B+1");
}

#[test]
fn jk_counts_territory_prisoners_and_dead_stones() {
    // A dead white stone in Black's area (B7) and a dead black stone in White's (H3).
    let mut v = split_nine();
    v[2] = ".O..XO...".to_owned();
    v[6] = "....XO.X.".to_owned();
    let g = build_game(&rows(&v), Ruleset::Jk, KoRule::Simple, Color::Black);
    let mut dead = DeadStones::new();
    assert_eq!(dead.mark_group(g.board(), pt(&g, "B7")).len(), 1);
    dead.mark_point(pt(&g, "H3"));
    let input = CountInput {
        dead,
        ..CountInput::default()
    };
    let s = g.score(&input).unwrap();
    // Territory 36 and 27 (walls of 9 stones), one prisoner each: 37 - 28 - 6.5.
    assert_eq!((s.black.territory, s.white.territory), (36, 27));
    assert_eq!((s.black.prisoners, s.white.prisoners), (1, 1));
    assert_eq!(s.result.to_sgf(), "B+2.5");
    // The same position under CN2002: area 45 against 36.
    let cn = GameSetup::new(g.setup().size, Ruleset::Cn2002);
    let s = score_position(g.board(), &cn, [0, 0], &input).unwrap();
    assert_eq!(s.result.to_rules_string(), "B+0.75");
}

#[test]
fn dead_stones_must_be_stones() {
    let r = split_nine();
    let g = build_game(&rows(&r), Ruleset::Jk, KoRule::Simple, Color::Black);
    let input = CountInput {
        dead: DeadStones::from_points([pt(&g, "A1")]),
        ..CountInput::default()
    };
    assert!(g.score(&input).is_err());
}

/// Each side has one eye and they share one liberty (C7): seki. Below, the walls share
/// 28 dame.
const SEKI: [&str; 7] = [
    ".X.O.OX", "XXXOOOX", "OOOXXXX", ".......", ".......", ".......", ".......",
];

#[test]
fn jk_seki_eyes_are_not_territory() {
    let g = build_game(&SEKI, Ruleset::Jk, KoRule::Simple, Color::Black);
    let s = g.score(&CountInput::default()).unwrap();
    assert_eq!(
        (s.black.territory, s.white.territory, s.seki_points),
        (0, 0, 2)
    );
    assert_eq!(s.dame, 29);
    assert_eq!(s.result.to_sgf(), "W+6.5");
}

#[test]
fn cn2002_seki_eyes_count_and_shared_liberties_split() {
    let g = build_game(&SEKI, Ruleset::Cn2002, KoRule::Situational, Color::Black);
    let s = g.score(&CountInput::default()).unwrap();
    // Black 10 stones + 1 eye + 29/2; White 8 + 1 + 29/2 (CN2002 art. 9).
    assert_eq!((s.black.total, s.white.total), (25.5, 23.5));
    assert_eq!(s.result.to_rules_string(), "W+2.75");
    assert_eq!(s.result.to_sgf(), "W+5.5");
}

#[test]
fn historical_blocks_cost_a_stone_each() {
    // Two black blocks (top, bottom) and one white block in between.
    let v = [
        ".........",
        ".........",
        "XXXXXXXXX",
        "OOOOOOOOO",
        ".........",
        "OOOOOOOOO",
        "XXXXXXXXX",
        ".........",
        ".........",
    ];
    let g = build_game(&v, Ruleset::Historical, KoRule::Simple, Color::White);
    let s = g.score(&CountInput::default()).unwrap();
    assert_eq!((s.black.blocks, s.white.blocks), (2, 1));
    // (54 - 27) / 2 - (2 - 1): 还棋头.
    assert_eq!(s.result.to_rules_string(), "B+12.5");
}

#[test]
fn historical_game_starts_with_zuozi_and_white_first() {
    let g = Game::new(GameSetup::new(
        goban_rules::BoardSize::NINETEEN,
        Ruleset::Historical,
    ))
    .unwrap();
    assert_eq!(g.board().stone_count(Color::Black), 2);
    assert_eq!(g.board().stone_count(Color::White), 2);
    assert_eq!(g.to_move(), Color::White);
    assert_eq!(g.setup().komi, 0.0);
}

#[test]
fn finish_by_count_needs_two_passes() {
    let r = split_nine();
    let mut g = build_game(
        &rows(&r),
        Ruleset::Cn2002,
        KoRule::Situational,
        Color::Black,
    );
    assert!(g.finish_by_count(&CountInput::default()).is_err());
    g.play(Color::Black, Move::Pass).unwrap();
    g.play(Color::White, Move::Pass).unwrap();
    let s = g.finish_by_count(&CountInput::default()).unwrap();
    assert_eq!(g.result(), Some(s.result));
}

#[test]
fn gnugo_seki_score_matches_manners_count() {
    let Some(root) = common::corpus_dir("gnugo_seki_score_matches_manners_count") else {
        return;
    };
    let text =
        std::fs::read_to_string(root.join("gnugo-regression/games/seki_exotics/seki_score.sgf"))
            .unwrap();
    let rec = &read_sgf(&text).unwrap()[0];
    let replay = rec.replay().unwrap();
    let board = replay.game.board();
    // README-MANNER: Japanese territory B 96, W 97, seki eyes not counted.
    let jk = GameSetup::new(board.size(), Ruleset::Jk).with_komi(0.0);
    let s = score_position(board, &jk, [0, 0], &CountInput::default()).unwrap();
    assert_eq!((s.black.territory, s.white.territory), (96, 97));
    // Chinese: territory + stones 79 each + seki share 8.5 and 1.5.
    let cn = GameSetup::new(board.size(), Ruleset::Cn2002).with_komi(0.0);
    let s = score_position(board, &cn, [0, 0], &CountInput::default()).unwrap();
    assert_eq!((s.black.stones, s.white.stones), (79, 79));
    assert_eq!(
        (s.black.total, s.white.total),
        (96.0 + 79.0 + 8.5, 97.0 + 79.0 + 1.5)
    );
}
