//! Classic positions transcribed by hand: snapback, ko, triple ko, eternal life, suicide.
mod common;

use common::{build_game, names, play, pt};
use goban_rules::{Color, GameState, IllegalReason, KoRule, Move, Ruleset};

#[test]
fn snapback_throw_in_is_captured_then_five_stones_fall() {
    // CN2002 art. 4.1: the recapture at B5 takes the whole white chain.
    let rows = ["..OX.", "OOOX.", "XXX..", ".....", "....."];
    let mut g = build_game(&rows, Ruleset::Cn2002, KoRule::Situational, Color::Black);
    assert!(
        play(&mut g, "B5").is_empty(),
        "the throw-in captures nothing"
    );
    assert_eq!(play(&mut g, "A5"), ["B5"]);
    // Not a ko: White's capturing stone joined a chain, so Black may retake at once.
    assert_eq!(g.ko_point(), None);
    let mut caps = play(&mut g, "B5");
    caps.sort();
    assert_eq!(caps, ["A4", "A5", "B4", "C4", "C5"]);
    assert_eq!(g.captures(Color::Black), 5);
    assert_eq!(g.captures(Color::White), 1);
}

fn ko_game(rule: KoRule) -> goban_rules::Game {
    let rows = [".XO..", "XO.O.", ".XO..", ".....", "....."];
    build_game(&rows, Ruleset::Cn2002, rule, Color::Black)
}

#[test]
fn ko_immediate_recapture_is_forbidden_under_every_rule() {
    for rule in [KoRule::Simple, KoRule::Positional, KoRule::Situational] {
        let mut g = ko_game(rule);
        assert_eq!(play(&mut g, "C4"), ["B4"]);
        // CN2002 20.1 / JK 11.1: White may not retake at once.
        let b4 = pt(&g, "B4");
        assert_eq!(
            g.check(Color::White, Move::Play(b4)).map_err(|e| e.reason),
            Err(IllegalReason::Ko),
            "{rule:?}"
        );
        assert_eq!(
            g.preview(Color::White, b4).map_err(|e| e.reason),
            Err(IllegalReason::Ko)
        );
        // After a ko threat and an answer the retake is legal.
        play(&mut g, "E1");
        play(&mut g, "D1");
        assert_eq!(play(&mut g, "B4"), ["C4"], "{rule:?}");
    }
}

#[test]
fn ko_retake_after_a_pass_pair_repeats_the_position_under_superko() {
    let mut g = ko_game(KoRule::Situational);
    play(&mut g, "C4");
    play(&mut g, "pass");
    play(&mut g, "pass");
    assert_eq!(g.state(), GameState::Counting);
    g.resume().unwrap();
    // The basic ko ban is lifted by the passes, but retaking would recreate the start
    // position with Black to move (CN2002 art. 6).
    assert_eq!(g.to_move(), Color::White);
    let b4 = pt(&g, "B4");
    assert_eq!(g.ko_point(), None);
    assert_eq!(
        g.preview(Color::White, b4).map_err(|e| e.reason),
        Err(IllegalReason::Superko {
            repeats_game_move: 0
        })
    );
    // Under simple ko the same retake is legal.
    let mut g = ko_game(KoRule::Simple);
    for m in ["C4", "pass", "pass"] {
        play(&mut g, m);
    }
    g.resume().unwrap();
    assert_eq!(
        g.preview(Color::White, b4).map(|c| names(&g, &c)),
        Ok(vec!["C4".to_owned()])
    );
}

/// Three independent kos: ko 1 and 3 Black can take, ko 2 White can take.
const TRIPLE_KO: [&str; 13] = [
    ".............",
    "..XO.........",
    ".XO.O........",
    "..XO.........",
    ".............",
    "..XO.........",
    ".X.XO........",
    "..XO.........",
    ".............",
    "..XO.........",
    ".XO.O........",
    "..XO.........",
    ".............",
];
const TRIPLE_KO_CYCLE: [&str; 6] = ["D11", "C7", "D3", "C11", "D7", "C3"];

