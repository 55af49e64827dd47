//! Debouncing of raw sensor readings: a point is steady once unchanged for the settle time; a change is reported once its region is quiet; a point that flips too often is chattering and reads `?`.

use std::collections::{BTreeMap, BTreeSet};

use crate::Timestamp;
use crate::flip_history::FlipHistory;
use crate::input::{PointChange, Reading};

/// Points within this many lines (both ways) of a change form its region (the point and its
/// eight surrounding points; two lines stalled fast play along an edge, issue 15): the change is
/// reported only once nothing else in the region is still changing (referee-notes.md point 4).
const REGION: usize = 1;

/// Flips kept per point (enough to see a 10 Hz sensor span half the window).
const FLIPS_KEPT: usize = 128;

/// A quiet region: what the sensors show once the changed points and their regions settled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quiet {
    /// When the change was reported.
    pub at: Timestamp,
    /// The reported readings, index order: points still changing elsewhere keep their
    /// last steady reading; chattering points read `?`.
    pub readings: Vec<Reading>,
    /// For each point, when its reported reading last changed (igoki's sub-steps:
    /// the order in which stones arrived during a burst).
    pub changed_at: Vec<Timestamp>,
    /// Stones that stood steadily (half the settle time) but went again before their region was quiet, since the
    /// last report: the sub-steps of a stall (a stone placed and captured inside it, issue 15).
    pub vanished: Vec<Vanished>,
}

/// A stone read steadily for at least half the settle time, then gone before it was reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Vanished {
    /// The point, index order.
    pub index: usize,
    /// The stone's colour as read.
    pub reading: Reading,
    /// When it was first read.
    pub from: Timestamp,
    /// When the point read something else.
    pub to: Timestamp,
}

/// What a point read before its current readable value: a stone that flickers back is that
/// stone again (`Debouncer::flickered_back`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct Before {
    reading: Reading,
    since: Timestamp,
    /// The point's `stone_left_at` before the reading changed.
    left_at: Timestamp,
}

impl Default for Before {
    fn default() -> Self {
        Self {
            reading: Reading::Unknown,
            since: Timestamp(0),
            left_at: Timestamp(0),
        }
    }
}

/// What feeding a frame did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feed {
    /// Accepted.
    Accepted,
    /// Rejected: wrong length or the board is waiting for a snapshot after a gap.
    Rejected,
}

/// When a point counts as a chattering sensor (referee-notes.md point 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ChatterRule {
    /// More than this many flips within `window_ms`, spread over at least half of it,
    /// make a point chattering.
    pub flips: usize,
    /// The window, in ms.
    pub window_ms: u64,
    /// A chattering point reads again once steady for this long, in ms.
    pub clear_ms: u64,
}

impl Default for ChatterRule {
    fn default() -> Self {
        Self {
            flips: 8,
            window_ms: 5_000,
            clear_ms: 5_000,
        }
    }
}

/// The debouncer of one board.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Debouncer {
    settle_ms: u64,
    rule: ChatterRule,
    lines: usize,
    raw: Vec<Reading>,
    changed_at: Vec<Timestamp>,
    /// The last readable value of each point (not `?`) and since when it has held, across
    /// transient `?` flickers: what a stone's reported time is (a hand hovering beside a
    /// stone does not make it newer, issue 15).
    readable: Vec<(Reading, Timestamp)>,
    /// The readable value each point held before its current one, and since when: a stone
    /// that reads empty for less than half the settle time and comes back is the same stone
    /// (a hand's flicker), dated from when it was first read (issue 39: a flicker that ended in
    /// the reading of the reply put the reply first).
    before: Vec<Before>,
    /// When each point last stopped reading a stone that had stood steadily (half the settle
    /// time): a stone's flicker while captured stones are taken off does not move it.
    stone_left_at: Vec<Timestamp>,
    reported: Vec<Reading>,
    reported_at: Vec<Timestamp>,
    /// Since when each point's readable value had held when the point was last reported: a
    /// point that reads the same and still has that since has nothing new to report.
    reported_since: Vec<Timestamp>,
    /// Points changed since they were last reported.
    dirty: BTreeSet<usize>,
    /// Recent flips per point, oldest first, bounded by the rule.
    flips: Vec<FlipHistory>,
    /// Chattering points and since when.
    chattering: BTreeMap<usize, Timestamp>,
    /// False until a first snapshot and after a sequence gap (wire-protocol.md: trust nothing until a SNAP).
    synced: bool,
    /// A snapshot to report even if it changed nothing.
    snapshot_due: Option<Timestamp>,
    /// Stones gone before they were reported, since the last report.
    vanished: Vec<Vanished>,
}

