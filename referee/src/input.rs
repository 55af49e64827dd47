//! The referee's inputs: everything the daemon hands in, serialisable so the journal can replay it.

use goban_rules::{Color, KoRule, Ruleset};
use serde::{Deserialize, Serialize};

use crate::clock::TimeControl;
use crate::infraction::InfractionId;

/// One sensor reading of a point, as the wire protocol writes it (wire-protocol.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Reading {
    /// `.`: no stone.
    #[serde(rename = ".")]
    Empty,
    /// `B`: a black stone.
    #[serde(rename = "B")]
    Black,
    /// `W`: a white stone.
    #[serde(rename = "W")]
    White,
    /// `?`: the sensor is faulty or unreadable now.
    #[serde(rename = "?")]
    Unknown,
}

impl Reading {
    /// Parses one wire character; `None` for anything else.
    pub fn from_char(c: char) -> Option<Self> {
        match c {
            '.' => Some(Self::Empty),
            'B' => Some(Self::Black),
            'W' => Some(Self::White),
            '?' => Some(Self::Unknown),
            _ => None,
        }
    }

    /// The wire character.
    pub fn to_char(self) -> char {
        match self {
            Self::Empty => '.',
            Self::Black => 'B',
            Self::White => 'W',
            Self::Unknown => '?',
        }
    }

    /// The stone colour read here, if any.
    pub fn color(self) -> Option<Color> {
        match self {
            Self::Black => Some(Color::Black),
            Self::White => Some(Color::White),
            _ => None,
        }
    }

    /// The reading a stone of `color` (or an empty point) gives.
    pub fn from_color(color: Option<Color>) -> Self {
        match color {
            Some(Color::Black) => Self::Black,
            Some(Color::White) => Self::White,
            None => Self::Empty,
        }
    }
}

/// One changed point of a DIFF frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PointChange {
    /// Wire index (row-major, row 0 = line N as seen by Black).
    pub index: u16,
    /// The new reading.
    pub state: Reading,
}

/// A clock button, as seen from the arbiter facing the display (wire-protocol.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Button {
    /// The left button (Black's by default: the clock stands on White's right, CN2002 12.1).
    L,
    /// The right button (White's by default).
    R,
}

impl Button {
    /// The other button.
    pub fn other(self) -> Self {
        match self {
            Self::L => Self::R,
            Self::R => Self::L,
        }
    }
}

/// A clock key other than the two player buttons (wire-protocol.md `$KEY`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ClockKey {
    /// Pause both clocks.
    Pause,
    /// Resume after a pause.
    Resume,
    /// The player on the left resigns.
    ResignL,
    /// The player on the right resigns.
    ResignR,
    /// The player on the left declares the game finished (CN2002 7).
    DoneL,
    /// The player on the right declares the game finished.
    DoneR,
}

/// Which device an input is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Device {
    /// The sensor board.
    Board,
    /// The game clock.
    Clock,
}

/// Everything needed to start a game; every field defaults to the referee's config.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GameSetup {
    /// Game id, e.g. "2026-11-30-table-1-1"; default: the config's `game` or "<board>-<n>".
    pub game: Option<String>,
    /// Black player's name.
    pub black: Option<String>,
    /// White player's name.
    pub white: Option<String>,
    /// Ruleset; default from config.
    pub ruleset: Option<Ruleset>,
    /// Komi in points; default per ruleset.
    pub komi: Option<f64>,
    /// Handicap stones (0 = none), on the fixed points unless `free_handicap`.
    pub handicap: Option<u8>,
    /// Black places the handicap stones freely; the referee reads them off the board.
    pub free_handicap: Option<bool>,
    /// Ko rule; default per ruleset.
    pub ko_rule: Option<KoRule>,
    /// Time control; default from config.
    pub time_control: Option<TimeControl>,
    /// Whether the draw fixed the colours (a swap is then `wrong_colour`, CN2002 17.1).
    pub colours_fixed: Option<bool>,
    /// Event name for the SGF `EV`.
    pub event: Option<String>,
    /// Round for the SGF `RO` (a tournament round's number).
    pub round: Option<String>,
    /// Place for the SGF `PC`.
    pub place: Option<String>,
}

/// An arbiter's decision on an alert (docs/referee.md "For the arbiter").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum RulingAction {
    /// The infraction happened; no sanction beyond what was applied.
    Confirm,
    /// The infraction happened; apply the sanction the ruleset names.
    Sanction,
    /// No infraction.
    Dismiss,
    /// `time_forfeit` only: convert the flag fall into a pass and continue (CN2002 22.5).
    Convert,
}

