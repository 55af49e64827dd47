//! The physical end signals of CN2002 on a virtual table: two own stones at one's corner propose a resignation (never a double move), zone stones in the right order end play.

mod common;

use common::table::Table;
use goban_referee::end_signals::{EndSignal, ResignationSignal};
use goban_referee::{ArbiterCommand, Input, Phase, Reading, RefereeConfig};
use goban_rules::Color;

const B: Color = Color::Black;
const W: Color = Color::White;

/// Three moves played: White is to move.
fn opening(t: &mut Table) {
    t.play("E5", B, &[]);
    t.play("C3", W, &[]);
    t.play("G7", B, &[]);
}

fn zones(t: &mut Table, black: Reading, white: Reading) {
    t.send(Input::BoardZones { black, white });
    t.wait(1_000);
}

fn signal(t: &Table) -> Option<EndSignal> {
    t.referee.state().end_signal
}

#[test]
fn two_own_stones_at_the_corner_together_propose_a_resignation() {
    let mut t = Table::nine();
    opening(&mut t);
    // White resigns: two white stones at White's lower right (A9, B9 seen from Black), one DIFF.
    let (a9, b9) = (t.idx("A9"), t.idx("B9"));
    t.set(&[(a9, Reading::White), (b9, Reading::White)]);
    t.wait(1_000);
    let state = t.referee.state();
    assert_eq!(state.move_number, 3, "no move read: {:?}", t.moves());
    assert!(state.infractions.is_empty(), "{:?}", state.infractions);
    assert_eq!(state.proposed_result.as_deref(), Some("B+R"));
    assert_eq!(state.phase, Phase::Playing, "the arbiter confirms");
    assert_eq!(
        state.end_signal,
        Some(EndSignal::Resignation {
            color: W,
            points: vec!["A9".into(), "B9".into()],
            move_number: 3,
        })
    );
    t.arbiter(ArbiterCommand::ConfirmResult);
    let state = t.referee.state();
    assert_eq!(state.result.as_deref(), Some("B+R"));
    assert_eq!(state.phase, Phase::Finished);
    let entry = state.audit.last().expect("the confirmation is audited");
    assert_eq!(entry.action, "set_result");
}

#[test]
fn setting_the_proposed_result_confirms_without_force_and_another_needs_it() {
    let mut t = Table::nine();
    opening(&mut t);
    let (j1, j2) = (t.idx("J1"), t.idx("J2"));
    t.set(&[(j1, Reading::Black), (j2, Reading::Black)]);
    t.wait(1_000);
    let other = ArbiterCommand::SetResult {
        result: "B+R".parse().unwrap(),
        force: false,
    };
    assert!(
        t.referee.handle(t.now, Input::Arbiter(other)).is_err(),
        "not what the board proposes: the game is still in play"
    );
    // The proposed result in any of its forms confirms it; the state words it as the rules do.
    t.arbiter(ArbiterCommand::SetResult {
        result: "w+resign".parse().unwrap(),
        force: false,
    });
    assert_eq!(t.referee.state().result.as_deref(), Some("W+R"));
}

#[test]
fn the_player_to_move_placing_the_two_stones_one_by_one_resigns_too() {
    let mut t = Table::nine();
    opening(&mut t);
    t.put("A9", W);
    t.wait(400);
    assert_eq!(
        t.moves().last().map(String::as_str),
        Some("A9"),
        "first read as a move"
    );
    t.put("A8", W);
    t.wait(1_000);
    let state = t.referee.state();
    assert_eq!(state.move_number, 3, "the provisional move is withdrawn");
    assert!(
        state.infractions.is_empty(),
        "no double move: {:?}",
        state.infractions
    );
    assert!(matches!(
        state.end_signal,
        Some(EndSignal::Resignation { color: W, .. })
    ));
}

#[test]
fn a_lifted_resignation_stone_withdraws_the_proposal() {
    let mut t = Table::nine();
    opening(&mut t);
    let (j1, h1) = (t.idx("J1"), t.idx("H1"));
    t.set(&[(j1, Reading::Black), (h1, Reading::Black)]);
    t.wait(1_000);
    assert_eq!(t.referee.state().proposed_result.as_deref(), Some("W+R"));
    t.take("H1");
    t.take("J1");
    t.wait(1_000);
    let state = t.referee.state();
    assert_eq!(state.end_signal, None);
    assert_eq!(state.proposed_result, None);
    assert!(
        t.referee
            .handle(t.now, Input::Arbiter(ArbiterCommand::ConfirmResult))
            .is_err(),
        "nothing left to confirm"
    );
    t.play("D4", W, &[]);
    assert_eq!(t.referee.state().move_number, 4, "play goes on");
}