impl Debouncer {
    /// A debouncer for `points` points with the given settle time and the default chatter rule.
    pub fn new(points: usize, settle_ms: u64) -> Self {
        Self::with_rule(points, settle_ms, ChatterRule::default())
    }

    /// A debouncer with an explicit chatter rule.
    pub fn with_rule(points: usize, settle_ms: u64, rule: ChatterRule) -> Self {
        Self {
            settle_ms,
            rule,
            lines: points.isqrt().max(1),
            raw: vec![Reading::Unknown; points],
            changed_at: vec![Timestamp(0); points],
            readable: vec![(Reading::Unknown, Timestamp(0)); points],
            before: vec![Before::default(); points],
            stone_left_at: vec![Timestamp(0); points],
            reported: vec![Reading::Unknown; points],
            reported_at: vec![Timestamp(0); points],
            reported_since: vec![Timestamp(0); points],
            dirty: BTreeSet::new(),
            flips: vec![FlipHistory::default(); points],
            chattering: BTreeMap::new(),
            synced: false,
            snapshot_due: None,
            vanished: Vec::new(),
        }
    }

    /// Whether a snapshot has been seen since the last gap.
    pub fn is_synced(&self) -> bool {
        self.synced
    }

    /// The raw readings now (not debounced).
    pub fn raw(&self) -> &[Reading] {
        &self.raw
    }

    /// The chattering points, index order.
    pub fn chattering(&self) -> Vec<usize> {
        self.chattering.keys().copied().collect()
    }

    /// When point `index` last stopped reading a stone that had stood steadily (a captured
    /// stone taken off), flickers left out.
    pub fn stone_left_at(&self, index: usize) -> Timestamp {
        self.stone_left_at[index]
    }

    /// Whether point `index` reads `stone` first read after `at` (a stone that flickered back
    /// keeps its first time). With `at` the time a capturing stone was placed: the captured
    /// stone was taken off and the point retaken (a ko at blitz pace) before the region was
    /// quiet enough to report it, so it is no missed capture (issue 39, G02 at 0.25 s a move).
    pub fn retaken_since(&self, index: usize, stone: Reading, at: Timestamp) -> bool {
        let (reading, since) = self.readable[index];
        stone.color().is_some() && reading == stone && self.raw[index] == stone && since > at
    }

    /// Whether point `index` is a chattering sensor now.
    pub fn is_chattering(&self, index: usize) -> bool {
        self.chattering.contains_key(&index)
    }

    /// Frames were lost: ignore diffs until the next snapshot.
    pub fn handle_gap(&mut self) {
        self.synced = false;
    }

    /// A full snapshot.
    pub fn handle_snapshot(&mut self, now: Timestamp, points: &[Reading]) -> Feed {
        if points.len() != self.raw.len() {
            return Feed::Rejected;
        }
        for (index, reading) in points.iter().enumerate() {
            self.set(now, index, *reading);
        }
        // A snapshot is reported even when nothing changed: it is what ends a resync.
        self.snapshot_due = Some(now.plus_ms(self.settle_ms));
        self.synced = true;
        Feed::Accepted
    }

    /// A diff; rejected while unsynced or when an index is out of range.
    pub fn handle_diff(&mut self, now: Timestamp, changes: &[PointChange]) -> Feed {
        let in_range = changes
            .iter()
            .all(|c| usize::from(c.index) < self.raw.len());
        if !self.synced || !in_range {
            return Feed::Rejected;
        }
        for change in changes {
            self.set(now, usize::from(change.index), change.state);
        }
        Feed::Accepted
    }

    fn set(&mut self, now: Timestamp, index: usize, reading: Reading) {
        if self.raw[index] == reading {
            return;
        }
        self.raw[index] = reading;
        self.changed_at[index] = now;
        let readable_change = reading != Reading::Unknown && self.readable[index].0 != reading;
        if readable_change {
            let (was, since) = self.readable[index];
            if let Some(stone) = self.flickered_back(now, index, reading) {
                self.forget_vanished(index, stone.since);
                self.readable[index] = (stone.reading, stone.since);
                // It never left: a captured stone's time of leaving is not this flicker's.
                self.stone_left_at[index] = stone.left_at;
                self.before[index] = Before {
                    reading: was,
                    since,
                    left_at: stone.left_at,
                };
            } else {
                self.note_vanished(now, index);
                let left_at = self.stone_left_at[index];
                if was.color().is_some() && since.plus_ms(self.settle_ms / 2) <= now {
                    self.stone_left_at[index] = now;
                }
                self.before[index] = Before {
                    reading: was,
                    since,
                    left_at,
                };
                self.readable[index] = (reading, now);
            }
            // A point's first reading (the first snapshot) is no flip: counted, every point of
            // the board would hold one until it flips again.
            if was != Reading::Unknown {
                self.count_flip(now, index);
            }
        }
        // A chattering point already reported as `?` has nothing new to report until it clears.
        if !(self.chattering.contains_key(&index) && self.reported[index] == Reading::Unknown) {
            self.dirty.insert(index);
        }
    }

