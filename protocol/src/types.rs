//! Value types carried by frames: point states, points, board sizes, buttons, keys, text fields.

#[cfg(feature = "std")]
use crate::error::ProtocolError;
use core::fmt;
#[cfg(feature = "std")]
use serde::{Deserialize, Serialize};

/// The state of one point as a board sensor reports it (wire protocol v1, "Point states").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "std", derive(Serialize, Deserialize))]
pub enum PointState {
    /// `.`: no stone.
    Empty,
    /// `B`: a black stone.
    Black,
    /// `W`: a white stone.
    White,
    /// `?`: the sensor of that point is faulty or unreadable now.
    Unknown,
}

impl PointState {
    /// The wire character.
    pub const fn to_byte(self) -> u8 {
        match self {
            Self::Empty => b'.',
            Self::Black => b'B',
            Self::White => b'W',
            Self::Unknown => b'?',
        }
    }

    /// Parses a wire character; `None` for anything but `.`, `B`, `W`, `?`.
    pub const fn from_byte(byte: u8) -> Option<Self> {
        match byte {
            b'.' => Some(Self::Empty),
            b'B' => Some(Self::Black),
            b'W' => Some(Self::White),
            b'?' => Some(Self::Unknown),
            _ => None,
        }
    }
}

/// A point index, row-major: `row * size + col`, row 0 the top line seen from Black.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "std", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "std", serde(transparent))]
pub struct Point(pub u16);

/// One changed point of a `DIFF` frame: `<idx><state>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "std", derive(Serialize, Deserialize))]
pub struct Change {
    /// The point that changed.
    pub point: Point,
    /// Its new state.
    pub state: PointState,
}

/// A board size protocol v1 knows: 9, 13 or 19.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "std", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "std", serde(try_from = "u32", into = "u32"))]
pub struct BoardSize(u8);

impl BoardSize {
    /// 9x9.
    pub const NINE: Self = Self(9);
    /// 13x13.
    pub const THIRTEEN: Self = Self(13);
    /// 19x19.
    pub const NINETEEN: Self = Self(19);
    /// The largest size: bounds indices while the size is not known yet.
    pub const LARGEST: Self = Self::NINETEEN;

    /// Validates a size; only 9, 13 and 19 exist in protocol v1.
    #[cfg(feature = "std")]
    pub const fn new(size: u32) -> Result<Self, ProtocolError> {
        match Self::from_lines(size) {
            Some(size) => Ok(size),
            None => Err(ProtocolError::InvalidBoardSize(size)),
        }
    }

    /// The size of `lines` lines, if protocol v1 knows it (9, 13 or 19).
    pub const fn from_lines(lines: u32) -> Option<Self> {
        match lines {
            9 => Some(Self::NINE),
            13 => Some(Self::THIRTEEN),
            19 => Some(Self::NINETEEN),
            _ => None,
        }
    }

    /// The number of lines, N.
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The number of points, N*N (also the length of a `SNAP`).
    pub const fn points(self) -> u16 {
        self.0 as u16 * self.0 as u16
    }

    /// The size whose point count is `len`, if any (a `SNAP` before any `HELLO`).
    pub const fn from_points(len: usize) -> Option<Self> {
        match len {
            81 => Some(Self::NINE),
            169 => Some(Self::THIRTEEN),
            361 => Some(Self::NINETEEN),
            _ => None,
        }
    }
}

#[cfg(feature = "std")]
impl TryFrom<u32> for BoardSize {
    type Error = ProtocolError;
    fn try_from(size: u32) -> Result<Self, Self::Error> {
        Self::new(size)
    }
}

impl From<BoardSize> for u32 {
    fn from(size: BoardSize) -> Self {
        Self::from(size.0)
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Which device sent a `HELLO`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "std", derive(Serialize, Deserialize))]
pub enum DeviceKind {
    /// `BOARD`: the sensor board.
    Board,
    /// `CLOCK`: the game clock.
    Clock,
}

impl DeviceKind {
    /// The wire word.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Board => "BOARD",
            Self::Clock => "CLOCK",
        }
    }
}

/// A player's clock button, left and right as seen from the arbiter facing the display.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "std", derive(Serialize, Deserialize))]
pub enum Button {
    /// `L` (Black's by default: the clock stands on White's right).
    L,
    /// `R` (White's by default).
    R,
}

impl Button {
    /// The wire word.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::L => "L",
            Self::R => "R",
        }
    }

    pub(crate) fn parse(field: &[u8]) -> Option<Self> {
        match field {
            b"L" => Some(Self::L),
            b"R" => Some(Self::R),
            _ => None,
        }
    }
}

/// A clock key other than the two player buttons.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "std", derive(Serialize, Deserialize))]
pub enum Key {
    /// `PAUSE`.
    Pause,
    /// `RESUME`.
    Resume,
    /// `RESIGN_L`: the player on the left resigns.
    ResignL,
    /// `RESIGN_R`: the player on the right resigns.
    ResignR,
    /// `DONE_L`: the player on the left declares the game finished.
    DoneL,
    /// `DONE_R`: the player on the right declares the game finished.
    DoneR,
}

