//! The sight machine: the debounced board, its last quiet position, and whether it can see (blind, unclean) since when.

use crate::Timestamp;
use crate::debounce::{ChatterRule, Debouncer, Feed, Quiet, Vanished};
use crate::input::{PointChange, Reading};

/// What the board shows and whether it can be trusted: raw readings are debounced into quiet
/// positions; the board is blind until a snapshot settles after a gap, and unclean while
/// points read `?` or chatter.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct Sight {
    debouncer: Debouncer,
    /// The last quiet physical position.
    physical: Vec<Reading>,
    /// When each point of `physical` last changed.
    changed_at: Vec<Timestamp>,
    /// Whether each point's reading came out of `?` (unreadable or chattering): its change
    /// time says when the sensor read again, not when the stone was placed or taken off.
    /// Empty in checkpoints older than the field: no point surfaced.
    #[serde(default)]
    surfaced: Vec<bool>,
    /// The board cannot see: unplugged, frames lost, or no quiet reading since the resync.
    blind: bool,
    /// The board shows `?` or chattering points now.
    unclean: bool,
    /// The last instant the board was blind or unclean: a pass needs a press after it.
    last_blind_at: Timestamp,
}

impl Sight {
    /// A board of `points` points, blind until its first snapshot settles.
    pub(crate) fn new(points: usize, settle_ms: u64, rule: ChatterRule) -> Self {
        Self {
            debouncer: Debouncer::with_rule(points, settle_ms, rule),
            physical: vec![Reading::Unknown; points],
            changed_at: vec![Timestamp(0); points],
            surfaced: vec![false; points],
            blind: true,
            unclean: false,
            last_blind_at: Timestamp(0),
        }
    }

    /// Whether the state fits a board of `points` points (a checkpoint's check).
    pub(crate) fn fits(&self, points: usize) -> bool {
        self.physical.len() == points && self.changed_at.len() == points
    }

    /// A `$DIFF` frame at `now`.
    pub(crate) fn handle_diff(&mut self, now: Timestamp, changes: &[PointChange]) -> Feed {
        self.debouncer.handle_diff(now, changes)
    }

    /// A `$SNAP` frame at `now`.
    pub(crate) fn handle_snapshot(&mut self, now: Timestamp, readings: &[Reading]) -> Feed {
        self.debouncer.handle_snapshot(now, readings)
    }

    /// Frames may have been lost at `now` (a gap, the board unplugged, a backlog of unknown
    /// time): nothing is trusted until a snapshot settles.
    pub(crate) fn handle_gap(&mut self, now: Timestamp) {
        self.debouncer.handle_gap();
        self.blind = true;
        self.last_blind_at = now;
    }

    /// A quiet stone was read as a move: its flips were the player's hand, not a fault.
    pub(crate) fn handle_flips_explained(&mut self, point: usize) {
        self.debouncer.flips_explained(point);
    }

    /// When the next position settles (only once the board is synced).
    pub(crate) fn poll_timeout(&self) -> Option<Timestamp> {
        self.debouncer
            .poll_timeout()
            .filter(|_| self.debouncer.is_synced())
    }

    /// The position that settled by `now`, if any.
    pub(crate) fn poll_quiet(&mut self, now: Timestamp) -> Option<Quiet> {
        self.debouncer.poll_quiet(now)
    }

    /// A quiet position is the board's now; returns the stones that vanished inside its stall.
    pub(crate) fn handle_quiet(&mut self, quiet: Quiet) -> Vec<Vanished> {
        self.surfaced.resize(quiet.readings.len(), false);
        for (p, (&was, &now)) in self.physical.iter().zip(&quiet.readings).enumerate() {
            if was != now {
                self.surfaced[p] = was == Reading::Unknown;
            }
        }
        self.physical = quiet.readings;
        self.changed_at = quiet.changed_at;
        quiet.vanished
    }

    /// After a reported reading at `now`, `unclean` when points read `?` or chatter: the
    /// board sees again once a snapshot settled. Returns whether it just began to see.
    pub(crate) fn handle_reported(&mut self, now: Timestamp, unclean: bool) -> bool {
        self.unclean = unclean;
        let sees_again =
            self.blind && self.debouncer.is_synced() && self.debouncer.earliest_pending().is_none();
        if sees_again {
            self.blind = false;
            self.last_blind_at = now;
        }
        if self.blind || self.unclean {
            self.last_blind_at = now;
        }
        sees_again
    }

    /// The debouncer, for what is still settling.
    pub(crate) fn debouncer(&self) -> &Debouncer {
        &self.debouncer
    }

    /// The last quiet position, index order.
    pub(crate) fn physical(&self) -> &[Reading] {
        &self.physical
    }

    /// When each point of the quiet position last changed.
    pub(crate) fn changed_at(&self) -> &[Timestamp] {
        &self.changed_at
    }

    /// Whether point `p`'s reading came out of `?`: when it changed is not known, only when
    /// the sensor could read it again.
    pub(crate) fn surfaced(&self, p: usize) -> bool {
        self.surfaced.get(p).copied().unwrap_or(false)
    }

    /// The board cannot see.
    pub(crate) fn blind(&self) -> bool {
        self.blind
    }

    /// The board shows `?` or chattering points.
    pub(crate) fn unclean(&self) -> bool {
        self.unclean
    }

    /// The last instant the board was blind or unclean.
    pub(crate) fn last_blind_at(&self) -> Timestamp {
        self.last_blind_at
    }

    /// Whether the board saw, clean, from `start` until now.
    pub(crate) fn clean_since(&self, start: Timestamp) -> bool {
        !self.blind && !self.unclean && self.last_blind_at <= start
    }
}
