//! The board unplugged 1–10 s with 0–3 moves meanwhile: no pass is guessed; the moves are recovered when one sequence explains them, else one device alert asks the arbiter.

mod common;

use common::hall::{device_alerts, phases, put_unseen, replug, take_unseen, unplug};
use common::table::Table;
use goban_referee::{DeviceAlertKind, EventKind, Interpretation};
use goban_rules::Color;

const B: Color = Color::Black;
const W: Color = Color::White;

fn timed_table() -> Table {
    Table::timed_nine()
}

/// Plays `moves` while the board is unplugged for `down_ms` in all.
fn unplugged_moves(t: &mut Table, down_ms: u64, moves: &[(&str, Color)]) {
    unplug(t);
    let slice = down_ms / (moves.len() as u64 + 1);
    for &(p, c) in moves {
        t.wait(slice.saturating_sub(400));
        put_unseen(t, p, c);
        t.wait(400);
        t.press(common::hall::button(c));
    }
    t.wait(slice);
    replug(t);
    t.wait(1_500);
}

fn infractions(t: &Table) -> Vec<String> {
    t.alerts().iter().map(|a| a.kind.id().to_owned()).collect()
}

const MEANWHILE: [(&str, Color); 3] = [("G7", B), ("C7", W), ("G3", B)];

#[test]
fn zero_to_two_moves_while_unplugged_are_recovered_with_their_clock() {
    for down_s in [1, 3, 6, 10] {
        for k in 0..=2 {
            let mut t = timed_table();
            unplugged_moves(&mut t, down_s * 1_000, &MEANWHILE[..k]);
            let mut want = vec!["E5", "C3"];
            want.extend(MEANWHILE[..k].iter().map(|m| m.0));
            assert_eq!(
                t.moves(),
                want,
                "down {down_s} s, {k} moves: {:?}",
                t.referee.state().device
            );
            assert!(infractions(&t).is_empty(), "{:?}", t.alerts());
            let state = t.referee.state();
            assert_eq!(state.device.unexplained_presses, 0);
            assert_eq!(state.device.interpretation, Interpretation::Reading);
            let asked = device_alerts(&t, DeviceAlertKind::BoardUnavailable);
            assert_eq!(asked.len(), usize::from(k > 0), "one alert per episode");
            assert!(asked.iter().all(|a| a.resolved_at.is_some()));
            for record in state.moves.iter_from(2) {
                assert!(record.time_left_ms.is_some(), "{record:?}");
            }
            let recovered = t.events_where(
                |e| matches!(e, EventKind::Correction { was, reason, .. } if was == "none" && reason.contains("board could see again")),
            );
            assert_eq!(recovered.len(), k);
            // Play goes on normally.
            let next = state.to_move;
            t.play("J9", next, &[]);
            t.play("A1", next.opponent(), &[]);
            assert_eq!(t.moves().len(), 4 + k);
            assert!(infractions(&t).is_empty(), "{:?}", t.alerts());
        }
    }
}