#[test]
fn stones_away_from_the_corner_or_a_switched_off_signal_are_no_resignation() {
    let mut t = Table::nine();
    opening(&mut t);
    let (e1, f1) = (t.idx("E1"), t.idx("F1"));
    t.set(&[(e1, Reading::White), (f1, Reading::White)]);
    t.wait(1_000);
    assert_eq!(signal(&t), None);
    assert!(!t.alerts().is_empty(), "a double move, as before");

    let mut t = Table::started(RefereeConfig {
        size: 9,
        resignation_signal: ResignationSignal {
            enabled: false,
            reach: 1,
        },
        ..RefereeConfig::default()
    });
    opening(&mut t);
    let (a9, b9) = (t.idx("A9"), t.idx("B9"));
    t.set(&[(a9, Reading::White), (b9, Reading::White)]);
    t.wait(1_000);
    assert_eq!(signal(&t), None);
}

#[test]
fn the_mover_then_the_opponent_putting_stones_outside_the_lines_end_play() {
    let mut t = Table::nine();
    opening(&mut t);
    // White is to move: a black stone in White's zone, then a white stone in Black's.
    zones(&mut t, Reading::Empty, Reading::Black);
    assert_eq!(
        signal(&t),
        Some(EndSignal::AgreedEndProposed {
            color: W,
            move_number: 3
        })
    );
    assert_eq!(t.referee.state().phase, Phase::Playing);
    zones(&mut t, Reading::White, Reading::Black);
    let state = t.referee.state();
    assert_eq!(state.phase, Phase::Counting);
    assert_eq!(state.end_signal, None);
    assert_eq!(state.move_number, 3, "no pass recorded");
}

#[test]
fn the_wrong_order_or_colour_changes_nothing() {
    let mut t = Table::nine();
    opening(&mut t);
    // Black is not to move: Black first is out of order.
    zones(&mut t, Reading::White, Reading::Empty);
    assert_eq!(
        signal(&t),
        Some(EndSignal::OutOfOrder {
            zone: B,
            stone: W,
            move_number: 3
        })
    );
    // White answers with its own colour: out of order again.
    zones(&mut t, Reading::White, Reading::White);
    assert!(matches!(
        signal(&t),
        Some(EndSignal::OutOfOrder { zone: W, .. })
    ));
    assert_eq!(t.referee.state().phase, Phase::Playing);
    t.play("D4", W, &[]);
    assert_eq!(t.referee.state().move_number, 4);
}

#[test]
fn one_signal_alone_lapses_when_play_goes_on() {
    let mut t = Table::nine();
    opening(&mut t);
    zones(&mut t, Reading::Empty, Reading::Black);
    assert!(matches!(
        signal(&t),
        Some(EndSignal::AgreedEndProposed { color: W, .. })
    ));
    // Play goes on instead; White takes the stone back out of the zone.
    zones(&mut t, Reading::Empty, Reading::Empty);
    t.play("D4", W, &[]);
    t.play("E6", B, &[]);
    // Black's answer now comes too late (CN2002 21.1), White being to move: nothing ends.
    zones(&mut t, Reading::White, Reading::Empty);
    assert_eq!(t.referee.state().phase, Phase::Playing);
    assert!(matches!(
        signal(&t),
        Some(EndSignal::OutOfOrder { zone: B, .. })
    ));
}

#[test]
fn a_zone_flicker_shorter_than_the_settle_time_is_no_signal() {
    let mut t = Table::nine();
    opening(&mut t);
    t.send(Input::BoardZones {
        black: Reading::Empty,
        white: Reading::Black,
    });
    t.wait(100);
    t.send(Input::BoardZones {
        black: Reading::Empty,
        white: Reading::Empty,
    });
    t.wait(1_000);
    assert_eq!(signal(&t), None);
}

#[test]
fn the_player_not_to_move_placing_the_stones_one_by_one_gets_the_proposal_and_an_alert_to_dismiss()
{
    let mut t = Table::nine();
    opening(&mut t);
    // White is to move; Black resigns one stone at a time: the first is a double move.
    t.put("J1", B);
    t.wait(400);
    assert_eq!(t.alerts().len(), 1, "double_move advised");
    t.put("H1", B);
    t.wait(1_000);
    let state = t.referee.state();
    assert!(
        matches!(
            state.end_signal,
            Some(EndSignal::Resignation { color: B, .. })
        ),
        "{:?}",
        state.end_signal
    );
    assert_eq!(state.move_number, 3, "the double move is withdrawn");
    assert_eq!(state.proposed_result.as_deref(), Some("W+R"));
}
