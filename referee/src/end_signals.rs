//! The physical end signals of CN2002 ("终局"): two own stones at one's lower-right corner propose a
//! resignation; opponent-colour stones outside the lines, mover first, agree the end.
//!
//! Pure recognisers; `ending.rs` hooks them into the referee: the
//! interpreter asks [`resignation_proposal`] before it calls a burst of
//! stones a `double_move`, and the off-board zone readings (wire extension
//! `ZONE`, docs/protocol.md 10.2) settle in a [`ZoneReader`] and go to
//! [`AgreedEnd`].
//!
//! Sides: "lower right" is each player's own. Seen from Black's seat that
//! is the last point in wire index order (T1 on 19x19); from White's seat,
//! across the board, it is index 0 (A19).

use goban_rules::Color;
use serde::{Deserialize, Serialize};

use crate::Timestamp;
use crate::input::Reading;

/// A physical end signal the state shows (api.md `end_signal`), until it is
/// confirmed, answered or lapses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "signal", rename_all = "snake_case")]
pub enum EndSignal {
    /// Two of `color`'s stones at their lower-right corner: `color` proposes
    /// to resign. `proposed_result` holds the result; the arbiter confirms it
    /// with `confirm_result`. It lapses when a stone is lifted or a move is played.
    Resignation {
        /// Who resigns.
        color: Color,
        /// The two points ("T1", "S1").
        points: Vec<String>,
        /// Moves played when it was seen.
        move_number: u32,
    },
    /// The player to move put an opponent's stone in their off-board zone:
    /// the opponent's stone in their own zone ends play (CN2002 7, 21).
    AgreedEndProposed {
        /// Who signalled first.
        color: Color,
        /// Moves played when it was seen.
        move_number: u32,
    },
    /// A zone signal that is not the agreed end (the player not to move
    /// first, a stone of the wrong colour, the same player twice): nothing
    /// changed; the arbiter may want to look.
    OutOfOrder {
        /// Whose zone.
        zone: Color,
        /// The colour of the stone put there.
        stone: Color,
        /// Moves played when it was seen.
        move_number: u32,
    },
}

/// The off-board zones' readings, debounced like the points: a zone counts
/// once it has read the same for `settle_ms`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct ZoneReader {
    /// The steady readings, Black's zone then White's.
    steady: [Reading; 2],
    /// The latest readings while they differ from `steady`, and since when.
    pending: Option<([Reading; 2], Timestamp)>,
}

impl Default for ZoneReader {
    fn default() -> Self {
        Self {
            steady: [Reading::Empty; 2],
            pending: None,
        }
    }
}

impl ZoneReader {
    /// A `$ZONE` frame arrived at `now`.
    pub(crate) fn handle_reading(&mut self, now: Timestamp, zones: [Reading; 2]) {
        if zones == self.steady {
            self.pending = None;
        } else if self.pending.is_none_or(|(r, _)| r != zones) {
            self.pending = Some((zones, now));
        }
    }

    /// When the pending readings become steady.
    pub(crate) fn poll_timeout(&self, settle_ms: u64) -> Option<Timestamp> {
        self.pending.map(|(_, at)| at.plus_ms(settle_ms))
    }

    /// Settles the pending readings; returns the stones that appeared, as
    /// (zone owner, stone colour).
    pub(crate) fn settle(&mut self) -> Vec<(Color, Color)> {
        let Some((now, _)) = self.pending.take() else {
            return Vec::new();
        };
        let owners = [Color::Black, Color::White];
        let appeared = owners
            .into_iter()
            .zip(self.steady.iter().zip(&now))
            .filter_map(|(owner, (before, after))| {
                let stone = after.color()?;
                (before.color() != Some(stone)).then_some((owner, stone))
            })
            .collect();
        self.steady = now;
        appeared
    }
}

/// Settings of the resignation signal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ResignationSignal {
    /// Recognise the signal at all (default on).
    pub enabled: bool,
    /// How far from the corner point the stones may lie, in lines (0: the
    /// corner point only, 1 (default): the corner and the points next to it).
    pub reach: u8,
}