#[test]
fn three_moves_with_two_stones_of_one_colour_are_a_block_of_unknown_order_and_play_goes_on() {
    for down_s in [3, 5, 10] {
        let mut t = timed_table();
        unplugged_moves(&mut t, down_s * 1_000, &MEANWHILE);
        let state = t.referee.state();
        // Recorded, listed by point (C7, G7, G3 in index order), the order left unknown.
        assert_eq!(
            t.moves(),
            vec!["E5", "C3", "C7", "G7", "G3"],
            "down {down_s} s"
        );
        let known: Vec<bool> = state.moves.iter().map(|m| m.order_known).collect();
        assert_eq!(known, [true, true, false, false, false]);
        assert!(
            state.moves.iter_from(2).all(|m| m.time_left_ms.is_none()),
            "no press is pinned on a stone"
        );
        assert!(infractions(&t).is_empty(), "{:?}", t.alerts());
        let asked = device_alerts(&t, DeviceAlertKind::BoardUnavailable);
        assert_eq!(asked.len(), 1);
        assert_eq!(
            asked[0].presses_unexplained, 0,
            "the presses are the block's"
        );
        assert!(
            asked[0].resolved_at.is_none(),
            "the order stays the arbiter's to give"
        );
        assert!(
            asked[0].message.contains("moves 3-5, order unknown"),
            "{:?}",
            asked[0]
        );
        assert_eq!(state.device.interpretation, Interpretation::Reading);
        assert_eq!(state.device.unexplained_presses, 0);
        assert!(!phases(&t).iter().any(|p| p == "Counting"));
        // Later moves are read in order, numbered after the block, with their clock.
        t.play("A1", W, &[]);
        t.play("J9", B, &[]);
        assert_eq!(t.moves()[5..], ["A1", "J9"]);
        let state = t.referee.state();
        assert!(
            state
                .moves
                .iter_from(5)
                .all(|m| m.order_known && m.time_left_ms.is_some())
        );
        assert_eq!(
            state
                .moves
                .iter_from(5)
                .map(|m| m.number)
                .collect::<Vec<_>>(),
            [6, 7]
        );
        assert!(infractions(&t).is_empty(), "{:?}", t.alerts());
        let asked = device_alerts(&t, DeviceAlertKind::BoardUnavailable);
        assert_eq!(asked.len(), 1, "still one alert for the episode");
        // A later spell of blindness with one move is explained, and asks on its own.
        unplugged_moves(&mut t, 3_000, &[("B2", W)]);
        assert_eq!(t.moves().last().map(String::as_str), Some("B2"));
        let asked = device_alerts(&t, DeviceAlertKind::BoardUnavailable);
        assert_eq!(asked.len(), 2);
        assert!(asked[0].resolved_at.is_none() && asked[1].resolved_at.is_some());
    }
}

#[test]
fn two_bare_presses_while_unplugged_never_end_the_game() {
    let mut t = timed_table();
    unplugged_moves(&mut t, 4_000, &[]);
    unplug(&mut t);
    t.wait(500);
    t.press_black();
    t.wait(800);
    t.press_white();
    t.wait(3_000);
    replug(&mut t);
    t.wait(10_000);
    assert_eq!(t.moves(), vec!["E5", "C3"]);
    assert!(!phases(&t).iter().any(|p| p == "Counting"));
    let asked = device_alerts(&t, DeviceAlertKind::BoardUnavailable);
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].presses_unexplained, 2);
    assert!(infractions(&t).is_empty(), "{:?}", t.alerts());
}

#[test]
fn a_pass_then_a_stone_while_unplugged_is_the_one_explanation() {
    let mut t = timed_table();
    unplug(&mut t);
    t.wait(600);
    t.press_black();
    t.wait(900);
    put_unseen(&mut t, "G7", W);
    t.wait(300);
    t.press_white();
    t.wait(700);
    replug(&mut t);
    t.wait(1_500);
    assert_eq!(t.moves(), vec!["E5", "C3", "pass", "G7"]);
    assert!(infractions(&t).is_empty(), "{:?}", t.alerts());
}

#[test]
fn a_bare_press_while_unplugged_followed_by_its_stone_is_not_premature() {
    let mut t = timed_table();
    unplug(&mut t);
    t.wait(300);
    put_unseen(&mut t, "G7", B);
    t.wait(200);
    t.press_black();
    t.wait(2_000);
    replug(&mut t);
    t.wait(1_500);
    t.play("C7", W, &[]);
    assert_eq!(t.moves(), vec!["E5", "C3", "G7", "C7"]);
    assert!(infractions(&t).is_empty(), "{:?}", t.alerts());
}

#[test]
fn a_stone_taken_off_while_unplugged_is_not_explained_by_moves() {
    let mut t = timed_table();
    unplug(&mut t);
    t.wait(300);
    take_unseen(&mut t, "E5");
    put_unseen(&mut t, "G7", B);
    t.press_black();
    t.wait(1_000);
    replug(&mut t);
    t.wait(1_500);
    assert_eq!(t.moves(), vec!["E5", "C3"]);
    assert_eq!(
        device_alerts(&t, DeviceAlertKind::BoardUnavailable)[0].presses_unexplained,
        1
    );
}
