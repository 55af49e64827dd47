//! The referee's outputs: events with their board, game and time, serialisable for SSE, MQTT and the journal.

use goban_rules::Color;
use serde::{Deserialize, Serialize};

use crate::clock::ClockTick;
use crate::guidance::Guidance;
use crate::infraction::Infraction;
use crate::state::{DeviceState, Phase};

/// One output of the referee. It carries no `v` and no `seq`: where it is published, the
/// daemon's ledger puts the schema version and the board's next `seq` in front of it (api.md:
/// every message carries `v` and `seq`, one counter per board for the referee's events and the
/// daemon's own messages alike).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// Board id.
    pub board: String,
    /// Game id, once a game started.
    pub game: Option<String>,
    /// When, RFC 3339 (the input time that caused it).
    pub at: String,
    /// What happened.
    #[serde(flatten)]
    pub kind: EventKind,
}

/// What an event says.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum EventKind {
    /// A move or pass was recognised (MQTT `moves`).
    MovePlayed {
        /// 1-based number.
        number: u32,
        /// Who.
        color: Color,
        /// "D4" or "pass".
        point: String,
        /// When the stone was seen (or the pass pressed), RFC 3339.
        played_at: String,
        /// The mover's time left at the press, when already known (a pass);
        /// for a stone it comes with the completing press as a `correction`.
        time_left_ms: Option<u64>,
    },
    /// The referee changed its mind about a move it had announced.
    Correction {
        /// The move's number.
        number: u32,
        /// What was announced ("D4", "pass").
        was: String,
        /// What it is now ("E4", "pass", or "none" when the move is withdrawn).
        now: String,
        /// Why, in words.
        reason: String,
        /// Set when the correction fills in the mover's time left at the
        /// completing press (`was == now`): the stone is announced before the
        /// press, so `move_played` carries `null` (SGF `BL`/`WL`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        time_left_ms: Option<u64>,
        /// With `time_left_ms`: byo-yomi periods (or Canadian block moves) left at the press.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        periods_left: Option<u32>,
    },
    /// Moves played while the board could not see, whose stones are known but whose order
    /// is not, recorded as one setup block (MQTT `moves`): the state's `moves` `first` to
    /// `last` with `order_known: false`. No `move_played` is sent for them (it would claim
    /// an order); the moves after the block are announced as usual. The arbiter is told by
    /// a `board_unavailable` device alert that stays open.
    SetupBlock {
        /// The number of the block's first move.
        first: u32,
        /// The number of its last move.
        last: u32,
        /// Black's stones ("D4"), by point: not in the order played.
        black: Vec<String>,
        /// White's stones ("D4"), by point.
        white: Vec<String>,
        /// Points whose stone of before the block is gone after it (captured within it), by
        /// point. Absent when none.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        removed: Vec<String>,
        /// Moves nobody saw, one colour each (Black's first): presses no stone on the board
        /// accounts for, each a pass or a stone captured within the block; the state lists
        /// them last in the block with `point: "unseen"`. Absent when none.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        unseen: Vec<Color>,
        /// Why, in words.
        reason: String,
    },
    /// A new alert (MQTT `infractions`).
    InfractionRaised {
        /// The alert.
        infraction: Infraction,
    },
    /// An alert's status or sanction changed.
    InfractionChanged {
        /// The alert as it stands now.
        infraction: Infraction,
    },
    /// A clock reading (after each switch, pause, resume, adjustment, and once a second while
    /// a clock runs): the time left; the state's `clock` has the rest.
    Clock {
        /// The reading.
        clock: ClockTick,
    },
    /// A byo-yomi count-out call or a period used (CN2002 12.3).
    ClockCall {
        /// Whose clock.
        color: Color,
        /// The call in English, e.g. "30 seconds", "1 minute used, 3 left", "10".
        call: String,
        /// The call in Chinese, e.g. "30秒", "还剩3分钟", "10".
        call_zh: String,
        /// The call as a code, for clients that word or voice it themselves.
        code: crate::clock::CallCode,
    },
    /// A flag fell (CN2002 12.4).
    FlagFall {
        /// Whose.
        color: Color,
    },
    /// Device health changed.
    Device {
        /// The health now.
        device: DeviceState,
    },
    /// The phase changed.
    Phase {
        /// The new phase.
        phase: Phase,
    },
    /// The result (final, or proposed during counting).
    Result {
        /// SGF `RE` form, e.g. "B+0.75".
        result: String,
        /// Whether the arbiter made it final.
        is_final: bool,
    },
    /// What to change on the board to restore the game position.
    Guidance {
        /// The list.
        guidance: Guidance,
    },
    /// An arbiter acted (the audit trail: who, when, what, the note).
    ArbiterAction {
        /// The trail's new entry.
        entry: crate::audit::AuditEntry,
    },
    /// The board state changed; fetch it with `Referee::state`.
    StateChanged,
}
