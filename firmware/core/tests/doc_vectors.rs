//! The device core reproduces, byte for byte, the test vectors of docs/protocol.md
//! (sections 9, 10.1 and 10.2) from the sensor readings, button levels and host
//! frames that they describe.

mod common;

use common::{Lines, Stones, board_config, clock_config, powered};
use goban_device::{Board, Clock, Display, HostLink};
use goban_protocol::{BoardSize, Key, Point, PointState, Running};

const DOC: &str = include_str!("../../../docs/protocol.md");

/// Checks that `line` is a vector the document prints, and returns it.
fn documented(line: &str) -> String {
    assert!(
        DOC.lines().any(|l| l.trim() == line) || DOC.contains(&format!("`{line}`")),
        "{line} is not a vector of docs/protocol.md"
    );
    line.to_owned()
}

#[test]
fn a_9x9_board_session_of_section_9() {
    let (mut out, mut stones) = (Lines::default(), Stones::new(BoardSize::NINE));
    let config = board_config(BoardSize::NINE, "fw-1.2.0", "SB-000417");
    let mut board = powered(config, &mut stones, 1200, &mut out);
    let empty = format!("$SNAP,0,1200,{}*B939", ".".repeat(81));
    let hello = documented("$HELLO,BOARD,1,9,fw-1.2.0,SB-000417*19B1");
    assert_eq!(out.take(), [hello, documented(&empty)]);

    stones.set(40, PointState::Black);
    assert_eq!(board.scan(&mut stones, 5311, &mut out), 1);
    assert_eq!(out.take(), [documented("$DIFF,1,5311,40B*817D")]);

    // A board whose sensors are read from the last point down lists 41 before 40.
    stones
        .set(40, PointState::Empty)
        .set(41, PointState::White)
        .reversed = true;
    assert_eq!(board.scan(&mut stones, 6100, &mut out), 2);
    assert_eq!(out.take(), [documented("$DIFF,2,6100,41W;40.*143B")]);
    assert_eq!(
        board.scan(&mut stones, 6105, &mut out),
        0,
        "nothing changed"
    );
    assert!(out.take().is_empty());
}

#[test]
fn a_board_beats_when_it_has_nothing_else_to_say_and_reports_faults() {
    let (mut out, mut stones) = (Lines::default(), Stones::new(BoardSize::NINE));
    let config = board_config(BoardSize::NINE, "fw-1.2.0", "SB-000417");
    let mut board = powered(config, &mut stones, 0, &mut out);
    out.take();
    board.poll(499, &mut out);
    assert!(out.take().is_empty(), "half a second has not passed");
    board.poll(1000, &mut out);
    assert_eq!(out.take(), [documented("$BEAT,1000*03BB")]);
    board.fault("ROW", "row 3 dead", 1001, &mut out);
    assert_eq!(out.take(), [documented("$FAULT,ROW,row 3 dead*0F4C")]);
}

#[test]
fn the_clock_of_section_9_presses_and_keys() {
    let mut out = Lines::default();
    let mut clock = Clock::new(clock_config("fw-0.9", "CK-0001"));
    clock.power_up(0, &mut out);
    assert_eq!(
        out.take(),
        [documented("$HELLO,CLOCK,1,fw-0.9,CK-0001*9A07")]
    );
    // The contact closes at 5790 and bounces for 2 ms; once it has held for the settle
    // time the press goes out, stamped when the contact first closed.
    for (t, level) in [(5790, true), (5791, false), (5792, true)] {
        clock.sample_buttons([level, false], t, &mut out);
    }
    for t in 5793..5800 {
        clock.sample_buttons([true, false], t, &mut out);
    }
    assert_eq!(out.take(), [documented("$PRESS,0,5790,L*D0D2")]);
    clock.key(Key::ResignR, 9000, 9000, &mut out);
    assert_eq!(out.take(), [documented("$KEY,1,9000,RESIGN_R*6D12")]);
}

