//! The debouncer's unit tests: settling, flicker, chatter, sub-steps and retaken points.

use super::*;

fn build_board(points: &str) -> Vec<Reading> {
    points.chars().filter_map(Reading::from_char).collect()
}

fn change(index: u16, state: Reading) -> PointChange {
    PointChange { index, state }
}

#[test]
fn quiet_only_after_the_settle_time() {
    let mut d = Debouncer::new(4, 300);
    d.handle_snapshot(Timestamp(1000), &build_board("...."));
    assert_eq!(d.poll_timeout(), Some(Timestamp(1300)));
    assert!(d.poll_quiet(Timestamp(1299)).is_none());
    let q = d.poll_quiet(Timestamp(1300)).unwrap();
    assert_eq!(q.at, Timestamp(1300));
    assert_eq!(d.poll_timeout(), None);
}

#[test]
fn a_point_retaken_before_its_report_is_a_new_stone_not_the_captured_one() {
    let mut d = Debouncer::new(4, 300);
    d.handle_snapshot(Timestamp(1000), &build_board("B..."));
    d.poll_quiet(Timestamp(1300)).unwrap();
    // The capturing stone is placed at 2000; the captured stone goes at 2050 and a stone
    // of its colour is placed there again at 2380, inside the same stall.
    let capture_placed = Timestamp(2000);
    d.handle_diff(Timestamp(2000), &[change(1, Reading::White)]);
    d.handle_diff(Timestamp(2050), &[change(0, Reading::Empty)]);
    assert!(
        !d.retaken_since(0, Reading::Black, capture_placed),
        "empty now"
    );
    d.handle_diff(Timestamp(2380), &[change(0, Reading::Black)]);
    assert!(d.retaken_since(0, Reading::Black, capture_placed));
    assert!(!d.retaken_since(0, Reading::White, capture_placed));
    // Not reported yet: the report still shows the old stone.
    assert_eq!(d.poll_quiet(Timestamp(2400)), None);
}

#[test]
fn a_captured_stone_hidden_by_a_hand_is_not_retaken() {
    let mut d = Debouncer::new(4, 300);
    d.handle_snapshot(Timestamp(1000), &build_board("B..."));
    d.poll_quiet(Timestamp(1300)).unwrap();
    d.handle_diff(Timestamp(2000), &[change(1, Reading::White)]);
    d.handle_diff(Timestamp(2050), &[change(0, Reading::Unknown)]);
    d.handle_diff(Timestamp(2100), &[change(0, Reading::Black)]);
    assert!(!d.retaken_since(0, Reading::Black, Timestamp(2000)));
    // A flicker of the empty reading shorter than half the settle time: the same stone.
    d.handle_diff(Timestamp(2200), &[change(0, Reading::Empty)]);
    d.handle_diff(Timestamp(2250), &[change(0, Reading::Black)]);
    assert!(!d.retaken_since(0, Reading::Black, Timestamp(2000)));
}

#[test]
fn flicker_restarts_the_settle_time() {
    let mut d = Debouncer::new(4, 300);
    d.handle_snapshot(Timestamp(0), &build_board("...."));
    d.poll_quiet(Timestamp(300)).unwrap();
    d.handle_diff(Timestamp(1000), &[change(1, Reading::Black)]);
    d.handle_diff(Timestamp(1100), &[change(1, Reading::Empty)]);
    assert_eq!(d.poll_timeout(), Some(Timestamp(1400)));
    let q = d.poll_quiet(Timestamp(1400)).unwrap();
    assert_eq!(q.readings, build_board("...."));
}

#[test]
fn a_far_change_does_not_wait_for_a_busy_corner() {
    // 9x9: index 0 is A9, index 80 is J1.
    let mut d = Debouncer::new(81, 300);
    d.handle_snapshot(Timestamp(0), &[Reading::Empty; 81]);
    d.poll_quiet(Timestamp(300)).unwrap();
    d.handle_diff(Timestamp(1000), &[change(80, Reading::Black)]);
    d.handle_diff(Timestamp(1200), &[change(0, Reading::White)]);
    assert_eq!(d.poll_timeout(), Some(Timestamp(1300)));
    let q = d.poll_quiet(Timestamp(1300)).unwrap();
    assert_eq!(q.readings[80], Reading::Black);
    assert_eq!(q.readings[0], Reading::Empty, "still settling");
    assert_eq!(d.earliest_pending(), Some(Timestamp(1200)));
}

#[test]
fn a_near_change_waits_for_its_region() {
    let mut d = Debouncer::new(81, 300);
    d.handle_snapshot(Timestamp(0), &[Reading::Empty; 81]);
    d.poll_quiet(Timestamp(300)).unwrap();
    d.handle_diff(Timestamp(1000), &[change(40, Reading::Black)]);
    d.handle_diff(Timestamp(1200), &[change(41, Reading::White)]);
    assert_eq!(d.poll_timeout(), Some(Timestamp(1500)));
}

#[test]
fn a_chattering_point_reads_unknown_and_stalls_nothing() {
    let mut d = Debouncer::new(81, 300);
    d.handle_snapshot(Timestamp(0), &[Reading::Empty; 81]);
    d.poll_quiet(Timestamp(300)).unwrap();
    let mut t = 1000;
    for i in 0..12 {
        let r = if i % 2 == 0 {
            Reading::Black
        } else {
            Reading::Empty
        };
        d.handle_diff(Timestamp(t), &[change(0, r)]);
        t += 250;
    }
    assert_eq!(d.chattering(), vec![0]);
    d.handle_diff(Timestamp(t), &[change(80, Reading::Black)]);
    let q = d.poll_quiet(Timestamp(t + 300)).unwrap();
    assert_eq!(q.readings[0], Reading::Unknown);
    assert_eq!(q.readings[80], Reading::Black);
    assert_eq!(d.earliest_pending(), None);
    // Steady again for the clear time: it reads again.
    let back = d.poll_timeout().unwrap();
    assert_eq!(back, Timestamp(t - 250 + 5_000));
    let q = d.poll_quiet(back).unwrap();
    assert_eq!(q.readings[0], Reading::Empty);
    assert!(d.chattering().is_empty());
}

