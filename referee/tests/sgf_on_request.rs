//! The SGF written on request from a board state and its game's header: a state kept from an
//! earlier moment (a view held by the broadcast delay) writes the SGF of that moment, the
//! header does not change while the game goes on, and a state whose moves do not play again is
//! refused in words.

mod common;

use common::table::Table;
use goban_referee::{GameSetup, MoveName, MoveRecord, RefereeConfig};
use goban_rules::Color;

const B: Color = Color::Black;
const W: Color = Color::White;

/// A 9x9 game with three free handicap stones read off the board and an event name.
fn build_handicap_game() -> Table {
    let setup = GameSetup {
        event: Some("Club night".into()),
        round: Some("2".into()),
        ..GameSetup::default()
    };
    Table::with_free_handicap(setup, &["C3", "G7", "E5"])
}

#[test]
fn a_state_kept_from_earlier_writes_the_sgf_of_its_moment() {
    let mut t = build_handicap_game();
    t.play("C7", W, &[]);
    t.play("G3", B, &[]);
    let header = t.referee.sgf_header().expect("a game is running");
    let earlier = t.referee.state();
    let sgf_then = t.referee.sgf().expect("the SGF");
    assert!(sgf_then.contains("EV[Club night]RO[2]"), "{sgf_then}");
    assert!(sgf_then.contains(";W[cc]"), "{sgf_then}");
    t.play("D7", W, &[]);
    t.play("F3", B, &[]);
    assert_eq!(
        t.referee.sgf_header().as_ref(),
        Some(&header),
        "the header stays as the game goes on"
    );
    assert_eq!(earlier.sgf(&header).expect("the SGF"), sgf_then);
    let sgf_now = t.referee.sgf().expect("the SGF");
    assert_ne!(sgf_now, sgf_then);
    assert!(sgf_now.contains(";B[fg]"), "{sgf_now}");
    assert!(!sgf_then.contains(";B[fg]"), "{sgf_then}");
}

#[test]
fn a_state_whose_moves_do_not_play_again_is_refused() {
    let mut t = build_handicap_game();
    t.play("C7", W, &[]);
    let header = t.referee.sgf_header().expect("a game is running");
    let mut state = t.referee.state();
    // A second stone on White's point: no game of this header has it.
    state.moves.push(MoveRecord {
        number: 2,
        point: MoveName::new("C7").expect("a name"),
        color: B,
        ..state.moves[0]
    });
    let err = state.sgf(&header).expect_err("an occupied point");
    assert!(err.to_string().contains("move 2"), "{err}");
}

#[test]
fn no_game_no_header_and_an_empty_sgf() {
    let t = Table::new(RefereeConfig {
        size: 9,
        ..RefereeConfig::default()
    });
    assert_eq!(t.referee.sgf_header(), None);
    assert_eq!(t.referee.sgf().expect("the SGF"), "");
}
