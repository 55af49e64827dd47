use goban_rules::Color;

use super::*;
use crate::move_name::MoveName;
use crate::timestamp::Timestamp;

fn record(number: u32) -> MoveRecord {
    MoveRecord {
        number,
        color: if !number.is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        },
        point: MoveName::new(if number.is_multiple_of(7) {
            "pass"
        } else {
            "D4"
        })
        .expect("a move name"),
        at: Timestamp(1_000 * u64::from(number)),
        time_left_ms: Some(u64::from(number)),
        periods_left: None,
        order_known: true,
    }
}

fn records(n: u32) -> Vec<MoveRecord> {
    (1..=n).map(record).collect()
}

#[test]
fn it_reads_like_the_list_it_was_built_from() {
    for n in [0, 1, 31, 32, 33, 64, 65, 250] {
        let plain = records(n);
        let shared = MoveRecords::from(plain.clone());
        assert_eq!(shared.len(), plain.len());
        assert_eq!(shared.is_empty(), plain.is_empty());
        assert_eq!(shared.last(), plain.last());
        assert!(shared.iter().eq(plain.iter()));
        assert!(shared.iter().rev().eq(plain.iter().rev()));
        for i in 0..plain.len() + 2 {
            assert_eq!(shared.get(i), plain.get(i), "{n} records, index {i}");
            assert!(
                shared.iter_from(i).eq(plain.iter().skip(i)),
                "{n}, from {i}"
            );
            assert_eq!(
                serde_json::to_string(&shared.tail_from(i)).expect("json"),
                serde_json::to_string(&plain[i.min(plain.len())..]).expect("json")
            );
            let since = u32::try_from(i).expect("small");
            assert_eq!(
                shared.partition_point(|r| r.number <= since),
                plain.partition_point(|r| r.number <= since),
                "{n} records, since {since}"
            );
        }
    }
}

#[test]
fn it_serializes_as_the_plain_list() {
    let plain = records(70);
    let shared = MoveRecords::from(plain.clone());
    let text = serde_json::to_string(&shared).expect("json");
    assert_eq!(text, serde_json::to_string(&plain).expect("json"));
    assert_eq!(
        serde_json::from_str::<MoveRecords>(&text).expect("read"),
        shared
    );
}

#[test]
fn a_copy_shares_the_full_chunks_and_changes_apart() {
    let mut original = MoveRecords::from(records(70));
    let copy = original.clone();
    assert!(Arc::ptr_eq(&original.full[0], &copy.full[0]));
    assert_eq!(copy.tail.len(), 70 - 2 * CHUNK);

    // A correction of an old move copies its chunk for the changed version only.
    original.find_mut(|r| r.number == 3).expect("move 3").point =
        MoveName::new("Q16").expect("a move name");
    assert!(!Arc::ptr_eq(&original.full[0], &copy.full[0]));
    assert!(Arc::ptr_eq(&original.full[1], &copy.full[1]));
    assert_eq!(copy[2].point.as_str(), "D4");
    assert_eq!(original[2].point.as_str(), "Q16");

    // Moves taken back and played on: each version keeps its own.
    let mut taken_back = copy.clone();
    for _ in 0..10 {
        taken_back.pop();
    }
    assert_eq!(taken_back.len(), 60);
    assert_eq!(taken_back.last(), Some(&record(60)));
    taken_back.push(record(61));
    taken_back.last_mut().expect("a move").time_left_ms = Some(5);
    assert_eq!(taken_back.len(), 61);
    assert_eq!(copy.len(), 70);
    assert_eq!(copy[60], record(61));
    assert_eq!(taken_back[60].time_left_ms, Some(5));
}

#[test]
fn popping_across_a_chunk_boundary_keeps_the_order() {
    let mut shared = MoveRecords::from(records(CHUNK as u32 + 1));
    let mut plain = records(CHUNK as u32 + 1);
    while let Some(record) = shared.pop() {
        assert_eq!(Some(record), plain.pop());
        assert!(shared.iter().eq(plain.iter()));
    }
    assert!(shared.is_empty() && plain.is_empty());
}