#[test]
fn triple_ko_cycles_under_simple_ko_and_is_reported() {
    // CN2002 20.3 / JK: under basic ko the cycle is legal and the game may be declared no result.
    let mut g = build_game(&TRIPLE_KO, Ruleset::Jk, KoRule::Simple, Color::Black);
    for m in TRIPLE_KO_CYCLE {
        assert_eq!(play(&mut g, m).len(), 1, "{m} takes one stone");
    }
    assert_eq!(g.repeated_position(), Some(0));
    assert_eq!(g.board(), g.initial_board());
}

#[test]
fn triple_ko_sixth_capture_is_superko_under_cn2002() {
    for rule in [KoRule::Positional, KoRule::Situational] {
        let mut g = build_game(&TRIPLE_KO, Ruleset::Cn2002, rule, Color::Black);
        for m in &TRIPLE_KO_CYCLE[..5] {
            play(&mut g, m);
            assert_eq!(g.repeated_position(), None);
        }
        let c3 = pt(&g, "C3");
        // CN2002 art. 6: the move would recreate the starting position.
        assert_eq!(
            g.check(Color::White, Move::Play(c3)).map_err(|e| e.reason),
            Err(IllegalReason::Superko {
                repeats_game_move: 0
            }),
            "{rule:?}"
        );
    }
}

/// GNU Go's seki_exotics/chosei.sgf (second game), the classic eternal life (長生).
const CHOSEI: [&str; 9] = [
    ".........",
    ".........",
    ".........",
    ".........",
    ".........",
    ".OOOOO.O.",
    ".XXXXO...",
    "XOOOXXOO.",
    ".O.X.OX..",
];

#[test]
fn eternal_life_cycle_repeats_after_four_moves() {
    let mut g = build_game(&CHOSEI, Ruleset::Jk, KoRule::Simple, Color::Black);
    assert!(play(&mut g, "C1").is_empty());
    assert_eq!(play(&mut g, "E1").len(), 2);
    assert_eq!(play(&mut g, "D1").len(), 2);
    assert!(play(&mut g, "F1").is_empty());
    assert_eq!(g.repeated_position(), Some(0));
    // Under CN2002's situational superko the fourth move is refused (art. 6, 20.3).
    let mut g = build_game(&CHOSEI, Ruleset::Cn2002, KoRule::Situational, Color::Black);
    for m in ["C1", "E1", "D1"] {
        play(&mut g, m);
    }
    let f1 = pt(&g, "F1");
    assert_eq!(
        g.preview(Color::White, f1).map_err(|e| e.reason),
        Err(IllegalReason::Superko {
            repeats_game_move: 0
        })
    );
}

#[test]
fn multi_stone_suicide_is_forbidden_but_the_capture_is_not() {
    let rows = ["XX.O.", "OOO..", ".....", ".....", "....."];
    let mut g = build_game(&rows, Ruleset::Cn2002, KoRule::Situational, Color::Black);
    let c5 = pt(&g, "C5");
    // CN2002 art. 5: three black stones without liberty, nothing captured.
    assert_eq!(
        g.check(Color::Black, Move::Play(c5)).map_err(|e| e.reason),
        Err(IllegalReason::Suicide)
    );
    assert_eq!(
        g.play(Color::Black, Move::Play(c5)).map_err(|e| e.reason),
        Err(IllegalReason::Suicide)
    );
    assert_eq!(g.move_number(), 0, "a refused move changes nothing");
    assert_eq!(
        g.preview(Color::White, c5).map(|c| names(&g, &c)),
        Ok(vec!["A5".into(), "B5".into()])
    );
}

#[test]
fn capture_takes_precedence_over_self_atari() {
    // CN2002 art. 4.2: both sides without liberties: only the opponent's stones go.
    let rows = [".XO..", "XO...", "O....", ".....", "....."];
    let mut g = build_game(&rows, Ruleset::Cn2002, KoRule::Situational, Color::White);
    // The white stone has no liberty until both black chains are removed.
    assert_eq!(play(&mut g, "A5"), ["B5", "A4"]);
    assert_eq!(g.board().liberties(pt(&g, "A5")).len(), 2);
}

