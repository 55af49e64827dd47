//! Moves nobody saw (issue 39): a stone played and captured while the board could not see leaves nothing on it, yet the clock counted its press. The referee records the stones the board shows and the captures they made as a setup block, counts the press left over as a move nobody saw (`point: "unseen"`), asks the arbiter, and reads the later moves again.

mod common;

use common::hall::{
    assert_restores_and_replays, away_then_back_taking, device_alerts, position_of, unordered,
};
use common::table::Table;
use goban_referee::{EventKind, Phase, RefereeConfig};
use goban_rules::Color;
use goban_rules::sgf::read_sgf;

const B: Color = Color::Black;
const W: Color = Color::White;

fn infractions(t: &Table) -> Vec<String> {
    t.alerts().iter().map(|a| a.kind.id().to_owned()).collect()
}

/// E5, C3, D5, B1; then, while the daemon is away, Black A1 and White A2, which takes A1
/// off: the board shows White A2 alone, the clock counted two presses.
fn stone_captured_while_away() -> Table {
    let mut t = Table::timed_nine();
    t.play("D5", B, &[]);
    t.play("B1", W, &[]);
    away_then_back_taking(&mut t, &[("A1", B), ("A2", W)], &["A1"], 60_000);
    t
}

#[test]
fn a_stone_captured_while_the_board_could_not_see_is_a_move_nobody_saw_and_play_goes_on() {
    let mut t = stone_captured_while_away();
    assert_eq!(t.moves(), ["E5", "C3", "D5", "B1", "A2", "unseen"]);
    assert_eq!(unordered(&t), [5, 6]);
    let state = t.referee.state();
    assert_eq!(state.moves[5].color, B, "the move nobody saw is Black's");
    assert_eq!(state.to_move, B);
    assert_eq!(
        state.device.unexplained_presses, 0,
        "the presses are the block's"
    );
    assert!(!t.moves().iter().any(|m| m == "pass"), "no pass guessed");
    let asks = device_alerts(&t, goban_referee::DeviceAlertKind::BoardUnavailable);
    assert_eq!(asks.len(), 1, "one ask: {asks:?}");
    assert!(asks[0].resolved_at.is_none());
    assert!(
        asks[0]
            .message
            .contains("moves 5-6, content partly unknown")
            && asks[0]
                .message
                .contains("1 move(s) of Black and 0 of White"),
        "{asks:?}"
    );
    let blocks = t.events_where(|e| matches!(e, EventKind::SetupBlock { .. }));
    assert!(matches!(
        &blocks[..],
        [e] if matches!(&e.kind, EventKind::SetupBlock { first: 5, last: 6, black, white, removed, unseen, .. }
            if black.is_empty() && white == &["A2"] && removed.is_empty() && unseen == &[B])
    ));
    // Later moves are read in order and numbered after the block.
    t.play("D4", B, &[]);
    t.play("F4", W, &[]);
    assert_eq!(t.moves()[6..], ["D4", "F4"]);
    assert_eq!(unordered(&t), [5, 6]);
    assert!(infractions(&t).is_empty(), "{:?}", infractions(&t));
    assert_eq!(t.referee.state().phase, Phase::Playing);
}

#[test]
fn a_stone_of_before_captured_while_away_is_taken_off_in_the_block() {
    // White A1 stands; Black A2 and B1 take it off while the board cannot see, White plays
    // J9 and J8 elsewhere: the capture is known, which black stone made it is not.
    let mut t = Table::timed_nine();
    t.play("D5", B, &[]);
    t.play("A1", W, &[]);
    away_then_back_taking(
        &mut t,
        &[("A2", B), ("J9", W), ("B1", B), ("J8", W)],
        &["A1"],
        90_000,
    );
    assert_eq!(t.moves(), ["E5", "C3", "D5", "A1", "J9", "J8", "A2", "B1"]);
    assert_eq!(unordered(&t), [5, 6, 7, 8]);
    let blocks = t.events_where(|e| matches!(e, EventKind::SetupBlock { .. }));
    assert!(matches!(
        &blocks[..],
        [e] if matches!(&e.kind, EventKind::SetupBlock { removed, unseen, .. }
            if removed == &["A1"] && unseen.is_empty())
    ));
    let state = t.referee.state();
    assert_eq!(state.captures.black, 1, "A1 is Black's prisoner");
    assert_eq!(state.to_move, B);
    assert!(infractions(&t).is_empty(), "{:?}", infractions(&t));
    t.play("D4", B, &[]);
    assert_eq!(t.moves().len(), 9);
}