#[test]
fn diffs_after_a_gap_wait_for_a_snapshot() {
    let mut d = Debouncer::new(4, 300);
    assert_eq!(
        d.handle_diff(Timestamp(0), &[change(0, Reading::Black)]),
        Feed::Rejected
    );
    d.handle_snapshot(Timestamp(0), &build_board("...."));
    d.handle_gap();
    assert_eq!(
        d.handle_diff(Timestamp(5), &[change(0, Reading::Black)]),
        Feed::Rejected
    );
    assert_eq!(d.handle_diff(Timestamp(5), &[]), Feed::Rejected);
    assert_eq!(
        d.handle_snapshot(Timestamp(6), &build_board("B...")),
        Feed::Accepted
    );
    assert_eq!(
        d.handle_diff(Timestamp(7), &[change(9, Reading::Black)]),
        Feed::Rejected
    );
}

#[test]
fn wrong_length_snapshots_are_rejected() {
    let mut d = Debouncer::new(4, 300);
    assert_eq!(
        d.handle_snapshot(Timestamp(0), &build_board("...")),
        Feed::Rejected
    );
    assert!(!d.is_synced());
}

#[test]
fn a_steady_stone_gone_before_its_report_is_a_vanished_sub_step() {
    let mut d = Debouncer::new(4, 300);
    d.handle_snapshot(Timestamp(0), &build_board("...."));
    d.poll_quiet(Timestamp(300)).unwrap();
    d.handle_diff(Timestamp(1000), &[change(0, Reading::Black)]);
    // Its neighbour keeps changing: point 0 is never reported as black.
    d.handle_diff(Timestamp(1200), &[change(1, Reading::Unknown)]);
    d.handle_diff(Timestamp(1250), &[change(1, Reading::Empty)]);
    d.handle_diff(Timestamp(1450), &[change(0, Reading::Empty)]);
    // A stone that stood less than the settle time is a flicker, not a sub-step.
    d.handle_diff(Timestamp(1460), &[change(2, Reading::White)]);
    d.handle_diff(Timestamp(1560), &[change(2, Reading::Empty)]);
    let q = d.poll_quiet(Timestamp(2000)).unwrap();
    assert_eq!(
        q.vanished,
        vec![Vanished {
            index: 0,
            reading: Reading::Black,
            from: Timestamp(1000),
            to: Timestamp(1450),
        }]
    );
    assert_eq!(q.readings[0], Reading::Empty);
    // Reported once.
    d.handle_diff(Timestamp(2100), &[change(3, Reading::Black)]);
    assert!(d.poll_quiet(Timestamp(2500)).unwrap().vanished.is_empty());
}

#[test]
fn a_hand_hiding_a_point_again_and_again_is_no_chattering_sensor() {
    let mut d = Debouncer::new(4, 300);
    d.handle_snapshot(Timestamp(0), &build_board("...."));
    // Twenty `?` flickers over 5 s: hands over the board in fast play.
    for k in 0..20u64 {
        d.handle_diff(Timestamp(1000 + k * 250), &[change(1, Reading::Unknown)]);
        d.handle_diff(Timestamp(1100 + k * 250), &[change(1, Reading::Empty)]);
    }
    assert!(d.chattering().is_empty());
    // The same number of flips between readings is a chattering sensor.
    for k in 0..20u64 {
        d.handle_diff(Timestamp(7000 + k * 250), &[change(2, Reading::Black)]);
        d.handle_diff(Timestamp(7100 + k * 250), &[change(2, Reading::Empty)]);
    }
    assert_eq!(d.chattering(), vec![2]);
}

#[test]
fn a_hand_passing_over_far_points_holds_back_no_stone() {
    // 9x9: a stone at J1 (80); hands pass over A9 (0) and E5 (40) just after it.
    let mut d = Debouncer::new(81, 300);
    d.handle_snapshot(Timestamp(0), &[Reading::Empty; 81]);
    d.poll_quiet(Timestamp(300)).unwrap();
    d.handle_diff(Timestamp(1000), &[change(80, Reading::Black)]);
    d.handle_diff(Timestamp(1100), &[change(0, Reading::Unknown)]);
    d.handle_diff(Timestamp(1150), &[change(0, Reading::Empty)]);
    d.handle_diff(Timestamp(1200), &[change(40, Reading::Unknown)]);
    d.handle_diff(Timestamp(1250), &[change(40, Reading::Empty)]);
    // Their `?` came and went: they read as reported, so the stone waits only for itself.
    assert_eq!(d.earliest_pending(), Some(Timestamp(1000)));
    assert_eq!(d.poll_timeout(), Some(Timestamp(1300)));
    let q = d.poll_quiet(Timestamp(1300)).unwrap();
    assert_eq!(q.readings[80], Reading::Black);
    assert_eq!(d.earliest_pending(), None, "nothing left to report");
    // A point that read something else in between still has something to report.
    d.handle_diff(Timestamp(1400), &[change(0, Reading::White)]);
    d.handle_diff(Timestamp(1600), &[change(0, Reading::Empty)]);
    assert_eq!(d.earliest_pending(), Some(Timestamp(1600)));
}
