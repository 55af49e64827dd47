//! The order of play as the hall showed it (issue 39): a flickering newest stone, a first move before the board is read, one act one alert, a tie.

mod common;

use common::table::{T0, Table, stone};
use goban_referee::{
    ArbiterCommand, Device, EventKind, GameSetup, Input, Reading, RefereeConfig, Timestamp,
};
use goban_rules::Color;

const B: Color = Color::Black;
const W: Color = Color::White;

fn kinds(t: &Table) -> Vec<String> {
    t.alerts()
        .iter()
        .map(|a| format!("{} {}", a.kind.id(), a.move_number))
        .collect()
}

/// A 19x19 game with a few clean moves, White to move.
fn nineteen_white_to_move() -> Table {
    let mut t = Table::started(RefereeConfig::default());
    for (p, c) in [("D4", B), ("Q16", W), ("D16", B), ("Q4", W), ("K10", B)] {
        t.play(p, c, &[]);
    }
    t
}

/// How White's newest stone flickers before Black's reply lands: the ms from its placement to
/// its press and from its press to the flicker, and how the reply's reading comes.
struct Flicker {
    newest: &'static str,
    reply: &'static str,
    press_after: u64,
    flicker_after: u64,
    reply_press_after: u64,
    frames: Frames,
}

/// The reading that ends the flicker and shows the reply.
#[derive(Clone, Copy, Debug)]
enum Frames {
    /// One DIFF with both points.
    One,
    /// Two DIFFs of the same millisecond, the returning stone first.
    StoneFirst,
    /// Two DIFFs of the same millisecond, the reply first.
    ReplyFirst,
}

/// White places `newest` and presses, it reads empty 50 ms, it comes back with Black's reply,
/// and Black presses: the moves must be in the order played, with no alert.
fn play_flicker(f: &Flicker) {
    let mut t = nineteen_white_to_move();
    let (newest, reply) = (t.idx(f.newest), t.idx(f.reply));
    t.put(f.newest, W);
    t.wait(f.press_after);
    t.press_white();
    t.wait(f.flicker_after);
    t.set(&[(newest, Reading::Empty)]);
    t.wait(50);
    match f.frames {
        Frames::One => t.set(&[(newest, stone(W)), (reply, stone(B))]),
        Frames::StoneFirst => {
            t.set(&[(newest, stone(W))]);
            t.set(&[(reply, stone(B))]);
        }
        Frames::ReplyFirst => {
            t.set(&[(reply, stone(B))]);
            t.set(&[(newest, stone(W))]);
        }
    }
    t.wait(f.reply_press_after);
    t.press_black();
    t.wait(3_000);
    assert_eq!(
        t.moves(),
        ["D4", "Q16", "D16", "Q4", "K10", f.newest, f.reply],
        "moves in the order played: {:?}",
        f.frames
    );
    assert!(kinds(&t).is_empty(), "no alert: {:?}", kinds(&t));
}

/// Issue 39.1, as the hall recorded it: White's stone read 42.104 and pressed 42.183; it reads
/// empty 42.324-42.374 (a hand's flicker) and comes back in the very reading that shows Black's
/// reply, which Black presses at 42.431; also with the two in two frames of that millisecond,
/// in either order. The flicker is noise: White's stone keeps its place.
#[test]
fn a_flicker_of_the_newest_stone_ending_with_the_reply_keeps_the_order() {
    for frames in [Frames::One, Frames::StoneFirst, Frames::ReplyFirst] {
        play_flicker(&Flicker {
            newest: "E13",
            reply: "G14",
            press_after: 79,
            flicker_after: 141,
            reply_press_after: 57,
            frames,
        });
    }
}

/// The same flicker when White's stone was already reported before it flickered.
#[test]
fn a_flicker_of_a_recorded_stone_is_noise() {
    play_flicker(&Flicker {
        newest: "E13",
        reply: "G14",
        press_after: 80,
        flicker_after: 600,
        reply_press_after: 60,
        frames: Frames::One,
    });
}

/// The takeback run's signature at 0.4 s a move: placed 43.939, pressed 44.022, flicker
/// 44.214-44.264, the reply 44.264 on a neighbour's neighbour.
#[test]
fn a_flicker_just_before_the_reply_beside_it_keeps_the_order() {
    play_flicker(&Flicker {
        newest: "O10",
        reply: "M10",
        press_after: 83,
        flicker_after: 192,
        reply_press_after: 80,
        frames: Frames::One,
    });
}

/// A stone lifted for longer than a flicker and put back is placed again: its time is the
/// second placement (a press between the two is then premature, CN2002 17.4).
#[test]
fn a_stone_lifted_and_put_back_dates_from_its_return() {
    let mut t = nineteen_white_to_move();
    let e13 = t.idx("E13");
    t.put("E13", W);
    t.wait(100);
    t.set(&[(e13, Reading::Empty)]);
    t.wait(50);
    t.press_white();
    t.wait(400);
    t.set(&[(e13, stone(W))]);
    t.wait(3_000);
    assert_eq!(t.moves(), ["D4", "Q16", "D16", "Q4", "K10", "E13"]);
    assert_eq!(kinds(&t), ["premature_press 6"]);
}

