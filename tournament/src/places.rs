//! Places in a sorted table: equal lines (by the table's order) share the best place of their group.

use std::cmp::Ordering;

/// Numbers the places of `lines`, already sorted best first by `order`: a line equal to the
/// one before shares its place; the next different line takes its own rank (1, 1, 3).
/// `set` writes the place and whether another line shares it.
pub(crate) fn assign<T>(
    lines: &mut [T],
    order: impl Fn(&T, &T) -> Ordering,
    mut set: impl FnMut(&mut T, u32, bool),
) {
    let mut places = Vec::with_capacity(lines.len());
    let mut place = 1;
    for i in 0..lines.len() {
        if i > 0 && order(&lines[i - 1], &lines[i]) != Ordering::Equal {
            place = u32::try_from(i).unwrap_or(u32::MAX).saturating_add(1);
        }
        places.push(place);
    }
    for (i, line) in lines.iter_mut().enumerate() {
        let same = |j: usize| places.get(j) == Some(&places[i]);
        let shared = (i > 0 && same(i - 1)) || same(i + 1);
        set(line, places[i], shared);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_lines_share_the_best_place_and_the_next_takes_its_rank() {
        let mut lines = vec![(5, 0, false), (3, 0, false), (3, 0, false), (1, 0, false)];
        assign(
            &mut lines,
            |a, b| b.0.cmp(&a.0),
            |l, place, shared| {
                l.1 = place;
                l.2 = shared;
            },
        );
        let got: Vec<(u32, bool)> = lines.iter().map(|l| (l.1, l.2)).collect();
        assert_eq!(got, vec![(1, false), (2, true), (2, true), (4, false)]);
    }
}
