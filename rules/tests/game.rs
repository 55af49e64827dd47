//! Game flow: handicap, turn order, passes and the end, undo, results.
mod common;

use common::{build_board, pt};
use goban_rules::{
    BoardSize, Color, DeadStones, Game, GameResult, GameSetup, GameState, HandicapPlacement,
    IllegalReason, Move, Point, RulesError, Ruleset, WinBy,
};

fn setup19() -> GameSetup {
    GameSetup::new(BoardSize::NINETEEN, Ruleset::Cn2002)
}

#[test]
fn fixed_handicap_places_stones_and_white_moves_first() {
    let g = Game::new(setup19().with_handicap(9, HandicapPlacement::Fixed)).unwrap();
    assert_eq!(g.board().stone_count(Color::Black), 9);
    assert_eq!(g.to_move(), Color::White);
    assert_eq!(g.setup().komi, 0.0);
    assert!(
        Game::new(
            GameSetup::new(BoardSize::new(11).unwrap(), Ruleset::Cn2002)
                .with_handicap(2, HandicapPlacement::Fixed)
        )
        .is_err()
    );
}

#[test]
fn free_handicap_waits_for_its_stones() {
    let mut g = Game::new(setup19().with_handicap(3, HandicapPlacement::Free)).unwrap();
    assert!(g.handicap_pending());
    assert_eq!(
        g.check(Color::White, Move::Pass).map_err(|e| e.reason),
        Err(IllegalReason::HandicapPending)
    );
    let pts = [Point(0), Point(1), Point(2)];
    assert!(
        g.place_free_handicap(&pts[..2]).is_err(),
        "two stones for three"
    );
    assert!(
        g.place_free_handicap(&[Point(0), Point(0), Point(2)])
            .is_err(),
        "repeated point"
    );
    g.place_free_handicap(&pts).unwrap();
    assert_eq!(g.board().stone_count(Color::Black), 3);
    assert_eq!(g.to_move(), Color::White);
    assert!(g.check(Color::White, Move::Play(Point(20))).is_ok());
    assert!(g.place_free_handicap(&pts).is_err(), "only once");
}

#[test]
fn two_passes_stop_play_and_resume_reopens_it() {
    let mut g = Game::new(setup19()).unwrap();
    g.play(Color::Black, Move::Pass).unwrap();
    assert_eq!(
        g.state(),
        GameState::Playing,
        "one pass proposes the end (CN2002 21.1)"
    );
    g.play(Color::White, Move::Pass).unwrap();
    assert_eq!(g.state(), GameState::Counting);
    assert_eq!(
        g.check(Color::Black, Move::Pass).map_err(|e| e.reason),
        Err(IllegalReason::GameOver)
    );
    g.resume().unwrap();
    assert!(g.resume().is_err());
    g.play(Color::Black, Move::Play(Point(0))).unwrap();
    assert_eq!(g.undo().unwrap().mv, Move::Play(Point(0)));
    // The undone move came after the resumption: play stays open.
    assert_eq!(g.state(), GameState::Playing);
}

#[test]
fn undo_after_a_resumed_count_keeps_play_open() {
    let mut g = Game::new(setup19()).unwrap();
    g.play(Color::Black, Move::Play(Point(60))).unwrap();
    g.play(Color::White, Move::Pass).unwrap();
    g.play(Color::Black, Move::Pass).unwrap();
    g.resume().unwrap();
    g.play(Color::White, Move::Play(Point(61))).unwrap();
    g.play(Color::Black, Move::Play(Point(80))).unwrap();
    // Undo replays the moves; the two passes inside them must not end play again.
    assert_eq!(g.undo().unwrap().mv, Move::Play(Point(80)));
    assert_eq!(g.state(), GameState::Playing);
    assert_eq!(g.to_move(), Color::Black);
    assert!(g.check(Color::Black, Move::Play(Point(80))).is_ok());
    // Two new passes still end it.
    g.play(Color::Black, Move::Pass).unwrap();
    g.play(Color::White, Move::Pass).unwrap();
    assert_eq!(g.state(), GameState::Counting);
}

