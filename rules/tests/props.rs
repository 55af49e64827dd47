//! Property tests over random legal games: counts, hashes, undo, and previews.
mod common;

use goban_rules::{
    Board, BoardSize, Color, Game, GameSetup, IllegalReason, KoRule, Move, Point, Ruleset,
};
use proptest::prelude::*;

/// Plays the choices as moves where legal (a choice past the board is a pass; illegal
/// choices are skipped), stopping before two passes end the game.
fn random_game(size: u8, rule: KoRule, choices: &[u16]) -> Game {
    visit_random_game(size, rule, choices, |_| Ok(())).unwrap()
}

/// [`random_game`], calling `visit` on the game before each choice.
fn visit_random_game(
    size: u8,
    rule: KoRule,
    choices: &[u16],
    mut visit: impl FnMut(&Game) -> Result<(), TestCaseError>,
) -> Result<Game, TestCaseError> {
    let size = BoardSize::new(size).unwrap();
    let mut g = Game::new(GameSetup::new(size, Ruleset::Cn2002).with_ko_rule(rule)).unwrap();
    for &c in choices {
        visit(&g)?;
        let mv = if usize::from(c) >= size.points() {
            Move::Pass
        } else {
            Move::Play(Point(c))
        };
        let color = g.to_move();
        if g.check(color, mv).is_err() {
            continue;
        }
        let last_was_pass = g.moves().last().is_some_and(|m| m.mv == Move::Pass);
        if mv == Move::Pass && last_was_pass {
            continue;
        }
        g.play(color, mv).unwrap();
    }
    Ok(g)
}

fn rebuilt(board: &Board) -> Board {
    let mut b = Board::new(board.size());
    for (p, c) in board.stones() {
        assert!(b.put_setup_stone(p, c));
    }
    b
}

fn choices(size: u8) -> impl Strategy<Value = Vec<u16>> {
    let n = u16::from(size) * u16::from(size);
    prop::collection::vec(0..n + 2, 0..400)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn stone_counts_match_moves_and_captures(size in prop::sample::select(vec![5u8, 7, 9]), seed in choices(9)) {
        let seed: Vec<u16> = seed.into_iter().map(|c| c % (u16::from(size) * u16::from(size) + 2)).collect();
        let g = random_game(size, KoRule::Situational, &seed);
        for color in Color::BOTH {
            let placed = g.moves().iter().filter(|m| m.color == color && m.mv != Move::Pass).count() as u32;
            let lost = g.captures(color.opponent());
            prop_assert_eq!(g.board().stone_count(color), placed - lost);
        }
        let captured: usize = g.moves().iter().map(|m| m.captured.len()).sum();
        prop_assert_eq!(captured as u32, g.captures(Color::Black) + g.captures(Color::White));
    }

    #[test]
    fn incremental_hash_equals_hash_from_scratch(seed in choices(7)) {
        let g = random_game(7, KoRule::Simple, &seed);
        prop_assert_eq!(g.board().hash(), g.board().hash_from_scratch());
        prop_assert_eq!(g.board().hash(), rebuilt(g.board()).hash());
    }

    #[test]
    fn undo_restores_position_hash_and_counts(seed in choices(7), extra in 0u16..51) {
        let mut g = random_game(7, KoRule::Situational, &seed);
        let before = g.clone();
        let mv = if extra == 50 { Move::Pass } else { Move::Play(Point(extra % 49)) };
        let color = g.to_move();
        if g.play(color, mv).is_ok() {
            prop_assert!(g.undo().is_some());
        }
        prop_assert_eq!(g.board(), before.board());
        prop_assert_eq!(g.board().hash(), before.board().hash());
        prop_assert_eq!(g.to_move(), before.to_move());
        prop_assert_eq!(g.moves(), before.moves());
        prop_assert_eq!(g.ko_point(), before.ko_point());
        for c in Color::BOTH {
            prop_assert_eq!(g.captures(c), before.captures(c));
        }
    }

    #[test]
    fn previews_agree_with_a_board_built_from_scratch(seed in choices(7)) {
        // Chains and liberty counts kept incrementally must give the same captures and
        // suicides as a board rebuilt stone by stone.
        let g = random_game(7, KoRule::Simple, &seed);
        let fresh = Game::from_position(*g.setup(), rebuilt(g.board()), g.to_move(), goban_rules::FreeHandicap::Placed);
        for p in g.setup().size.all_points() {
            for c in Color::BOTH {
                let a = g.preview(c, p);
                if a.as_ref().is_err_and(|e| e.reason == IllegalReason::Ko) {
                    continue;
                }
                prop_assert_eq!(a, fresh.preview(c, p), "{:?} {:?}", p, c);
            }
        }
    }

    #[test]
    fn preview_matches_what_play_captures(seed in choices(5), at in 0u16..25) {
        let mut g = random_game(5, KoRule::Situational, &seed);
        let color = g.to_move();
        let preview = g.preview(color, Point(at));
        let played = g.play(color, Move::Play(Point(at)));
        prop_assert_eq!(preview, played);
    }

}

proptest! {
    // Superko refusals are rare in random play: long games, many of them.
    #![proptest_config(ProptestConfig::with_cases(160))]

    #[test]
    fn superko_refusals_name_a_real_earlier_position(seed in prop::collection::vec(0u16..27, 500..700)) {
        // Every superko refusal met along a random game must point at a position that
        // truly stood earlier with the same player to move (situational, CN2002 art. 6):
        // no false alarm from the hash.
        visit_random_game(5, KoRule::Situational, &seed, |g| {
            for p in g.setup().size.all_points() {
                if let Err(IllegalReason::Superko { repeats_game_move: n }) = g.preview(g.to_move(), p).map_err(|e| e.reason) {
                    check_repetition(g, p, n)?;
                }
            }
            Ok(())
        })?;
    }
}

/// Plays `p` on a simple-ko copy of `g` and compares with the position after move `n`.
fn check_repetition(g: &Game, p: Point, n: usize) -> Result<(), TestCaseError> {
    let color = g.to_move();
    let setup = g.setup().with_ko_rule(KoRule::Simple);
    let mut loose = Game::from_position(
        setup,
        g.initial_board().clone(),
        g.first_to_move(),
        goban_rules::FreeHandicap::Placed,
    );
    for m in g.moves() {
        loose.play_as(m.color, m.mv).unwrap();
    }
    loose.play_as(color, Move::Play(p)).unwrap();
    let mut earlier = loose.clone();
    while earlier.move_number() > n {
        earlier.undo();
    }
    prop_assert_eq!(loose.board(), earlier.board());
    prop_assert_eq!(loose.to_move(), earlier.to_move());
    Ok(())
}