/// Issue 39.3: a double move (White R15 read 28.610, pressed 28.755; the extra stone S14
/// 28.908, pressed 28.970) is one `double_move`, never also a premature press.
#[test]
fn a_pressed_double_move_is_one_alert() {
    let mut t = nineteen_white_to_move();
    t.put("R15", W);
    t.wait(145);
    t.press_white();
    t.wait(153);
    t.put("S14", W);
    t.wait(62);
    t.press_white();
    t.wait(5_000);
    let alerts = kinds(&t);
    assert_eq!(alerts.len(), 1, "one act, one alert: {alerts:?}");
    assert!(alerts[0].starts_with("double_move"), "{alerts:?}");
}

/// Issue 39.4: a stone and its press in the same millisecond are a tie, and a tie goes to the
/// player: the hand travels from the board to the clock.
#[test]
fn a_stone_and_its_press_in_the_same_millisecond_are_no_premature_press() {
    let mut t = nineteen_white_to_move();
    t.put("R15", W);
    t.press_white();
    t.wait(1_000);
    t.play("C3", B, &[]);
    assert_eq!(t.moves(), ["D4", "Q16", "D16", "Q4", "K10", "R15", "C3"]);
    assert!(kinds(&t).is_empty(), "no alert: {:?}", kinds(&t));
}

/// Issue 39.2: the game starts before the board's first reading arrives; Black's stone and
/// press come 0.1-0.3 s after the start and the board is read 0.35-0.9 s after it. The press
/// is explained by the board as it first reads, and the game goes on.
#[test]
fn a_first_move_before_the_board_is_read_is_recovered_and_play_goes_on() {
    for (press_ms, read_ms) in [(100, 350), (300, 900), (200, 600), (250, 260)] {
        let mut t = Table::unread(RefereeConfig::default());
        t.send(Input::DeviceConnected {
            device: Device::Board,
        });
        t.send(Input::DeviceConnected {
            device: Device::Clock,
        });
        t.arbiter(ArbiterCommand::StartGame(GameSetup::default()));
        t.wait(press_ms - 60);
        let i = t.idx("Q16");
        t.board[i] = stone(B);
        t.wait(60);
        t.press_black();
        t.wait(read_ms - press_ms);
        let points: String = t.board.iter().map(|r| r.to_char()).collect();
        t.send(Input::BoardSnapshot { points });
        t.wait(1_000);
        t.play("Q4", W, &[]);
        t.play("D16", B, &[]);
        t.play("D4", W, &[]);
        assert_eq!(
            t.moves(),
            ["Q16", "Q4", "D16", "D4"],
            "press at {press_ms} ms, read at {read_ms} ms"
        );
        assert!(kinds(&t).is_empty(), "no alert: {:?}", kinds(&t));
        let open: Vec<_> = t
            .referee
            .state()
            .device
            .alerts
            .into_iter()
            .filter(|a| a.resolved_at.is_none())
            .collect();
        assert!(open.is_empty(), "no open device alert: {open:?}");
        assert!(t.now > Timestamp(T0));
    }
}

/// Issue 39.2 with two moves before the board reads: Black and White each placed and pressed.
#[test]
fn two_moves_before_the_board_is_read_are_recovered() {
    let mut t = Table::unread(RefereeConfig::default());
    t.send(Input::DeviceConnected {
        device: Device::Board,
    });
    t.send(Input::DeviceConnected {
        device: Device::Clock,
    });
    t.arbiter(ArbiterCommand::StartGame(GameSetup::default()));
    t.wait(150);
    let i = t.idx("Q16");
    t.board[i] = stone(B);
    t.wait(60);
    t.press_black();
    t.wait(300);
    let i = t.idx("Q4");
    t.board[i] = stone(W);
    t.wait(80);
    t.press_white();
    t.wait(300);
    let points: String = t.board.iter().map(|r| r.to_char()).collect();
    t.send(Input::BoardSnapshot { points });
    t.wait(1_500);
    t.play("D16", B, &[]);
    assert_eq!(t.moves(), ["Q16", "Q4", "D16"]);
    assert!(kinds(&t).is_empty(), "no alert: {:?}", kinds(&t));
    let phases = t.events_where(|k| matches!(k, EventKind::Phase { .. }));
    assert!(phases.len() <= 1, "no counting: {phases:?}");
}

/// The flicker inside blitz at 0.25 s a move: the moves before it are still settling when the
/// flickering stone and the reply are read.
#[test]
fn a_flicker_at_blitz_pace_keeps_the_order() {
    let near: [&[(&str, Color)]; 3] = [
        &[("F12", B), ("E13", W), ("G14", B)],
        &[("D12", B), ("E13", W), ("G14", B)],
        &[("H13", B), ("E13", W), ("G14", B)],
    ];
    for moves in near {
        for gap in [250, 200, 150] {
            let mut t = nineteen_white_to_move();
            t.play("C3", W, &[]);
            let (b1, w, b2) = (moves[0].0, moves[1].0, moves[2].0);
            let (iw, ib2) = (t.idx(w), t.idx(b2));
            t.put(b1, B);
            t.wait(79);
            t.press_black();
            t.wait(gap - 79);
            t.put(w, W);
            t.wait(79);
            t.press_white();
            t.wait(141);
            t.set(&[(iw, Reading::Empty)]);
            t.wait(50);
            t.set(&[(iw, stone(W)), (ib2, stone(B))]);
            t.wait(57);
            t.press_black();
            t.wait(3_000);
            let got = t.moves();
            assert_eq!(
                &got[got.len() - 3..],
                [b1, w, b2],
                "{moves:?} gap {gap}: {:?}",
                kinds(&t)
            );
            assert!(kinds(&t).is_empty(), "{moves:?} gap {gap}: {:?}", kinds(&t));
        }
    }
}
