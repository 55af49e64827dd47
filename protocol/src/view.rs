//! Borrowed frames: the form the encoder writes and the parser yields, without allocation.
//!
//! A [`FrameRef`] borrows its lists and texts, either from typed slices (a device's own
//! state, or an owned [`crate::Frame`]) or from the validated bytes of a received line.
//! Devices encode and decode with it alone; the daemon turns it into an owned `Frame`.

use crate::types::{BoardSize, Button, Change, Key, Point, PointState, Running, Seq};

/// The point states of a `SNAP`, in index order.
#[derive(Debug, Clone, Copy)]
pub enum States<'a> {
    /// Typed states.
    Typed(&'a [PointState]),
    /// Wire characters the parser has validated (each one of `.`, `B`, `W`, `?`).
    Wire(&'a [u8]),
}

impl States<'_> {
    /// The number of points.
    pub const fn len(&self) -> usize {
        match self {
            Self::Typed(s) => s.len(),
            Self::Wire(w) => w.len(),
        }
    }

    /// Whether there are no points.
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The states, in index order.
    pub fn iter(&self) -> impl Iterator<Item = PointState> + '_ {
        let (typed, wire): (&[PointState], &[u8]) = match self {
            Self::Typed(s) => (s, &[]),
            Self::Wire(w) => (&[], w),
        };
        typed
            .iter()
            .copied()
            .chain(wire.iter().map(|&b| state_of(b)))
    }
}

/// The changes of a `DIFF`, in wire order.
#[derive(Debug, Clone, Copy)]
pub enum Changes<'a> {
    /// Typed changes.
    Typed(&'a [Change]),
    /// The validated `<idx><state>[;<idx><state>]*` list of a received line.
    Wire(&'a [u8]),
}

impl Changes<'_> {
    /// The changes, in wire order.
    pub fn iter(&self) -> impl Iterator<Item = Change> + '_ {
        let (typed, wire): (&[Change], &[u8]) = match self {
            Self::Typed(c) => (c, &[]),
            Self::Wire(w) => (&[], w),
        };
        let items = wire.split(|&b| b == b';').filter(|i| !i.is_empty());
        typed.iter().copied().chain(items.map(|item| {
            let (digits, state) = item.split_at(item.len() - 1);
            Change {
                point: Point(checked_index(digits)),
                state: state_of(state[0]),
            }
        }))
    }
}

/// The points of a `LED` frame.
#[derive(Debug, Clone, Copy)]
pub enum Indices<'a> {
    /// Typed points.
    Typed(&'a [Point]),
    /// The validated `<idx>[;<idx>]*` list of a received line (empty: no points).
    Wire(&'a [u8]),
}

impl Indices<'_> {
    /// The points, in wire order.
    pub fn iter(&self) -> impl Iterator<Item = Point> + '_ {
        let (typed, wire): (&[Point], &[u8]) = match self {
            Self::Typed(p) => (p, &[]),
            Self::Wire(w) => (&[], w),
        };
        let items = wire.split(|&b| b == b';').filter(|i| !i.is_empty());
        typed
            .iter()
            .copied()
            .chain(items.map(|i| Point(checked_index(i))))
    }
}

/// A state character the parser has validated.
pub(crate) const fn state_of(byte: u8) -> PointState {
    match byte {
        b'B' => PointState::Black,
        b'W' => PointState::White,
        b'?' => PointState::Unknown,
        _ => PointState::Empty,
    }
}

/// Decimal digits the parser has validated as an index below 361.
fn checked_index(digits: &[u8]) -> u16 {
    digits.iter().fold(0u16, |acc, &d| {
        acc.wrapping_mul(10).wrapping_add(u16::from(d - b'0'))
    })
}

/// One frame of wire protocol v1 with borrowed lists and texts; see [`crate::Frame`]
/// for the meaning of each variant and field.
#[derive(Debug, Clone, Copy)]
#[allow(missing_docs)] // the fields are those of `Frame`
pub enum FrameRef<'a> {
    BoardHello {
        size: BoardSize,
        firmware: &'a str,
        serial: &'a str,
    },
    ClockHello {
        firmware: &'a str,
        serial: &'a str,
    },
    Snap {
        seq: Seq,
        ms: u32,
        points: States<'a>,
    },
    Diff {
        seq: Seq,
        ms: u32,
        changes: Changes<'a>,
    },
    Beat {
        ms: u32,
    },
    Fault {
        code: &'a str,
        text: &'a str,
    },
    Press {
        seq: Seq,
        ms: u32,
        button: Button,
    },
    Key {
        seq: Seq,
        ms: u32,
        key: Key,
    },
    Caps {
        sync: bool,
        zones: bool,
    },
    Zone {
        ms: u32,
        black: PointState,
        white: PointState,
    },
    SyncEcho {
        token: u32,
        ms: u32,
    },
    Sync {
        token: u32,
    },
    HelloQuery,
    SnapQuery,
    Led {
        points: Indices<'a>,
    },
    Show {
        black_ms: u32,
        white_ms: u32,
        black_periods: u32,
        white_periods: u32,
        running: Running,
    },
    Beep {
        count: u32,
    },
}

impl FrameRef<'_> {
    /// The kind of this frame.
    pub const fn kind(&self) -> crate::FrameKind {
        use crate::FrameKind as K;
        match self {
            Self::BoardHello { .. } => K::BoardHello,
            Self::ClockHello { .. } => K::ClockHello,
            Self::Snap { .. } => K::Snap,
            Self::Diff { .. } => K::Diff,
            Self::Beat { .. } => K::Beat,
            Self::Fault { .. } => K::Fault,
            Self::Press { .. } => K::Press,
            Self::Key { .. } => K::Key,
            Self::Caps { .. } => K::Caps,
            Self::Zone { .. } => K::Zone,
            Self::SyncEcho { .. } => K::SyncEcho,
            Self::Sync { .. } => K::Sync,
            Self::HelloQuery => K::HelloQuery,
            Self::SnapQuery => K::SnapQuery,
            Self::Led { .. } => K::Led,
            Self::Show { .. } => K::Show,
            Self::Beep { .. } => K::Beep,
        }
    }
}
