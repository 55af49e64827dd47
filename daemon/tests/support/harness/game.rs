//! The short 9x9 game of the e2e tests: a ko shape, a capture (CN2002 5), and the ko retaken at once (CN2002 18.3).

use std::time::Duration;

use serde_json::Value;

use super::daemon::Daemon;
use super::device::Device;

/// One move: colour (`b'B'`/`b'W'`), row and column from Black's top-left (wire-protocol.md), stones it lifts.
pub(crate) type Play = (u8, usize, usize, &'static [(usize, usize)]);

/// D7 E7 C6 F6 D5 E5 H2 D6: White's D6 is left with one liberty.
pub(crate) const OPENING: [Play; 8] = [
    (b'B', 2, 3, &[]),
    (b'W', 2, 4, &[]),
    (b'B', 3, 2, &[]),
    (b'W', 3, 5, &[]),
    (b'B', 4, 3, &[]),
    (b'W', 4, 4, &[]),
    (b'B', 7, 7, &[]),
    (b'W', 3, 3, &[]),
];
/// E6 takes D6: a ko.
pub(crate) const CAPTURE: Play = (b'B', 3, 4, &[(3, 3)]);
/// D6 retakes at once: a `ko_violation` (CN2002 18.3).
pub(crate) const KO_RETAKE: Play = (b'W', 3, 3, &[(3, 4)]);
/// Two quiet moves after the game: A1 (Black) and J9 (White).
pub(crate) const LATER: [Play; 2] = [(b'B', 8, 0, &[]), (b'W', 0, 8, &[])];

/// The api.md name of a 9x9 point ("D7").
pub(crate) fn point_name(row: usize, col: usize) -> String {
    let letters = b"ABCDEFGHJ";
    format!("{}{}", letters[col] as char, 9 - row)
}

/// Places the stone, lifts captured stones one by one (each settles), then presses (L Black, R White).
pub(crate) async fn act(board: &Device, clock: &Device, play: Play) {
    let (colour, row, col, removes) = play;
    board.set(&[(row * 9 + col, colour)]);
    tokio::time::sleep(Duration::from_millis(300)).await;
    for &(r, c) in removes {
        board.set(&[(r * 9 + c, b'.')]);
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    clock.press(if colour == b'B' { 'L' } else { 'R' });
}

/// One complete move, waiting until REST shows `move_number` grown by one.
pub(crate) async fn play(daemon: &Daemon, board: &Device, clock: &Device, play: Play) -> Value {
    daemon.wait_board_reads().await;
    let before = daemon.state().await["move_number"].as_u64().unwrap_or(0);
    act(board, clock, play).await;
    let what = format!(
        "move {} at {} on REST",
        before + 1,
        point_name(play.1, play.2)
    );
    daemon
        .wait_state(&what, |s| s["move_number"].as_u64() >= Some(before + 1))
        .await
}
