//! The difference between the physical and the game position, per point and colour (referee-notes.md).

use std::collections::BTreeMap;

use goban_rules::Color;

use crate::input::Reading;

/// Points where the quiet physical position differs from the game position,
/// leaving out unreadable points, deviations already alerted on (`known`) and
/// the last move's captured stones still waiting to be taken off (`pending`).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Diff {
    /// Stones on points the game says are empty.
    pub(crate) added: Vec<(usize, Color)>,
    /// Stones of the game missing from the board.
    pub(crate) removed: Vec<(usize, Color)>,
    /// Points holding the other colour: (point, game colour, physical colour).
    pub(crate) changed: Vec<(usize, Color, Color)>,
}

impl Diff {
    /// Computes the diff.
    pub(crate) fn between(
        game: &[Reading],
        physical: &[Reading],
        known: &BTreeMap<usize, Reading>,
        pending: &[(usize, Color)],
    ) -> Self {
        let mut diff = Self::default();
        for (index, (&g, &p)) in game.iter().zip(physical).enumerate() {
            if g == p || p == Reading::Unknown || known.get(&index) == Some(&p) {
                continue;
            }
            match (g.color(), p.color()) {
                (None, Some(c)) if pending.contains(&(index, c)) => {}
                (None, Some(c)) => diff.added.push((index, c)),
                (Some(c), None) => diff.removed.push((index, c)),
                (Some(gc), Some(pc)) => diff.changed.push((index, gc, pc)),
                (None, None) => {}
            }
        }
        diff
    }

    /// Whether the board shows the game position (up to the exclusions).
    pub(crate) fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.changed.is_empty()
    }

    /// Every point involved.
    pub(crate) fn points(&self) -> Vec<usize> {
        let mut all: Vec<usize> = self.added.iter().map(|a| a.0).collect();
        all.extend(self.removed.iter().map(|r| r.0));
        all.extend(self.changed.iter().map(|c| c.0));
        all.sort_unstable();
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(points: &str) -> Vec<Reading> {
        points.chars().filter_map(Reading::from_char).collect()
    }

    #[test]
    fn sorts_points_into_added_removed_changed() {
        let d = Diff::between(&build("B.W.."), &build(".BB.?"), &BTreeMap::new(), &[]);
        assert_eq!(d.added, vec![(1, Color::Black)]);
        assert_eq!(d.removed, vec![(0, Color::Black)]);
        assert_eq!(d.changed, vec![(2, Color::White, Color::Black)]);
        assert_eq!(d.points(), vec![0, 1, 2]);
    }

    #[test]
    fn known_and_pending_points_are_left_out() {
        let known = BTreeMap::from([(0, Reading::Empty)]);
        let d = Diff::between(&build("B.."), &build(".W."), &known, &[(1, Color::White)]);
        assert!(d.is_empty());
    }
}