#[test]
fn undo_walks_back_to_the_start() {
    let mut g = Game::new(setup19()).unwrap();
    assert!(g.undo().is_none());
    let empty_hash = g.board().hash();
    for (i, p) in [60u16, 61, 80, 79].into_iter().enumerate() {
        let c = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        g.play(c, Move::Play(Point(p))).unwrap();
    }
    while g.undo().is_some() {}
    assert_eq!(g.board().hash(), empty_hash);
    assert_eq!(g.board().stone_count(Color::Black), 0);
    assert_eq!(g.to_move(), Color::Black);
}

#[test]
fn results_of_every_ending() {
    let mut g = Game::new(setup19()).unwrap();
    assert_eq!(g.lose_on_time(Color::Black).unwrap().to_sgf(), "W+T");
    assert!(g.resign(Color::White).is_err(), "one result only");
    assert!(g.undo().is_none(), "no takeback after the result");
    g.correct_result(GameResult::Draw);
    assert_eq!(g.result(), Some(GameResult::Draw));
    let mut g = Game::new(setup19()).unwrap();
    let r = g.forfeit(Color::White).unwrap();
    assert_eq!(
        r,
        GameResult::Win {
            winner: Color::Black,
            by: WinBy::Forfeit
        }
    );
    let mut g = Game::new(setup19()).unwrap();
    assert_eq!(g.end_with(GameResult::NoResult).unwrap().to_sgf(), "Void");
    assert!(matches!(
        g.end_with(GameResult::Draw),
        Err(RulesError::WrongState(_))
    ));
}

#[test]
fn mark_group_takes_stones_linked_through_empty_points() {
    let rows = [".....", ".X.X.", ".....", "OOOOO", "....."];
    let board = build_board(&rows);
    let g = Game::from_position(
        GameSetup::new(board.size(), Ruleset::Jk),
        board,
        Color::Black,
        goban_rules::FreeHandicap::Placed,
    );
    let mut dead = DeadStones::new();
    let added = dead.mark_group(g.board(), pt(&g, "B4"));
    assert_eq!(added, [pt(&g, "B4"), pt(&g, "D4")]);
    dead.unmark_group(g.board(), pt(&g, "D4"));
    assert!(dead.is_empty());
    assert!(
        dead.mark_group(g.board(), pt(&g, "A1")).is_empty(),
        "an empty point marks nothing"
    );
}

#[test]
fn a_refused_move_names_its_colour_point_and_reason() {
    let mut g = Game::new(GameSetup::new(BoardSize::NINE, Ruleset::Cn2002)).unwrap();
    let e5 = pt(&g, "E5");
    g.play(Color::Black, Move::Play(e5)).unwrap();
    let occupied = g.play(Color::White, Move::Play(e5)).unwrap_err();
    assert_eq!(
        (occupied.color, occupied.point(), occupied.reason),
        (Color::White, Some(e5), IllegalReason::Occupied)
    );
    assert_eq!(
        occupied.to_string(),
        "white E5 is illegal: the point is occupied (CN2002 2.3)"
    );
    let out_of_turn = g.check(Color::Black, Move::Pass).unwrap_err();
    assert_eq!(out_of_turn.point(), None);
    assert_eq!(
        out_of_turn.to_string(),
        "black pass is illegal: not this colour's turn (CN2002 17.2)"
    );
    // An index off the board is named as such, not as a made-up coordinate.
    let off = g.check(Color::White, Move::Play(Point(81))).unwrap_err();
    assert_eq!(off.reason, IllegalReason::OffBoard);
    assert_eq!(
        off.to_string(),
        "white point 81, off the 9x9 board is illegal: the point is off the board"
    );
}
