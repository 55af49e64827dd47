//! The evidence timeline: the last steady readings and presses, bounded, merged into each alert's evidence.

use std::collections::VecDeque;

use goban_rules::{BoardSize, Color};

use crate::Timestamp;
use crate::go;
use crate::input::{Button, Reading};

/// At most this many entries in an alert's evidence (and kept in the timeline).
pub(crate) const EVIDENCE_LIMIT: usize = 16;

/// The recent physical history of the board and the clock, oldest first.
#[derive(Clone, Debug, Default)]
pub(crate) struct Timeline {
    items: VecDeque<(Timestamp, String)>,
}

impl Timeline {
    /// Forgets everything (a new game).
    pub(crate) fn clear(&mut self) {
        self.items.clear();
    }

    /// Adds one entry, dropping the oldest beyond the bound.
    pub(crate) fn push(&mut self, at: Timestamp, what: String) {
        if self.items.len() == EVIDENCE_LIMIT {
            self.items.pop_front();
        }
        self.items.push_back((at, what));
    }

    /// A press of `button`, mapped to `color`.
    pub(crate) fn record_press(&mut self, at: Timestamp, color: Color, button: Button) {
        self.push(at, format!("{color} pressed the clock (button {button:?})"));
    }

    /// Every point a steady reading changed, in order of arrival (point, colour, time).
    pub(crate) fn record_readings(
        &mut self,
        old: &[Reading],
        new: &[Reading],
        changed_at: &[Timestamp],
        size: BoardSize,
    ) {
        let mut changed: Vec<(Timestamp, usize)> = old
            .iter()
            .zip(new)
            .enumerate()
            .filter(|(_, (o, n))| o != n)
            .map(|(i, _)| (changed_at.get(i).copied().unwrap_or_default(), i))
            .collect();
        changed.sort_unstable();
        // A whole new snapshot (a start, a resync) is one entry, not hundreds.
        if changed.len() > EVIDENCE_LIMIT {
            if let Some(&(at, _)) = changed.last() {
                self.push(at, format!("{} points changed at once", changed.len()));
            }
            return;
        }
        for (at, i) in changed {
            let name = go::name(i, size);
            let what = match new[i] {
                Reading::Black => format!("black stone read on {name}"),
                Reading::White => format!("white stone read on {name}"),
                Reading::Empty => format!("{name} read empty"),
                Reading::Unknown => format!("{name} unreadable"),
            };
            self.push(at, what);
        }
    }

    /// The alert's own findings merged, in time order, with the latest history: at most
    /// [`EVIDENCE_LIMIT`] entries, the findings always kept.
    pub(crate) fn evidence(&self, findings: Vec<(Timestamp, String)>) -> Vec<(Timestamp, String)> {
        let mut findings = findings;
        findings.truncate(EVIDENCE_LIMIT);
        let room = EVIDENCE_LIMIT - findings.len();
        let skip = self.items.len().saturating_sub(room);
        let mut out: Vec<(Timestamp, String)> = self.items.iter().skip(skip).cloned().collect();
        for f in findings {
            if !out.contains(&f) {
                out.push(f);
            }
        }
        // Stable: history before the finding it led to, at the same instant.
        out.sort_by_key(|(at, _)| *at);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build_timeline(n: u64) -> Timeline {
        let mut t = Timeline::default();
        for i in 0..n {
            t.push(Timestamp(i * 10), format!("item {i}"));
        }
        t
    }

    #[test]
    fn the_evidence_is_bounded_and_keeps_the_findings() {
        let t = build_timeline(40);
        let findings = vec![(Timestamp(395), "the finding".to_owned())];
        let ev = t.evidence(findings);
        assert_eq!(ev.len(), EVIDENCE_LIMIT);
        assert_eq!(ev.last().unwrap().1, "the finding");
        assert_eq!(ev[0].1, "item 25", "the latest history is kept");
    }

    #[test]
    fn readings_are_listed_by_arrival_with_point_and_colour() {
        let size = BoardSize::new(9).unwrap();
        let old = vec![Reading::Empty; 81];
        let mut new = old.clone();
        new[0] = Reading::White;
        new[40] = Reading::Black;
        let mut at = vec![Timestamp(0); 81];
        at[0] = Timestamp(20);
        at[40] = Timestamp(10);
        let mut t = Timeline::default();
        t.record_readings(&old, &new, &at, size);
        let ev = t.evidence(Vec::new());
        assert_eq!(
            ev[0],
            (
                Timestamp(10),
                format!("black stone read on {}", go::name(40, size))
            )
        );
        assert_eq!(
            ev[1],
            (
                Timestamp(20),
                format!("white stone read on {}", go::name(0, size))
            )
        );
    }
}