#[test]
fn occupied_not_your_turn_and_game_over() {
    let mut g = ko_game(KoRule::Situational);
    let b5 = pt(&g, "B5");
    assert_eq!(
        g.check(Color::Black, Move::Play(b5)).map_err(|e| e.reason),
        Err(IllegalReason::Occupied)
    );
    assert_eq!(
        g.check(Color::White, Move::Pass).map_err(|e| e.reason),
        Err(IllegalReason::NotYourTurn)
    );
    assert_eq!(
        g.check(Color::Black, Move::Play(goban_rules::Point(999)))
            .map_err(|e| e.reason),
        Err(IllegalReason::OffBoard)
    );
    g.resign(Color::White).unwrap();
    assert_eq!(
        g.check(Color::Black, Move::Pass).map_err(|e| e.reason),
        Err(IllegalReason::GameOver)
    );
    assert_eq!(g.result().unwrap().to_sgf(), "B+R");
}

#[test]
fn double_move_is_recorded_with_play_as() {
    // CN2002 17.2: the referee records the second move of the same colour.
    let mut g = ko_game(KoRule::Situational);
    play(&mut g, "E1");
    let e2 = pt(&g, "E2");
    assert_eq!(
        g.play(Color::Black, Move::Play(e2)).map_err(|e| e.reason),
        Err(IllegalReason::NotYourTurn)
    );
    g.play_as(Color::Black, Move::Play(e2)).unwrap();
    assert!(g.moves()[1].out_of_turn);
    assert_eq!(g.to_move(), Color::White);
    let undone = g.undo().unwrap();
    assert!(undone.out_of_turn);
    assert_eq!(g.to_move(), Color::White);
}

/// Sending two, returning one (送二还一): Black's throw-in at C5 makes two stones White
/// takes at A5; Black takes the one stone back at B5, and the corner is as before.
const SEND_TWO: [&str; 5] = [".X.O.", "XOOO.", "X....", ".....", "....."];

#[test]
fn sending_two_returning_one_cycles_under_simple_ko() {
    let mut g = build_game(&SEND_TWO, Ruleset::Jk, KoRule::Simple, Color::Black);
    for _ in 0..2 {
        assert!(play(&mut g, "C5").is_empty());
        assert_eq!(play(&mut g, "A5"), ["B5", "C5"]);
        assert_eq!(play(&mut g, "B5"), ["A5"]);
        play(&mut g, "pass");
        assert_eq!(g.board(), g.initial_board());
        assert_eq!(g.repeated_position(), Some(0));
    }
    assert_eq!((g.captures(Color::White), g.captures(Color::Black)), (4, 2));
}

#[test]
fn sending_two_returning_one_is_cut_by_superko() {
    // Positional: Black's recapture recreates the starting board (CN2002 art. 6).
    let mut g = build_game(&SEND_TWO, Ruleset::Cn2002, KoRule::Positional, Color::Black);
    play(&mut g, "C5");
    play(&mut g, "A5");
    let b5 = pt(&g, "B5");
    assert_eq!(
        g.preview(Color::Black, b5).map_err(|e| e.reason),
        Err(IllegalReason::Superko {
            repeats_game_move: 0
        })
    );
    // Situational: the recapture is new (White to move), but after White's pass the
    // throw-in would give White the position it faced after move 1 again.
    let mut g = build_game(
        &SEND_TWO,
        Ruleset::Cn2002,
        KoRule::Situational,
        Color::Black,
    );
    for m in ["C5", "A5", "B5", "pass"] {
        play(&mut g, m);
    }
    let c5 = pt(&g, "C5");
    assert_eq!(
        g.check(Color::Black, Move::Play(c5)).map_err(|e| e.reason),
        Err(IllegalReason::Superko {
            repeats_game_move: 1
        })
    );
}