#[test]
fn the_sgf_counts_the_move_nobody_saw_and_reads_back_to_the_position() {
    let t = stone_captured_while_away();
    let sgf = t.referee.sgf().expect("sgf");
    assert!(sgf.contains("C[moves 5-6: order unknown"), "{sgf}");
    assert!(sgf.contains("AW[ah]PL[B]"), "{sgf}");
    assert!(sgf.contains("Black: 1 move(s) nobody saw"), "{sgf}");
    let game = &read_sgf(&sgf).expect("reads back")[0];
    let replay = game.replay().expect("replays");
    assert_eq!(position_of(&replay.game), t.referee.state().position);
}

#[test]
fn a_block_with_a_move_nobody_saw_survives_a_checkpoint_and_a_replay_of_the_journal() {
    let t = stone_captured_while_away();
    let config = RefereeConfig {
        size: 9,
        ..RefereeConfig::default()
    };
    assert_restores_and_replays(&t, config);
}

#[test]
fn a_stone_taken_off_that_no_new_stone_surrounds_stays_an_ask() {
    // White's C3 vanishes while the board cannot see, and the new stones do not surround it:
    // no capture explains it (a stone knocked off, or taken by hand). Nothing is recorded.
    let mut t = Table::timed_nine();
    away_then_back_taking(&mut t, &[("G7", B), ("G3", W)], &["C3"], 60_000);
    assert_eq!(t.moves(), ["E5", "C3"], "nothing recorded");
    assert!(unordered(&t).is_empty());
    assert_eq!(
        device_alerts(&t, goban_referee::DeviceAlertKind::BoardUnavailable).len(),
        1
    );
    assert!(!t.moves().iter().any(|m| m == "pass"));
}

#[test]
fn the_arbiter_names_the_move_nobody_saw_and_the_block_becomes_ordinary_moves() {
    let mut t = stone_captured_while_away();
    t.play("D4", B, &[]);
    let order = |points: &[&str]| {
        goban_referee::Input::Arbiter(goban_referee::ArbiterCommand::OrderMoves {
            first: 5,
            points: points.iter().map(|p| (*p).to_owned()).collect(),
        })
    };
    let before = t.referee.state();
    // Too few, too many, the wrong colour first, a stone left standing: refused, nothing changed.
    for wrong in [
        &["A2"][..],
        &["A1", "A2", "G7"],
        &["A2", "A1"],
        &["G7", "A2"],
    ] {
        assert!(t.try_send(order(wrong)).is_err(), "{wrong:?}");
        assert_eq!(t.referee.state().moves, before.moves, "{wrong:?}");
    }
    assert!(t.try_send(order(&["A1", "A2"])).is_ok());
    assert_eq!(t.moves(), ["E5", "C3", "D5", "B1", "A1", "A2", "D4"]);
    assert!(unordered(&t).is_empty());
    let state = t.referee.state();
    assert_eq!(state.position, before.position, "the same position");
    assert_eq!(state.captures.white, 1, "A1 is White's prisoner now");
    let asks = device_alerts(&t, goban_referee::DeviceAlertKind::BoardUnavailable);
    assert!(asks.iter().all(|a| a.resolved_at.is_some()), "{asks:?}");
    // Listed as A2 then the move nobody saw, now A1 then A2: both numbers change.
    let corrected: Vec<(u32, String, String)> = t
        .events_where(
            |e| matches!(e, EventKind::Correction { reason, .. } if reason.contains("order given")),
        )
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Correction {
                number, was, now, ..
            } => Some((*number, was.clone(), now.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(
        corrected,
        [
            (5, "A2".to_owned(), "A1".to_owned()),
            (6, "unseen".to_owned(), "A2".to_owned())
        ]
    );
    t.play("F4", W, &[]);
    assert!(infractions(&t).is_empty(), "{:?}", infractions(&t));
    // A pass is as good an answer: the position is the same.
    let mut t = stone_captured_while_away();
    assert!(t.try_send(order(&["pass", "A2"])).is_ok());
    assert_eq!(t.moves(), ["E5", "C3", "D5", "B1", "pass", "A2"]);
    assert_eq!(t.referee.state().captures.white, 0);
}