impl Key {
    /// The wire word.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Pause => "PAUSE",
            Self::Resume => "RESUME",
            Self::ResignL => "RESIGN_L",
            Self::ResignR => "RESIGN_R",
            Self::DoneL => "DONE_L",
            Self::DoneR => "DONE_R",
        }
    }

    pub(crate) fn parse(field: &[u8]) -> Option<Self> {
        match field {
            b"PAUSE" => Some(Self::Pause),
            b"RESUME" => Some(Self::Resume),
            b"RESIGN_L" => Some(Self::ResignL),
            b"RESIGN_R" => Some(Self::ResignR),
            b"DONE_L" => Some(Self::DoneL),
            b"DONE_R" => Some(Self::DoneR),
            _ => None,
        }
    }
}

/// Whose clock runs, in a `SHOW` frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "std", derive(Serialize, Deserialize))]
pub enum Running {
    /// `B`: Black's time runs.
    Black,
    /// `W`: White's time runs.
    White,
    /// `-`: neither (paused, not started or finished).
    Stopped,
}

impl Running {
    /// The wire character.
    pub const fn to_byte(self) -> u8 {
        match self {
            Self::Black => b'B',
            Self::White => b'W',
            Self::Stopped => b'-',
        }
    }

    pub(crate) fn parse(field: &[u8]) -> Option<Self> {
        match field {
            b"B" => Some(Self::Black),
            b"W" => Some(Self::White),
            b"-" => Some(Self::Stopped),
            _ => None,
        }
    }
}

/// A device counter (`<seq>` of SNAP/DIFF or of PRESS/KEY), u32 that wraps to 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "std", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "std", serde(transparent))]
pub struct Seq(pub u32);

impl Seq {
    /// The next counter value, wrapping from 4294967295 to 0.
    pub const fn next(self) -> Self {
        Self(self.0.wrapping_add(1))
    }
}

impl fmt::Display for Seq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A free-text field (firmware, serial, fault code or text): printable ASCII without
/// `$`, `*` or `,`, so it always encodes to a valid frame. May be empty.
#[cfg(feature = "std")]
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "std", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "std", serde(try_from = "String", into = "String"))]
pub struct Text(String);

#[cfg(feature = "std")]
impl Text {
    /// Validates a text field.
    pub fn new(text: impl Into<String>) -> Result<Self, ProtocolError> {
        let text = text.into();
        if text.bytes().all(is_text_byte) {
            Ok(Self(text))
        } else {
            Err(ProtocolError::InvalidText(text))
        }
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Builds from wire bytes the decoder has already checked with [`is_text_byte`].
    pub(crate) fn from_checked(bytes: &[u8]) -> Self {
        Self(bytes.iter().map(|&b| char::from(b)).collect())
    }
}

/// Whether a byte may appear in a text field: printable ASCII but `$`, `*`, `,`.
pub const fn is_text_byte(byte: u8) -> bool {
    matches!(byte, 0x20..=0x7E) && !matches!(byte, b'$' | b'*' | b',')
}

#[cfg(feature = "std")]
impl TryFrom<String> for Text {
    type Error = ProtocolError;
    fn try_from(text: String) -> Result<Self, Self::Error> {
        Self::new(text)
    }
}

#[cfg(feature = "std")]
impl TryFrom<&str> for Text {
    type Error = ProtocolError;
    fn try_from(text: &str) -> Result<Self, Self::Error> {
        Self::new(text)
    }
}

#[cfg(feature = "std")]
impl From<Text> for String {
    fn from(text: Text) -> Self {
        text.0
    }
}

#[cfg(feature = "std")]
impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

#[cfg(feature = "std")]
impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;

    #[test]
    fn text_refuses_what_would_break_a_frame() {
        for bad in [
            "a,b",
            "a*b",
            "$",
            "tab\there",
            "cr\r",
            "lf\n",
            "caf\u{e9}",
            "\u{7f}",
        ] {
            assert_eq!(
                Text::new(bad),
                Err(ProtocolError::InvalidText(bad.to_owned())),
                "{bad:?}"
            );
        }
        for good in ["", "fw-1.2.0", "sensor row 3 dead (~5V?)", "a;b:c/d"] {
            assert_eq!(Text::new(good).map(String::from), Ok(good.to_owned()));
        }
    }

    #[test]
    fn text_deserialisation_validates_too() {
        assert!(serde_json::from_str::<Text>("\"ok\"").is_ok());
        assert!(serde_json::from_str::<Text>("\"no,comma\"").is_err());
    }

    #[test]
    fn board_sizes_of_protocol_v1() {
        // Spec "Coordinates": a board of size N (9, 13 or 19).
        for n in [9u32, 13, 19] {
            let size = BoardSize::new(n).map(BoardSize::points);
            assert_eq!(size.map(u32::from), Ok(n * n));
            assert_eq!(
                BoardSize::from_points((n * n) as usize).map(u32::from),
                Some(n)
            );
        }
        for n in [0u32, 1, 7, 10, 21, 256] {
            assert_eq!(BoardSize::new(n), Err(ProtocolError::InvalidBoardSize(n)));
        }
        assert!(serde_json::from_str::<BoardSize>("12").is_err());
    }

    #[test]
    fn point_state_characters() {
        for state in [
            PointState::Empty,
            PointState::Black,
            PointState::White,
            PointState::Unknown,
        ] {
            assert_eq!(PointState::from_byte(state.to_byte()), Some(state));
        }
        assert_eq!(PointState::from_byte(b'b'), None);
        assert_eq!(PointState::from_byte(b' '), None);
    }

    #[test]
    fn seq_next_wraps() {
        assert_eq!(Seq(u32::MAX).next(), Seq(0));
        assert_eq!(Seq(41).next(), Seq(42));
    }
}
