//! Sequence tracking for the SNAP/DIFF and PRESS/KEY counters: in order, wrapped, gap or stale.

use crate::types::Seq;
#[cfg(feature = "std")]
use serde::{Deserialize, Serialize};

/// What one observed `<seq>` means relative to the previous one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "std", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "std", serde(tag = "kind", rename_all = "snake_case"))]
pub enum SeqEvent {
    /// The first counter seen (after [`SeqTracker::new`] or [`SeqTracker::reset`]).
    First,
    /// The expected next value.
    InOrder,
    /// The expected next value after 4294967295: the counter wrapped to 0 (not a gap).
    Wrapped,
    /// Frames were lost: `missing` counter values between the previous and this one.
    /// For SNAP/DIFF the host requests a snapshot; for PRESS/KEY it raises a device alert.
    Gap {
        /// The value that was expected.
        expected: Seq,
        /// The value that arrived.
        got: Seq,
        /// How many values were skipped (`got - expected`, modulo 2^32).
        missing: u32,
    },
    /// The value repeats or goes back (a duplicate, or a device that restarted without
    /// `HELLO`): as untrustworthy as a gap.
    Stale {
        /// The value that was expected.
        expected: Seq,
        /// The value that arrived.
        got: Seq,
    },
}

impl SeqEvent {
    /// Whether nothing was lost or repeated: `First`, `InOrder` or `Wrapped`.
    pub const fn is_continuous(self) -> bool {
        matches!(self, Self::First | Self::InOrder | Self::Wrapped)
    }
}

/// Tracks one device counter: SNAP and DIFF share one, PRESS and KEY another.
///
/// Serial-number arithmetic (RFC 1982) over u32: a value less than 2^31 ahead of the
/// expected one is a gap, anything else is stale. The tracker always moves on to the
/// value it saw, so one lost frame is reported once.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "std", derive(Serialize, Deserialize))]
pub struct SeqTracker {
    last: Option<Seq>,
}

impl SeqTracker {
    /// A tracker that has seen nothing.
    pub const fn new() -> Self {
        Self { last: None }
    }

    /// The last value seen.
    pub const fn last(&self) -> Option<Seq> {
        self.last
    }

    /// The value expected next, if any was seen.
    pub const fn expected(&self) -> Option<Seq> {
        match self.last {
            Some(last) => Some(last.next()),
            None => None,
        }
    }

    /// Forgets the last value: call it on the device's `HELLO`, which restarts counters.
    pub fn reset(&mut self) {
        self.last = None;
    }

    /// Records `got` and classifies it against the expected value.
    pub fn observe(&mut self, got: Seq) -> SeqEvent {
        let previous = self.last.replace(got);
        let Some(previous) = previous else {
            return SeqEvent::First;
        };
        let expected = previous.next();
        let ahead = got.0.wrapping_sub(expected.0);
        match ahead {
            0 if expected.0 == 0 => SeqEvent::Wrapped,
            0 => SeqEvent::InOrder,
            1..0x8000_0000 => SeqEvent::Gap {
                expected,
                got,
                missing: ahead,
            },
            _ => SeqEvent::Stale { expected, got },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build_tracker(last: u32) -> SeqTracker {
        let mut t = SeqTracker::new();
        t.observe(Seq(last));
        t
    }

    #[test]
    fn first_then_in_order() {
        let mut t = SeqTracker::new();
        assert_eq!(t.observe(Seq(41)), SeqEvent::First);
        assert_eq!(t.observe(Seq(42)), SeqEvent::InOrder);
        assert_eq!(t.expected(), Some(Seq(43)));
    }

    #[test]
    fn wrap_from_max_to_zero_is_not_a_gap() {
        // Spec "Board to host": seq wraps from 4294967295 to 0.
        let mut t = build_tracker(u32::MAX);
        assert_eq!(t.observe(Seq(0)), SeqEvent::Wrapped);
        assert!(SeqEvent::Wrapped.is_continuous());
        assert_eq!(t.observe(Seq(1)), SeqEvent::InOrder);
    }

    #[test]
    fn gap_counts_missing_values_even_across_the_wrap() {
        let mut t = build_tracker(10);
        assert_eq!(
            t.observe(Seq(13)),
            SeqEvent::Gap {
                expected: Seq(11),
                got: Seq(13),
                missing: 2
            }
        );
        let mut t = build_tracker(u32::MAX - 1);
        assert_eq!(
            t.observe(Seq(1)),
            SeqEvent::Gap {
                expected: Seq(u32::MAX),
                got: Seq(1),
                missing: 2
            }
        );
    }

    #[test]
    fn duplicate_and_backwards_are_stale() {
        let mut t = build_tracker(7);
        assert_eq!(
            t.observe(Seq(7)),
            SeqEvent::Stale {
                expected: Seq(8),
                got: Seq(7)
            }
        );
        assert_eq!(
            t.observe(Seq(0)),
            SeqEvent::Stale {
                expected: Seq(8),
                got: Seq(0)
            }
        );
        assert!(
            !SeqEvent::Stale {
                expected: Seq(8),
                got: Seq(0)
            }
            .is_continuous()
        );
        // The tracker moved on to 0, so 1 is in order again.
        assert_eq!(t.observe(Seq(1)), SeqEvent::InOrder);
    }

    #[test]
    fn reset_forgets_after_hello() {
        let mut t = build_tracker(500);
        t.reset();
        assert_eq!(t.last(), None);
        assert_eq!(t.observe(Seq(0)), SeqEvent::First);
    }
}