    /// The stone `index` held before it read empty, if `reading` at `now` is that stone back
    /// after less than half the settle time: a flicker, not a stone placed again. A stone
    /// really lifted and put back reads empty for longer, and dates from its return.
    fn flickered_back(&self, now: Timestamp, index: usize, reading: Reading) -> Option<Before> {
        let (was, empty_since) = self.readable[index];
        let stone = self.before[index];
        let brief = now < empty_since.plus_ms(self.settle_ms / 2);
        (was == Reading::Empty && brief && reading.color().is_some() && stone.reading == reading)
            .then_some(stone)
    }

    /// The stone first read at `from` on `index` came back: it did not vanish.
    fn forget_vanished(&mut self, index: usize, from: Timestamp) {
        self.vanished
            .retain(|v| !(v.index == index && v.from == from));
    }

    /// A readable change of `index` at `now`: one flip towards the chatter rule. A point that
    /// only goes `?` and back (a hand over the board, the fast play of issue 15) never counts:
    /// a chattering sensor flips between readings.
    fn count_flip(&mut self, now: Timestamp, index: usize) {
        let window_ms = self.rule.window_ms;
        let flips = &mut self.flips[index];
        flips.push(now);
        flips.drop_oldest_while(|oldest, kept| {
            oldest.plus_ms(window_ms) <= now || kept > FLIPS_KEPT
        });
        // A hand hovering over a point flips it several times within a second or so; a
        // chattering sensor keeps flipping: the flips must also span half the window.
        let spread = flips
            .oldest()
            .is_some_and(|first| first.plus_ms(window_ms / 2) <= now);
        if flips.len() > self.rule.flips && spread {
            self.chattering.entry(index).or_insert(now);
        }
    }

    /// The game explains the last flips of `index` (a stone played there or captured from
    /// there): they count no more towards the chatter rule. A ko fought at blitz pace flips
    /// its point every second or so, and is no faulty sensor (issue 15).
    pub fn flips_explained(&mut self, index: usize) {
        if let Some(flips) = self.flips.get_mut(index) {
            // Released, not just emptied: over a game most points are explained once or more.
            flips.release();
        }
    }

    /// Point `index` reads something else at `now`: if a stone stood there steadily and was
    /// never reported, it is a sub-step the next report carries.
    fn note_vanished(&mut self, now: Timestamp, index: usize) {
        let (was, since) = self.readable[index];
        let steady = since.plus_ms(self.settle_ms / 2) <= now;
        // Never reported, or placed again after the reported stone went (a ko retaken inside
        // the stall: the point was reported holding the stone this one recaptured).
        let unreported = self.reported[index] != was || since > self.reported_at[index];
        if was.color().is_some() && unreported && steady && self.synced {
            self.vanished.push(Vanished {
                index,
                reading: was,
                from: since,
                to: now,
            });
        }
    }

    /// When what point `p` reads now happened: a stone hidden a moment by a hand (`?`) and
    /// read again dates from when it was first read, not from the hand (issue 15: fast play).
    fn happened_at(&self, p: usize) -> Timestamp {
        match self.readable[p] {
            (reading, since) if reading == self.raw[p] => since.min(self.changed_at[p]),
            _ => self.changed_at[p],
        }
    }

    /// Whether point `p`, though touched since its report, reads as reported with no other
    /// reading in between (a hand passing over it: `?` and back). It has nothing to report,
    /// so it holds back no other point and no press (issue 15: fast play under hovering hands).
    fn unchanged_since_report(&self, p: usize) -> bool {
        let (readable, since) = self.readable[p];
        self.raw[p] == self.reported[p]
            && readable == self.raw[p]
            && since == self.reported_since[p]
    }

    /// When point `p` is ready to be reported, on its own.
    fn ready_at(&self, p: usize) -> Timestamp {
        match self.chattering.get(&p) {
            Some(&since) => since,
            None => self.changed_at[p].plus_ms(self.settle_ms),
        }
    }