/// A command from an authenticated arbiter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "snake_case")]
pub enum ArbiterCommand {
    /// Start a new game and its clock.
    StartGame(GameSetup),
    /// Rule on an alert.
    Ruling {
        /// The alert.
        id: InfractionId,
        /// What to do.
        action: RulingAction,
        /// Free text for the record.
        #[serde(default)]
        note: String,
    },
    /// "I'm on my way": an arbiter takes an open alert, so others see who walks to the
    /// table; `withdraw` hands it back. Changes nothing in the game.
    Acknowledge {
        /// The alert.
        id: InfractionId,
        /// Hand the alert back: nobody is on the way any more.
        #[serde(default)]
        withdraw: bool,
        /// Take an alert another arbiter already took.
        #[serde(default)]
        take_over: bool,
    },
    /// Stop both clocks (CN2002 14).
    Pause,
    /// Restart the clock of the side to move.
    Resume,
    /// Correct a clock (CN2002 22.8-22.9), recorded with who did it.
    AdjustClock {
        /// Whose time.
        color: Color,
        /// Milliseconds to add (negative: take away).
        delta_ms: i64,
        /// Who made the correction.
        #[serde(default)]
        by: String,
    },
    /// A player was absent when the clock started (CN2002 22.1-22.4).
    LateStart {
        /// The late player.
        color: Color,
        /// How long they were absent.
        absent_ms: u64,
    },
    /// Seal the next move and adjourn (CN2002 14).
    Seal,
    /// Resume an adjourned game.
    Unseal,
    /// Mark (or unmark) dead the groups of the named stones during counting (CN2002 8, 21.4).
    MarkDead {
        /// Points in "D4" notation; one stone names its whole group.
        points: Vec<String>,
        /// `true` marks dead, `false` alive.
        dead: bool,
    },
    /// Rule the groups of the named stones in seki, or not, during counting (CN2002 21.2;
    /// under JK the points a group in seki surrounds are not territory).
    MarkSeki {
        /// Points in "D4" notation; one stone names its living block.
        points: Vec<String>,
        /// The ruling; `None` withdraws an earlier one (the count's own reading decides again).
        #[serde(default)]
        ruling: Option<goban_rules::score::SekiRuling>,
    },
    /// Confirm the counted score as the final result.
    ConfirmResult,
    /// The players dispute dead stones: play resumes, `first` (the side claiming
    /// "dead") moves first (CN2002 21.4).
    ResumePlay {
        /// Who moves first.
        first: Color,
    },
    /// Record or correct the result (SGF `RE` form, e.g. "B+R"; a margin in the game's unit).
    SetResult {
        /// The result, read when the command was; its margin takes the game's unit.
        result: goban_rules::StatedResult,
        /// Needed to end a game still in play (playing or paused); absent in journals
        /// written before the flag existed, which were applied unconditionally.
        #[serde(default = "forced_by_default")]
        force: bool,
    },
    /// Void a move (any stone, not only the last): it counts as a pass; the later
    /// moves are replayed and the command is refused if one becomes illegal.
    VoidMove {
        /// Its number.
        number: u32,
    },
    /// Restore a voided move (any), refused if a later move becomes illegal.
    RestoreMove {
        /// Its number.
        number: u32,
    },
    /// Give the order of a setup block: moves played while the board could not see, recorded
    /// with their order unknown (`order_known: false`). Refused unless `points` are exactly
    /// the block's stones, one of each colour in turn from the side that was to move, and
    /// every later move stays legal.
    OrderMoves {
        /// The number of the block's first move.
        first: u32,
        /// The block's stones ("D4") in the order they were played.
        points: Vec<String>,
    },
}

fn forced_by_default() -> bool {
    true
}

impl ArbiterCommand {
    /// The command's name as the audit trail and the metrics write it.
    pub fn name(&self) -> &'static str {
        match self {
            Self::StartGame(_) => "start_game",
            Self::Ruling { .. } => "ruling",
            Self::Acknowledge { .. } => "acknowledge",
            Self::Pause => "pause",
            Self::Resume => "resume",
            Self::AdjustClock { .. } => "adjust_clock",
            Self::LateStart { .. } => "late_start",
            Self::Seal => "seal",
            Self::Unseal => "unseal",
            Self::MarkDead { .. } => "mark_dead",
            Self::MarkSeki { .. } => "mark_seki",
            Self::ConfirmResult => "confirm_result",
            Self::ResumePlay { .. } => "resume_play",
            Self::SetResult { .. } => "set_result",
            Self::VoidMove { .. } => "void_move",
            Self::RestoreMove { .. } => "restore_move",
            Self::OrderMoves { .. } => "order_moves",
        }
    }
}

