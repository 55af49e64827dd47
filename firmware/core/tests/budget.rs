//! The scan budget (docs/hardware.md, "Scan budget"), checked on the host by counting:
//! sensor reads and output per scan, and the scans a change needs before it is sent,
//! placed on the reference firmware's time line (a scan every `SCAN_PERIOD_MS`, a point
//! every `POINT_READ_US`). No clock is read: the times are the model's.

mod common;

use common::{Lines, Stones, board_config, powered};
use goban_device::budget::{
    CONFIRM_SCANS, MIN_SCAN_HZ, POINT_READ_US, POINTS, REPORT_WITHIN_MS, SCAN_PERIOD_MS, scan_hz,
};
use goban_device::{Board, Reading, SensorMatrix};
use goban_protocol::{BoardSize, PointState};

#[test]
fn a_scan_reads_every_point_once_and_sends_nothing_when_nothing_changed() {
    let (mut out, mut stones) = (Lines::default(), Stones::new(BoardSize::NINETEEN));
    let mut config = board_config(BoardSize::NINETEEN, "fw", "SN");
    config.confirm = CONFIRM_SCANS;
    let mut board = powered(config, &mut stones, 0, &mut out);
    out.take();
    let reads = stones.reads;
    for scan in 1..=100 {
        board.scan(&mut stones, scan * SCAN_PERIOD_MS, &mut out);
    }
    assert_eq!(stones.reads - reads, 100 * u64::from(POINTS));
    assert!(
        out.0.is_empty(),
        "a quiet board sends nothing between beats"
    );
}

#[test]
fn the_frame_for_one_stone_does_not_grow_with_the_stones_on_the_board() {
    let (mut out, mut stones) = (Lines::default(), Stones::new(BoardSize::NINETEEN));
    let mut board = powered(
        board_config(BoardSize::NINETEEN, "fw", "SN"),
        &mut stones,
        0,
        &mut out,
    );
    out.take();
    let mut sizes = Vec::new();
    for (t, point) in (1u32..).zip((0..360).step_by(2)) {
        stones.set(point, PointState::Black);
        board.scan(&mut stones, t, &mut out);
        let lines = out.take();
        assert_eq!(lines.len(), 1);
        assert!(lines[0].starts_with("$DIFF,"), "{}", lines[0]);
        sizes.push(lines[0].len());
    }
    // Only the digits of seq, ms and the index grow.
    assert!(
        sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 6,
        "{sizes:?}"
    );
}

/// One stone arriving at `arrival_us` on `point`, read in `order` on the reference time line.
struct Arrival {
    order: Vec<u16>,
    point: u16,
    arrival_us: u64,
    scan_start_us: u64,
}

impl SensorMatrix for Arrival {
    fn size(&self) -> BoardSize {
        BoardSize::NINETEEN
    }

    fn scan(&mut self, visit: &mut dyn FnMut(u16, Reading)) {
        for (pos, &point) in (0u64..).zip(&self.order) {
            let read_at = self.scan_start_us + pos * u64::from(POINT_READ_US);
            let here = point == self.point && read_at >= self.arrival_us;
            let state = if here {
                PointState::Black
            } else {
                PointState::Empty
            };
            visit(point, Reading::State(state));
        }
    }
}

/// When the DIFF for the stone goes out: at the end of the scan that confirms it.
fn reported_after_us(point: u16, arrival_us: u64, order: &[u16]) -> u64 {
    let mut config = board_config(BoardSize::NINETEEN, "fw", "SN");
    config.confirm = CONFIRM_SCANS;
    let mut board = Board::new(config);
    let mut out = Lines::default();
    let mut m = Arrival {
        order: order.to_vec(),
        point,
        arrival_us,
        scan_start_us: 0,
    };
    let period_us = u64::from(SCAN_PERIOD_MS) * 1000;
    let scan_us = u64::from(POINTS * POINT_READ_US);
    for k in 0.. {
        m.scan_start_us = k * period_us;
        let end_us = m.scan_start_us + scan_us;
        if board.scan(&mut m, (end_us / 1000) as u32, &mut out) > 0 && end_us >= arrival_us {
            return end_us - arrival_us;
        }
        assert!(k < 1000, "never reported");
    }
    unreachable!()
}

#[test]
fn a_stone_is_reported_within_20_ms_wherever_and_whenever_it_lands() {
    assert!(scan_hz(SCAN_PERIOD_MS) >= MIN_SCAN_HZ);
    let index_order: Vec<u16> = (0..361).collect();
    // The reference wiring reads channel by channel across the 23 multiplexers.
    let mux_order: Vec<u16> = (0..16)
        .flat_map(|c| (0..23).map(move |m| m * 16 + c))
        .filter(|&p| p < 361)
        .collect();
    let mut worst = 0;
    for order in [&index_order, &mux_order] {
        for point in [0, 17, 180, 352, 360] {
            for arrival_us in (20_000..40_000).step_by(173) {
                worst = worst.max(reported_after_us(point, arrival_us, order));
            }
        }
    }
    eprintln!("worst delay from a stone to its DIFF: {worst} us");
    assert!(
        worst <= u64::from(REPORT_WITHIN_MS) * 1000,
        "worst {worst} us"
    );
    assert!(
        worst > u64::from(SCAN_PERIOD_MS) * 1000,
        "the model confirms over scans: {worst} us"
    );
}