impl Default for ResignationSignal {
    fn default() -> Self {
        Self {
            enabled: true,
            reach: 1,
        }
    }
}

/// Whether wire index `index` of a `size` board lies within `reach` lines of `player`'s lower-right corner.
#[must_use]
pub fn near_own_corner(size: u8, index: u16, player: Color, reach: u8) -> bool {
    let n = u16::from(size);
    if index >= n * n {
        return false;
    }
    let (row, col) = (index / n, index % n);
    // Distance in lines from the corner, counted from the player's seat.
    let (dr, dc) = match player {
        Color::Black => (n - 1 - row, n - 1 - col),
        Color::White => (row, col),
    };
    dr.max(dc) <= u16::from(reach)
}

/// The colour that proposes to resign, if `appeared` (stones that appeared
/// together, with no clock press and no legal move explaining them) is the
/// CN2002 signal: exactly two stones of one colour, both near that colour's
/// own lower-right corner.
#[must_use]
pub fn resignation_proposal(
    size: u8,
    appeared: &[(u16, Color)],
    pressed: bool,
    explained_by_a_move: bool,
    signal: ResignationSignal,
) -> Option<Color> {
    if !signal.enabled || pressed || explained_by_a_move {
        return None;
    }
    let [(a, colour), (b, other)] = appeared else {
        return None;
    };
    (colour == other
        && near_own_corner(size, *a, *colour, signal.reach)
        && near_own_corner(size, *b, *colour, signal.reach))
    .then_some(*colour)
}

/// What one off-board signal did to the agreed end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndStep {
    /// The player to move signalled first: waiting for the opponent.
    Proposed(Color),
    /// Both signalled in order: the game goes to counting (CN2002 7, 21).
    Agreed,
    /// A signal out of order (the player not to move first, or a stone of
    /// the wrong colour): nothing changes; the arbiter is told.
    WrongOrder,
}

/// The agreed-end sequence: "先由轮走方，后是对方以异色棋子一枚放于己方棋盘右下角的线外".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgreedEnd {
    first: Option<Color>,
}

impl AgreedEnd {
    /// A stone of colour `stone` appeared in `side`'s off-board zone while
    /// `to_move` is to play. Each player puts a stone of the opponent's
    /// colour in their own zone; the player to move goes first.
    pub fn handle_zone(&mut self, side: Color, stone: Color, to_move: Color) -> EndStep {
        if stone != side.opponent() {
            return EndStep::WrongOrder;
        }
        match self.first {
            None if side == to_move => {
                self.first = Some(side);
                EndStep::Proposed(side)
            }
            Some(first) if side == first.opponent() => {
                self.first = None;
                EndStep::Agreed
            }
            _ => EndStep::WrongOrder,
        }
    }

    /// A move was played: a pending proposal lapses (CN2002 21.1: play continues).
    pub fn handle_move(&mut self) {
        self.first = None;
    }

