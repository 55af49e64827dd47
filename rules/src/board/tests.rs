//! Board unit tests: chains, liberties and captures, and every chain array checked after random play.

use super::*;

/// Every array recomputed from the stones: the chain ids, rings, lengths and
/// pseudo-liberty counts the moves keep incrementally, the ids of empty and off-board
/// points, the stone counts and the hash.
fn assert_consistent(b: &Board) {
    let at = b.at();
    let points = b.size().points();
    let mut stones = [0; 2];
    for q in 0..SLOTS {
        let (cell, id) = (at.cells[q], at.head[q]);
        match cell {
            EMPTY => assert_eq!(id, EMPTY_ID, "empty point {q}"),
            OFF => {
                assert!(q >= points, "off-board cell {q}");
                assert_eq!(id, OFF_ID, "off-board slot {q}");
            }
            _ => {
                stones[usize::from(cell - 1)] += 1;
                assert_eq!(id, chain_id(cell, index_of(id)), "colour bit of {q}");
                let head = index_of(id);
                assert_eq!(at.cells[ix(head)], cell, "head of {q}");
                if head != q as u16 {
                    continue;
                }
                // The chain headed here: its ring, length and pseudo-liberties.
                let (mut len, mut libs) = (0, 0);
                b.for_each_in_chain(head, |r| {
                    assert_eq!(at.head[ix(r)], id, "ring of {head} through {r}");
                    len += 1;
                    libs += b.nbrs[ix(r)]
                        .iter()
                        .filter(|&&n| at.cells[ix(n)] == EMPTY)
                        .count();
                });
                assert_eq!(usize::from(at.len[q]), len, "length of {q}");
                assert_eq!(usize::from(at.libs[q]), libs, "pseudo-liberties of {q}");
            }
        }
    }
    assert_eq!(
        [b.stone_count(Color::Black), b.stone_count(Color::White)],
        stones
    );
    assert_eq!(b.hash(), b.hash_from_scratch());
}

#[test]
fn random_play_keeps_every_chain_array_consistent() {
    // xorshift64*: the same games on every run.
    let mut state = 0x2545_F491_4F6C_DD1D_u64;
    let mut below = |n: usize| {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    };
    let (mut played, mut captured) = (0, 0);
    for lines in [2, 3, 5, 9, 13, 19, 25, 19, 9, 7] {
        let size = BoardSize::new(lines).unwrap();
        let mut b = Board::new(size);
        let mut caps = Vec::new();
        for turn in 0..size.points() * 8 {
            let color = [Color::Black, Color::White][turn % 2];
            let empty: Vec<Point> = size.all_points().filter(|&p| b.get(p).is_none()).collect();
            if empty.is_empty() {
                break;
            }
            let p = empty[below(empty.len())];
            if b.probe(p, color).is_suicide() {
                continue;
            }
            caps.clear();
            b.play_unchecked(p, color, &mut caps);
            played += 1;
            captured += caps.len();
            assert_consistent(&b);
        }
        // Dead stones taken off at the count, and setup stones, keep it too.
        let first_stone = b.stones().next().map(|(p, _)| p);
        if let Some(p) = first_stone {
            b.remove_chain(p);
            assert_consistent(&b);
        }
        for p in size.all_points().step_by(3) {
            b.put_setup_stone(p, Color::White);
        }
        assert_consistent(&b);
    }
    assert!(
        played > 5000 && captured > 2000,
        "{played} played, {captured} captured"
    );
}

fn build_board(rows: &[&str]) -> Board {
    let size = BoardSize::new(rows.len() as u8).unwrap();
    let mut b = Board::new(size);
    for (r, line) in rows.iter().enumerate() {
        for (c, ch) in line.chars().enumerate() {
            let p = Point::from_row_col(r as u8, c as u8, size).unwrap();
            match ch {
                'X' => assert!(b.put_setup_stone(p, Color::Black)),
                'O' => assert!(b.put_setup_stone(p, Color::White)),
                _ => {}
            }
        }
    }
    b
}

#[test]
fn corner_capture_and_liberties() {
    let mut b = build_board(&["O....", "X....", ".....", ".....", "....."]);
    let a = Point(0);
    assert_eq!(b.liberties(a), vec![Point(1)]);
    let probe = b.probe(Point(1), Color::Black);
    assert_eq!((probe.captured_heads().count(), probe.n_stones), (1, 1));
    let mut caps = Vec::new();
    b.play_unchecked(Point(1), Color::Black, &mut caps);
    assert_eq!(caps, vec![a]);
    assert_eq!(b.get(a), None);
    assert_eq!(b.hash(), b.hash_from_scratch());
    assert_eq!(b.liberties(Point(1)).len(), 3);
}

#[test]
fn merged_chain_counts_shared_liberty_once() {
    let b = build_board(&["XX...", "X....", ".....", ".....", "....."]);
    assert_eq!(b.chain(Point(0)).len(), 3);
    assert_eq!(b.liberties(Point(0)), vec![Point(2), Point(6), Point(10)]);
    assert_eq!(b.chain_id(Point(5)), Some(Point(0)));
}

#[test]
fn probe_sees_suicide_and_non_suicide() {
    let b = build_board(&[".X...", "X....", ".....", ".....", "....."]);
    assert!(b.probe(Point(0), Color::White).is_suicide());
    assert!(!b.probe(Point(0), Color::Black).is_suicide());
}

#[test]
fn a_board_made_from_a_dropped_ones_arrays_is_empty() {
    for (before, after) in [(19, 19), (19, 9), (9, 19), (25, 2)] {
        let mut big = Board::new(BoardSize::new(before).unwrap());
        let mut caps = Vec::new();
        for i in [0, 1, 5, 20, 40] {
            big.play_unchecked(Point(i), Color::Black, &mut caps);
        }
        drop(big);
        let size = BoardSize::new(after).unwrap();
        let mut reused = Board::new(size);
        assert_eq!(reused.stones().count(), 0);
        assert_eq!(reused.hash(), 0);
        assert!(reused == Board::new(size));
        // Chains are built afresh: a stone next to where old stones stood has only its
        // own liberties.
        reused.play_unchecked(Point(1), Color::White, &mut caps);
        assert_eq!(reused.chain(Point(1)), vec![Point(1)]);
        let free = reused.neighbours(Point(1)).count();
        assert_eq!(reused.liberties(Point(1)).len(), free);
    }
}

#[test]
fn neighbours_of_a_corner_are_two() {
    let b = Board::new(BoardSize::NINE);
    assert_eq!(b.neighbours(Point(0)).count(), 2);
    assert_eq!(b.neighbours(Point(40)).count(), 4);
    assert_eq!(b.neighbours(Point(81)).count(), 0);
}