#[test]
fn host_frames_of_section_9_reach_the_board_and_the_clock() {
    let (mut out, mut stones) = (Lines::default(), Stones::new(BoardSize::NINE));
    let config = board_config(BoardSize::NINE, "fw-1.2.0", "SB-000417");
    let mut board = powered(config, &mut stones, 0, &mut out);
    let mut clock = Clock::new(clock_config("fw-0.9", "CK-0001"));
    out.take();
    let host = ["$HELLO?*C851", "$SNAP?*C5B4", "$LED,40;41*1D62"];
    let mut link = HostLink::new();
    let bytes: String = host.iter().map(|l| documented(l) + "\r\n").collect();
    link.feed(bytes.as_bytes(), |frame| {
        board.handle_host(frame, 700, &mut out)
    });
    let lines = out.take();
    let snap = |seq| format!("$SNAP,{seq},700,{}", ".".repeat(81));
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[0], "$HELLO,BOARD,1,9,fw-1.2.0,SB-000417*19B1");
    assert!(lines[1].starts_with(&snap(1)) && lines[2].starts_with(&snap(2)));
    assert_eq!(board.lit().collect::<Vec<_>>(), [Point(40), Point(41)]);
    link.feed(documented("$LED*5E29").as_bytes(), |_| panic!("no LF yet"));
    link.feed(b"\n", |frame| board.handle_host(frame, 800, &mut out));
    assert_eq!(board.lit().count(), 0, "$LED clears the lights");

    let clock_bytes =
        documented("$SHOW,600000,598000,5,5,B*68AD") + "\n" + &documented("$BEEP,3*14D3") + "\n";
    link.feed(clock_bytes.as_bytes(), |frame| {
        clock.handle_host(frame, 900, &mut out)
    });
    let shown = Display {
        black_ms: 600_000,
        white_ms: 598_000,
        black_periods: 5,
        white_periods: 5,
        running: Running::Black,
    };
    assert_eq!(clock.display(), Some(&shown));
    assert_eq!(clock.take_beeps(), 3);
    assert!(out.take().is_empty(), "display commands are not answered");
    assert_eq!(link.stats().rejections.total(), 0);
}

#[test]
fn v1_1_caps_sync_and_zones_of_section_10() {
    let mut out = Lines::default();
    let mut stones = Stones::new(BoardSize::NINETEEN);
    let mut config = board_config(BoardSize::NINETEEN, "fw-2.0.0", "SB-000418");
    config.sync = true;
    let mut board = powered(config, &mut stones, 1200, &mut out);
    let lines = out.take();
    assert_eq!(
        lines[..2],
        [
            documented("$HELLO,BOARD,1,19,fw-2.0.0,SB-000418*4DBC"),
            documented("$CAPS,SYNC*744C")
        ]
    );
    assert!(lines[2].starts_with("$SNAP,0,1200,") && lines.len() == 3);
    let mut link = HostLink::new();
    link.feed(documented("$SYNC,1*E0E8").as_bytes(), |_| {});
    link.feed(b"\n", |frame| board.handle_host(frame, 1210, &mut out));
    assert_eq!(out.take(), [documented("$SYNC,1,1210*48D5")]);

    let mut stones = Stones::new(BoardSize::NINE);
    stones.zones = Some([PointState::Empty; 2]);
    let mut config = board_config(BoardSize::NINE, "fw-1.2.0", "SB-000417");
    config.zones = true;
    let mut board = powered(config, &mut stones, 1200, &mut out);
    let lines = out.take();
    assert_eq!(lines[1], documented("$CAPS,ZONE*163E"));
    assert_eq!(lines[3], documented("$ZONE,1200,..*C3AC"));
    stones.zones = Some([PointState::White, PointState::Empty]);
    assert_eq!(
        board.scan(&mut stones, 5400, &mut out),
        0,
        "no point changed"
    );
    assert_eq!(out.take(), [documented("$ZONE,5400,W.*3D4A")]);

    config.sync = true;
    let mut board = Board::new(config);
    board.hello(0, &mut out);
    assert_eq!(out.take()[1], documented("$CAPS,SYNC;ZONE*4F91"));
    let mut config = clock_config("fw-0.9", "CK-0001");
    config.sync = true;
    Clock::new(config).hello(0, &mut out);
    assert_eq!(out.take()[1], documented("$CAPS,SYNC*744C"));
}
