//! The evidence timeline: the last steady readings and presses, bounded, merged into each alert's evidence.

use std::collections::VecDeque;

use goban_rules::{BoardSize, Color};

use crate::Timestamp;
use crate::go;
use crate::infraction::{Evidence, Seen};
use crate::input::{Button, Reading};

/// At most this many entries in an alert's evidence (and kept in the timeline).
pub(crate) const EVIDENCE_LIMIT: usize = 16;

/// The sensors' readings at one moment as point indices by colour: O(stones), shown as [`Seen`].
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Snapshot {
    black: Vec<u16>,
    white: Vec<u16>,
    unreadable: Vec<u16>,
}

impl Snapshot {
    /// The stones and unreadable points of `readings`; `None` when there are no readings at all.
    pub(crate) fn of(readings: &[Reading]) -> Option<Self> {
        if readings.is_empty() {
            return None;
        }
        let mut out = Self::default();
        for (i, reading) in readings.iter().enumerate() {
            // Boards are at most 25x25 (625 points): an index always fits.
            let Ok(i) = u16::try_from(i) else { break };
            match reading {
                Reading::Black => out.black.push(i),
                Reading::White => out.white.push(i),
                Reading::Unknown => out.unreadable.push(i),
                Reading::Empty => {}
            }
        }
        Some(out)
    }

    /// The whole board: every point not listed read empty.
    fn seen(&self, size: BoardSize) -> Seen {
        let names = |points: &[u16]| points.iter().map(|&p| go::name(p.into(), size)).collect();
        Seen {
            black: names(&self.black),
            white: names(&self.white),
            empty: Vec::new(),
            unreadable: names(&self.unreadable),
        }
    }

    /// One reading per point of a board of `size`.
    fn readings(&self, size: BoardSize) -> Vec<Reading> {
        let mut out = vec![Reading::Empty; size.points()];
        for (list, reading) in [
            (&self.black, Reading::Black),
            (&self.white, Reading::White),
            (&self.unreadable, Reading::Unknown),
        ] {
            for &p in list {
                if let Some(r) = out.get_mut(usize::from(p)) {
                    *r = reading;
                }
            }
        }
        out
    }

    /// The points whose reading differs in `now`, by what they read in `now`.
    fn changes_to(&self, now: &Self, size: BoardSize) -> Seen {
        let mut out = Seen::default();
        let (was, now) = (self.readings(size), now.readings(size));
        for (i, (a, b)) in was.iter().zip(&now).enumerate() {
            if a == b {
                continue;
            }
            let list = match b {
                Reading::Black => &mut out.black,
                Reading::White => &mut out.white,
                Reading::Empty => &mut out.empty,
                Reading::Unknown => &mut out.unreadable,
            };
            list.push(go::name(i, size));
        }
        out
    }
}

/// One line of the timeline: when, what, the board as read then, the points it is about.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Entry {
    pub(crate) at: Timestamp,
    pub(crate) what: String,
    pub(crate) seen: Option<Snapshot>,
    pub(crate) points: Vec<usize>,
}

/// An alert's evidence lines, points named on a board of `size`: the first board in full (`seen`),
/// then each line's changes from the board before (`changed`), nothing when it is the same.
pub(crate) fn evidence_lines(entries: Vec<Entry>, size: BoardSize) -> Vec<Evidence> {
    let mut before: Option<Snapshot> = None;
    let mut out = Vec::with_capacity(entries.len());
    for entry in entries {
        let (seen, changed) = match (&before, &entry.seen) {
            (_, None) => (None, None),
            (None, Some(now)) => (Some(now.seen(size)), None),
            (Some(was), Some(now)) if was == now => (None, None),
            (Some(was), Some(now)) => (None, Some(was.changes_to(now, size))),
        };
        if entry.seen.is_some() {
            before = entry.seen;
        }
        out.push(Evidence {
            at: entry.at.to_rfc3339(),
            what: entry.what,
            seen,
            changed,
            points: entry.points.iter().map(|&p| go::name(p, size)).collect(),
        });
    }
    out
}

/// The recent physical history of the board and the clock, oldest first.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct Timeline {
    items: VecDeque<Entry>,
}

impl Timeline {
    /// Forgets everything (a new game).
    pub(crate) fn clear(&mut self) {
        self.items.clear();
    }