    /// The player who signalled first, while waiting for the other.
    #[must_use]
    pub const fn pending(&self) -> Option<Color> {
        self.first
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zone_stone_counts_once_it_settles() {
        let mut zones = ZoneReader::default();
        zones.handle_reading(Timestamp(100), [Reading::White, Reading::Empty]);
        assert_eq!(zones.poll_timeout(300), Some(Timestamp(400)));
        // A hand over the zone: the reading flickers back, nothing settles.
        zones.handle_reading(Timestamp(200), [Reading::Empty, Reading::Empty]);
        assert_eq!(zones.poll_timeout(300), None);
        zones.handle_reading(Timestamp(250), [Reading::White, Reading::Empty]);
        assert_eq!(zones.poll_timeout(300), Some(Timestamp(550)));
        assert_eq!(zones.settle(), vec![(B, W)]);
        // The same stone read again is no new signal; `?` is none either.
        zones.handle_reading(Timestamp(600), [Reading::White, Reading::Unknown]);
        assert_eq!(zones.settle(), vec![]);
        zones.handle_reading(Timestamp(700), [Reading::White, Reading::Black]);
        assert_eq!(zones.settle(), vec![(W, B)]);
    }

    const B: Color = Color::Black;
    const W: Color = Color::White;

    #[test]
    fn each_player_has_their_own_lower_right() {
        // 19x19: T1 is index 360 (Black's corner), A19 index 0 (White's).
        assert!(near_own_corner(19, 360, B, 0));
        assert!(near_own_corner(19, 0, W, 0));
        assert!(!near_own_corner(19, 0, B, 1));
        assert!(near_own_corner(19, 359, B, 1), "S1, next to T1");
        assert!(near_own_corner(19, 341, B, 1), "T2");
        assert!(!near_own_corner(19, 358, B, 1), "R1 is two lines away");
        assert!(!near_own_corner(19, 400, B, 5), "off the board");
    }

    #[test]
    fn two_own_stones_at_the_corner_propose_resignation() {
        let s = ResignationSignal::default();
        assert_eq!(
            resignation_proposal(19, &[(360, B), (359, B)], false, false, s),
            Some(B)
        );
        assert_eq!(
            resignation_proposal(9, &[(0, W), (1, W)], false, false, s),
            Some(W)
        );
    }

    #[test]
    fn anything_else_is_not_a_resignation() {
        let s = ResignationSignal::default();
        assert_eq!(
            resignation_proposal(19, &[(360, B)], false, false, s),
            None,
            "one stone"
        );
        assert_eq!(
            resignation_proposal(19, &[(360, B), (359, W)], false, false, s),
            None,
            "mixed"
        );
        assert_eq!(
            resignation_proposal(19, &[(360, W), (359, W)], false, false, s),
            None,
            "White at Black's corner"
        );
        assert_eq!(
            resignation_proposal(19, &[(360, B), (359, B)], true, false, s),
            None,
            "with a press"
        );
        assert_eq!(
            resignation_proposal(19, &[(360, B), (359, B)], false, true, s),
            None,
            "a legal move explains it"
        );
        assert_eq!(
            resignation_proposal(19, &[(360, B), (358, B)], false, false, s),
            None,
            "too far"
        );
        let off = ResignationSignal {
            enabled: false,
            reach: 1,
        };
        assert_eq!(
            resignation_proposal(19, &[(360, B), (359, B)], false, false, off),
            None,
            "switched off"
        );
        let wide = ResignationSignal {
            enabled: true,
            reach: 2,
        };
        assert_eq!(
            resignation_proposal(19, &[(360, B), (358, B)], false, false, wide),
            Some(B)
        );
    }

    #[test]
    fn the_mover_then_the_opponent_agree_the_end() {
        let mut end = AgreedEnd::default();
        assert_eq!(end.handle_zone(W, B, W), EndStep::Proposed(W));
        assert_eq!(end.pending(), Some(W));
        assert_eq!(end.handle_zone(B, W, W), EndStep::Agreed);
        assert_eq!(end.pending(), None);
    }

    #[test]
    fn the_wrong_order_or_colour_changes_nothing() {
        let mut end = AgreedEnd::default();
        assert_eq!(
            end.handle_zone(B, W, W),
            EndStep::WrongOrder,
            "not the player to move"
        );
        assert_eq!(end.handle_zone(W, W, W), EndStep::WrongOrder, "own colour");
        assert_eq!(end.pending(), None);
        assert_eq!(end.handle_zone(W, B, W), EndStep::Proposed(W));
        assert_eq!(
            end.handle_zone(W, B, W),
            EndStep::WrongOrder,
            "the same player twice"
        );
        assert_eq!(end.pending(), Some(W));
    }

    #[test]
    fn one_signal_alone_lapses_when_play_goes_on() {
        let mut end = AgreedEnd::default();
        assert_eq!(end.handle_zone(B, W, B), EndStep::Proposed(B));
        end.handle_move();
        assert_eq!(end.pending(), None);
        assert_eq!(
            end.handle_zone(W, B, B),
            EndStep::WrongOrder,
            "the answer comes too late"
        );
    }
}