    /// When point `p` may be reported: it and every still-changing point of its region are steady.
    fn reportable_at(&self, p: usize) -> Timestamp {
        let (r, c) = (p / self.lines, p % self.lines);
        let mut at = self.ready_at(p);
        for &q in &self.dirty {
            let (qr, qc) = (q / self.lines, q % self.lines);
            if r.abs_diff(qr) <= REGION
                && c.abs_diff(qc) <= REGION
                && !self.chattering.contains_key(&q)
            {
                at = at.max(self.ready_at(q));
            }
        }
        at
    }

    /// When each changed point may be reported: it and its region are steady, and every
    /// point changed before it may be reported too (changes are reported in the order they
    /// happened, so a burst's sub-steps keep their order).
    fn schedule(&self) -> Vec<(usize, Timestamp)> {
        let mut order: Vec<usize> = self.dirty.iter().copied().collect();
        order.sort_by_key(|&p| (self.happened_at(p), p));
        let mut floor = Timestamp(0);
        order
            .into_iter()
            .map(|p| {
                let at = self.reportable_at(p);
                if self.chattering.contains_key(&p) || self.unchanged_since_report(p) {
                    return (p, at);
                }
                floor = floor.max(at);
                (p, floor)
            })
            .collect()
    }

    /// When the next change can be reported or a chattering point may read again.
    pub fn poll_timeout(&self) -> Option<Timestamp> {
        let report = self.schedule().into_iter().map(|(_, at)| at).min();
        let clear = self
            .chattering
            .keys()
            .filter(|p| !self.dirty.contains(p))
            .map(|&p| self.changed_at[p].plus_ms(self.rule.clear_ms))
            .min();
        report
            .into_iter()
            .chain(clear)
            .chain(self.snapshot_due)
            .min()
    }

    /// The earliest raw change not reported yet, leaving out chattering points: presses
    /// after it wait, since that change may be the stone they complete.
    pub fn earliest_pending(&self) -> Option<Timestamp> {
        self.dirty
            .iter()
            .filter(|&&p| !self.chattering.contains_key(&p) && !self.unchanged_since_report(p))
            .map(|&p| self.happened_at(p))
            .min()
    }

    /// Points changed and not reported yet (chattering ones left out), with what they read
    /// now and since when.
    pub fn pending_readings(&self) -> impl Iterator<Item = (usize, Reading, Timestamp)> + '_ {
        self.dirty
            .iter()
            .filter(|&&p| !self.chattering.contains_key(&p) && !self.unchanged_since_report(p))
            .map(|&p| (p, self.raw[p], self.happened_at(p)))
    }

    /// The reported position once `now` has reached a report deadline.
    pub fn poll_quiet(&mut self, now: Timestamp) -> Option<Quiet> {
        if !self.synced {
            return None;
        }
        let cleared: Vec<usize> = self
            .chattering
            .keys()
            .copied()
            .filter(|p| {
                !self.dirty.contains(p) && self.changed_at[*p].plus_ms(self.rule.clear_ms) <= now
            })
            .collect();
        for p in cleared {
            self.chattering.remove(&p);
            // Released, not just emptied: a chattering point may have held FLIPS_KEPT of them.
            self.flips[p].release();
            self.dirty.insert(p);
        }
        let due: Vec<usize> = self
            .schedule()
            .into_iter()
            .filter(|&(_, at)| at <= now)
            .map(|(p, _)| p)
            .collect();
        let snapshot = self.snapshot_due.take_if(|t| *t <= now).is_some();
        if due.is_empty() && !snapshot {
            return None;
        }
        for &p in &due {
            let reading = if self.chattering.contains_key(&p) {
                Reading::Unknown
            } else {
                self.raw[p]
            };
            let at = match self.readable[p] {
                (r, since) if r == reading => since,
                _ => self.changed_at[p],
            };
            if reading != self.reported[p] {
                self.reported[p] = reading;
                self.reported_at[p] = at;
            } else if reading.color().is_some() && at > self.reported_at[p] {
                // The same colour again, but a stone placed later (a ko retaken inside a
                // stall): its time is the new stone's.
                self.reported_at[p] = at;
            }
            self.reported_since[p] = self.readable[p].1;
            self.dirty.remove(&p);
        }
        Some(Quiet {
            at: now,
            readings: self.reported.clone(),
            changed_at: self.reported_at.clone(),
            vanished: std::mem::take(&mut self.vanished),
        })
    }
}

#[cfg(test)]
#[path = "debounce_tests.rs"]
mod tests;