/// An arbiter command with who gave it and why: the unit of the audit trail.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArbiterAct {
    /// Who gave it: the daemon's label of the arbiter ("arbiter#1"), never a token.
    pub by: String,
    /// The arbiter's note for the record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// What to do.
    pub command: ArbiterCommand,
}

/// One input of the referee; the daemon stamps each with its receive time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Input {
    /// A full snapshot: size*size wire characters in index order.
    BoardSnapshot {
        /// The points, e.g. "....B....".
        points: String,
    },
    /// Changed points since the previous board frame.
    BoardDiff {
        /// The changes.
        changes: Vec<PointChange>,
    },
    /// The board's sequence numbers jumped: frames were lost; trust nothing until a snapshot.
    BoardGap,
    /// What lies in the off-board zones now (wire extension `ZONE`, docs/protocol.md 10.2):
    /// the agreed end of CN2002 puts stones there.
    BoardZones {
        /// The zone at Black's lower right.
        black: Reading,
        /// The zone at White's lower right.
        white: Reading,
    },
    /// A clock button was pressed.
    ClockPress {
        /// Which one.
        button: Button,
    },
    /// A clock button press read in a backlog: among the first frames of a clock link after
    /// it (or the daemon) was away, all read at once, so when it happened is unknown (issue
    /// 39.7). It switches the clock like a press, but is held like a press made while the
    /// board could not see, and the board is read afresh to explain it (referee-notes point 7).
    BacklogPress {
        /// Which one.
        button: Button,
    },
    /// Another clock key.
    ClockKey {
        /// Which one.
        key: ClockKey,
    },
    /// The clock's sequence numbers jumped: a press may be lost.
    ClockGap,
    /// A device link rejected frames (bad CRC, bad format...) since its last report: they
    /// count in `device.rejected_frames` as on `/health`, and change nothing else.
    FramesRejected {
        /// How many since the last report.
        frames: u64,
    },
    /// A device answered.
    DeviceConnected {
        /// Which.
        device: Device,
    },
    /// A device went silent or its port vanished.
    DeviceDisconnected {
        /// Which.
        device: Device,
    },
    /// The deadline from `poll_timeout` passed.
    Timeout,
    /// An arbiter command without a signature (journals written before
    /// [`ArbiterAct`] existed, and in-process callers); recorded as by "arbiter".
    Arbiter(ArbiterCommand),
    /// An arbiter command signed with who gave it and their note.
    ArbiterAct(ArbiterAct),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_round_trip_through_json() {
        let inputs = vec![
            Input::BoardSnapshot {
                points: "..B?".into(),
            },
            Input::BoardDiff {
                changes: vec![PointChange {
                    index: 72,
                    state: Reading::Black,
                }],
            },
            Input::ClockPress { button: Button::L },
            Input::FramesRejected { frames: 3 },
            Input::BoardZones {
                black: Reading::White,
                white: Reading::Empty,
            },
            Input::ClockKey {
                key: ClockKey::DoneR,
            },
            Input::Arbiter(ArbiterCommand::AdjustClock {
                color: Color::White,
                delta_ms: -60_000,
                by: "arbiter A".into(),
            }),
            Input::ArbiterAct(ArbiterAct {
                by: "arbiter#2".into(),
                note: Some("clock fault".into()),
                command: ArbiterCommand::SetResult {
                    result: "B+R".parse().unwrap(),
                    force: false,
                },
            }),
            Input::Timeout,
        ];
        for input in inputs {
            let json = serde_json::to_string(&input).unwrap();
            let back: Input = serde_json::from_str(&json).unwrap();
            assert_eq!(back, input, "{json}");
        }
    }

    #[test]
    fn old_journal_results_stay_forced() {
        let old = r#"{"type":"arbiter","command":"set_result","result":"W+R"}"#;
        let input: Input = serde_json::from_str(old).unwrap();
        let Input::Arbiter(ArbiterCommand::SetResult { force, .. }) = input else {
            panic!("{input:?}");
        };
        assert!(
            force,
            "a result journaled before `force` existed was applied as given"
        );
    }

    #[test]
    fn readings_use_wire_characters() {
        let json = serde_json::to_string(&Reading::Unknown).unwrap();
        assert_eq!(json, "\"?\"");
        assert_eq!(Reading::from_char('W'), Some(Reading::White));
        assert_eq!(Reading::from_char('x'), None);
    }
}
