//! Acts corrected by the players inside or beyond the grace time (double move, takeback, displaced stone, after 0.3–3 s): the record follows the corrected board, the opponent's reply is judged against it, one alert per act.

mod common;

use common::table::Table;
use goban_referee::{EventKind, InfractionKind};
use goban_rules::Color;

const B: Color = Color::Black;
const W: Color = Color::White;

const DELAYS: [u64; 5] = [300, 800, 1_500, 2_400, 3_000];

fn opening() -> Table {
    let mut t = Table::nine();
    t.play("E5", B, &[]);
    t.play("C3", W, &[]);
    t.play("G7", B, &[]);
    t
}

fn kinds(t: &Table) -> Vec<InfractionKind> {
    t.alerts().iter().map(|a| a.kind).collect()
}

#[test]
fn a_lifted_double_move_leaves_the_record_and_the_reply_is_clean() {
    for delay in DELAYS {
        for reply_after in [200, 1_000] {
            let mut t = opening();
            t.put("D4", B);
            t.wait(delay);
            t.take("D4");
            t.wait(reply_after);
            t.play("C7", W, &[]);
            t.play("G3", B, &[]);
            t.wait(5_000);
            let what = format!("lifted after {delay} ms, reply {reply_after} ms later");
            assert_eq!(t.moves(), vec!["E5", "C3", "G7", "C7", "G3"], "{what}");
            assert_eq!(kinds(&t), vec![InfractionKind::DoubleMove], "{what}");
            let withdrawn = t.events_where(|k| {
                matches!(k, EventKind::Correction { now, reason, .. } if now == "none" && reason.contains("double move"))
            });
            assert_eq!(withdrawn.len(), 1, "{what}");
        }
    }
}

#[test]
fn a_takeback_put_right_is_one_alert_and_the_reply_is_clean() {
    for delay in DELAYS {
        let mut t = opening();
        let (g7, g6) = (t.idx("G7"), t.idx("G6"));
        t.set(&[
            (g7, goban_referee::Reading::Empty),
            (g6, goban_referee::Reading::Black),
        ]);
        t.wait(delay);
        t.set(&[
            (g6, goban_referee::Reading::Empty),
            (g7, goban_referee::Reading::Black),
        ]);
        t.wait(300);
        t.play("C7", W, &[]);
        t.play("G3", B, &[]);
        t.wait(5_000);
        let what = format!("put right after {delay} ms");
        assert_eq!(t.moves(), vec!["E5", "C3", "G7", "C7", "G3"], "{what}");
        assert!(
            kinds(&t).len() <= 1 && kinds(&t).iter().all(|k| *k == InfractionKind::Takeback),
            "{what}: {:?}",
            kinds(&t)
        );
    }
}

#[test]
fn a_displaced_stone_put_back_is_one_alert_and_the_reply_is_clean() {
    for delay in DELAYS {
        let mut t = opening();
        let (e5, e6) = (t.idx("E5"), t.idx("E6"));
        t.set(&[
            (e5, goban_referee::Reading::Empty),
            (e6, goban_referee::Reading::Black),
        ]);
        t.wait(delay);
        t.set(&[
            (e6, goban_referee::Reading::Empty),
            (e5, goban_referee::Reading::Black),
        ]);
        t.wait(300);
        t.play("C7", W, &[]);
        t.play("G3", B, &[]);
        t.wait(5_000);
        let what = format!("put back after {delay} ms");
        assert_eq!(t.moves(), vec!["E5", "C3", "G7", "C7", "G3"], "{what}");
        assert!(
            kinds(&t).len() <= 1
                && kinds(&t)
                    .iter()
                    .all(|k| *k == InfractionKind::DisplacedStones),
            "{what}: {:?}",
            kinds(&t)
        );
    }
}

#[test]
fn a_stone_taken_back_before_the_press_is_withdrawn_before_the_reply() {
    for delay in DELAYS {
        let mut t = opening();
        t.wait(500);
        // White places C7, thinks better of it, lifts it and plays D6 instead; then presses.
        t.put("C7", W);
        t.wait(delay);
        t.take("C7");
        t.wait(300);
        t.put("D6", W);
        t.wait(500);
        t.press_white();
        t.wait(1_000);
        t.play("G3", B, &[]);
        t.wait(5_000);
        let what = format!("lifted after {delay} ms");
        assert_eq!(t.moves(), vec!["E5", "C3", "G7", "D6", "G3"], "{what}");
        assert!(kinds(&t).is_empty(), "{what}: {:?}", kinds(&t));
    }
}