    /// Adds one entry, dropping the oldest beyond the bound.
    fn push(&mut self, entry: Entry) {
        if self.items.len() == EVIDENCE_LIMIT {
            self.items.pop_front();
        }
        self.items.push_back(entry);
    }

    /// A press of `button`, mapped to `color`, with the board as last read (`physical`).
    pub(crate) fn record_press(
        &mut self,
        at: Timestamp,
        color: Color,
        button: Button,
        physical: &[Reading],
    ) {
        self.push(Entry {
            at,
            what: format!("{color} pressed the clock (button {button:?})"),
            seen: Snapshot::of(physical),
            points: Vec::new(),
        });
    }

    /// Every point a steady reading changed, in order of arrival (point, colour, time), each
    /// with the board as it stood once that point had changed.
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
                self.push(Entry {
                    at,
                    what: format!("{} points changed at once", changed.len()),
                    seen: Snapshot::of(new),
                    points: Vec::new(),
                });
            }
            return;
        }
        // The board before these changes, then each change applied in order of arrival.
        let mut board = new.to_vec();
        for &(_, i) in &changed {
            board[i] = old[i];
        }
        for (at, i) in changed {
            board[i] = new[i];
            let name = go::name(i, size);
            let what = match new[i] {
                Reading::Black => format!("black stone read on {name}"),
                Reading::White => format!("white stone read on {name}"),
                Reading::Empty => format!("{name} read empty"),
                Reading::Unknown => format!("{name} unreadable"),
            };
            self.push(Entry {
                at,
                what,
                seen: Snapshot::of(&board),
                points: vec![i],
            });
        }
    }

    /// The alert's own findings merged, in time order, with the latest history: at most
    /// [`EVIDENCE_LIMIT`] entries, the findings always kept. A finding shows the board as
    /// read when the alert is raised (`physical`) and the alert's `points`.
    pub(crate) fn evidence(
        &self,
        findings: Vec<(Timestamp, String)>,
        physical: &[Reading],
        points: &[usize],
    ) -> Vec<Entry> {
        let mut findings = findings;
        findings.truncate(EVIDENCE_LIMIT);
        let room = EVIDENCE_LIMIT - findings.len();
        let skip = self.items.len().saturating_sub(room);
        let mut out: Vec<Entry> = self.items.iter().skip(skip).cloned().collect();
        let seen = Snapshot::of(physical);
        for (at, what) in findings {
            if !out.iter().any(|e| e.at == at && e.what == what) {
                out.push(Entry {
                    at,
                    what,
                    seen: seen.clone(),
                    points: points.to_vec(),
                });
            }
        }
        // Stable: history before the finding it led to, at the same instant.
        out.sort_by_key(|e| e.at);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build_timeline(n: u64) -> Timeline {
        let mut t = Timeline::default();
        for i in 0..n {
            t.push(Entry {
                at: Timestamp(i * 10),
                what: format!("item {i}"),
                seen: None,
                points: Vec::new(),
            });
        }
        t
    }

    #[test]
    fn the_evidence_is_bounded_and_keeps_the_findings() {
        let t = build_timeline(40);
        let findings = vec![(Timestamp(395), "the finding".to_owned())];
        let ev = t.evidence(findings, &[], &[]);
        assert_eq!(ev.len(), EVIDENCE_LIMIT);
        assert_eq!(ev.last().unwrap().what, "the finding");
        assert_eq!(ev[0].what, "item 25", "the latest history is kept");
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
        let ev = t.evidence(Vec::new(), &new, &[]);
        assert_eq!(ev[0].at, Timestamp(10));
        assert_eq!(
            ev[0].what,
            format!("black stone read on {}", go::name(40, size))
        );
        assert_eq!(ev[1].at, Timestamp(20));
        assert_eq!(
            ev[1].what,
            format!("white stone read on {}", go::name(0, size))
        );
    }

    #[test]
    fn each_reading_shows_the_board_as_it_stood_then_and_its_point() {
        let size = BoardSize::new(9).unwrap();
        let mut old = vec![Reading::Empty; 81];
        old[10] = Reading::Unknown;
        old[70] = Reading::White;
        let mut new = old.clone();
        new[0] = Reading::White;
        new[40] = Reading::Black;
        new[70] = Reading::Empty;
        let mut at = vec![Timestamp(0); 81];
        at[40] = Timestamp(10);
        at[70] = Timestamp(15);
        at[0] = Timestamp(20);
        let mut t = Timeline::default();
        t.record_readings(&old, &new, &at, size);
        t.record_press(Timestamp(30), Color::Black, Button::L, &new);
        let findings = vec![(Timestamp(40), "the finding".into())];
        let ev = evidence_lines(t.evidence(findings, &new, &[40, 0]), size);
        let name = |i| go::name(i, size);
        let names = |v: Vec<usize>| v.into_iter().map(name).collect::<Vec<_>>();
        // The first line: the whole board once the black stone arrived (70 still White, 0 not yet).
        let first = Seen {
            black: names(vec![40]),
            white: names(vec![70]),
            empty: Vec::new(),
            unreadable: names(vec![10]),
        };
        assert_eq!(ev[0].seen, Some(first));
        assert_eq!(ev[0].changed, None);
        assert_eq!(ev[0].points, names(vec![40]));
        // Then only what changed: 70 emptied, 0 read White.
        assert_eq!(ev[1].seen, None);
        assert_eq!(
            ev[1].changed,
            Some(Seen {
                empty: names(vec![70]),
                ..Seen::default()
            })
        );
        assert_eq!(ev[1].points, names(vec![70]));
        assert_eq!(
            ev[2].changed,
            Some(Seen {
                white: names(vec![0]),
                ..Seen::default()
            })
        );
        assert_eq!(ev[2].points, names(vec![0]));
        // A press changes nothing and is about no point; the finding names the alert's points.
        assert_eq!((&ev[3].seen, &ev[3].changed), (&None, &None));
        assert!(ev[3].points.is_empty());
        assert_eq!(ev[4].what, "the finding");
        assert_eq!((&ev[4].seen, &ev[4].changed), (&None, &None));
        assert_eq!(ev[4].points, names(vec![40, 0]));
    }

    #[test]
    fn the_changes_rebuild_every_line_board() {
        // Replaying `seen` then each `changed` gives back the board of every entry.
        let size = BoardSize::new(9).unwrap();
        let boards: Vec<Vec<Reading>> = (0..6)
            .map(|k| {
                let mut b = vec![Reading::Empty; 81];
                for i in 0..k * 3 {
                    b[(i * 7) % 81] = if i % 2 == 0 {
                        Reading::Black
                    } else {
                        Reading::White
                    };
                }
                if k == 3 {
                    b[5] = Reading::Unknown;
                }
                b
            })
            .collect();
        let entries: Vec<Entry> = boards
            .iter()
            .enumerate()
            .map(|(k, b)| Entry {
                at: Timestamp(k as u64),
                what: format!("line {k}"),
                seen: Snapshot::of(b),
                points: Vec::new(),
            })
            .collect();
        let lines = evidence_lines(entries, size);
        let mut board = vec![Reading::Empty; 81];
        let index = |n: &String| (0..81).find(|&i| go::name(i, size) == *n).unwrap();
        for (line, expected) in lines.iter().zip(&boards) {
            if let Some(seen) = &line.seen {
                board = vec![Reading::Empty; 81];
                for (list, r) in [
                    (&seen.black, Reading::Black),
                    (&seen.white, Reading::White),
                    (&seen.unreadable, Reading::Unknown),
                ] {
                    list.iter().for_each(|n| board[index(n)] = r);
                }
            }
            if let Some(c) = &line.changed {
                for (list, r) in [
                    (&c.black, Reading::Black),
                    (&c.white, Reading::White),
                    (&c.empty, Reading::Empty),
                    (&c.unreadable, Reading::Unknown),
                ] {
                    list.iter().for_each(|n| board[index(n)] = r);
                }
            }
            assert_eq!(&board, expected, "{}", line.what);
        }
    }

    #[test]
    fn no_readings_show_no_board() {
        assert_eq!(Snapshot::of(&[]), None);
        let unknown = Snapshot::of(&[Reading::Unknown; 81]).unwrap();
        assert_eq!(unknown.unreadable.len(), 81);
        assert!(
            Snapshot::of(&[Reading::Empty; 81])
                .unwrap()
                .black
                .is_empty()
        );
    }
}
