//! The referee's configuration: board, timing of the debouncer and of ambiguity deadlines, sanction policy, game defaults.

use std::collections::BTreeSet;

use goban_rules::Ruleset;
use serde::{Deserialize, Serialize};

use crate::clock::{TimeControl, Venue};
use crate::infraction::InfractionKind;
use crate::input::Button;

/// How a referee is set up; every field has a documented default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RefereeConfig {
    /// Board id (api.md `[a-z0-9-]{1,32}`); default "board".
    pub board: String,
    /// Board size in lines; default 19.
    pub size: u8,
    /// Settle time in ms: a change is interpreted once no point changed for
    /// this long. Default 300 ms, so a placed stone shows within 0.5 s of
    /// the hand leaving (the hand's last flicker plus 300 ms).
    pub settle_ms: u64,
    /// Grace in ms before a stone that vanished or moved without a capture
    /// becomes an alert: a stone lifted and put back within it is not one.
    /// Default 2500 ms.
    pub grace_ms: u64,
    /// A press with no new stone becomes a pass when nothing else decided it
    /// within this many ms (digest: pass/press ambiguity). Default 4000 ms.
    pub pass_decision_ms: u64,
    /// Unexplained stones vanished or moved at once from which the board
    /// counts as disturbed (CN2002 17.6). Default 3.
    pub disturbed_stones: usize,
    /// A point whose reading flips more than this many times within
    /// `chatter_window_ms`, the flips spread over at least half of it (a
    /// hovering hand flips a point a few times within a second), is a
    /// chattering sensor: a device alert names it and it reads `?` until
    /// steady for `chatter_clear_ms`. Default 8.
    pub chatter_flips: usize,
    /// The window for `chatter_flips`, in ms. Default 5000 ms.
    pub chatter_window_ms: u64,
    /// How long a chattering point must stay steady to read again, in ms. Default 5000 ms.
    pub chatter_clear_ms: u64,
    /// Kinds whose sanction the referee applies itself; the rest are only
    /// advised (the default: none).
    pub auto_sanction: BTreeSet<InfractionKind>,
    /// Which button is Black's; default `L` (the clock on White's right, CN2002 12.1).
    pub black_button: Button,
    /// Default ruleset; default cn2002.
    pub ruleset: Ruleset,
    /// Default komi in points; default per ruleset.
    pub komi: Option<f64>,
    /// Default time control; default `none`.
    pub time_control: Option<TimeControl>,
    /// Where the players lodge, which sets the late-start limit: `same_site`
    /// (default, 15 min, CN2002 22.2) or `separate` (60 min, CN2002 22.1).
    pub venue: Venue,
    /// How often, in ms of running time, a `clock` event and a `$SHOW` refresh
    /// go out while a clock runs (api.md MQTT `clock`); 0 turns the ticks off
    /// (switches, pauses, resumes and adjustments still publish). Default 1000 ms.
    pub clock_tick_ms: u64,
    /// The largest lag, in ms, between the board's port and the clock's that the order of a
    /// stone and a press tolerates (referee-notes.md point 8): a stone read less than this
    /// after a press counts as placed before it, so a late board port never turns into a
    /// `premature_press` or `missed_capture`. A premature press whose stone lands sooner
    /// than this after the press goes unnoticed. Devices that announce `SYNC` are stamped
    /// on one time line and need none. Default 0: an honest stone lands at least the hand's
    /// travel from board to clock before its press, so a board port up to about 100 ms late
    /// raises nothing (hall-stress "skew board +100 ms"), and CN2002 17.4 calls a press "at
    /// the same moment" as the stone premature (docs/referee.md "Skew").
    pub port_skew_ms: u64,
    /// Default players.
    pub black: String,
    /// Default players.
    pub white: String,
    /// Game id for a game started without one; default "<board>-<n>".
    pub game: Option<String>,
    /// Event name for the SGF.
    pub event: Option<String>,
    /// The resignation signal: two own stones at one's lower-right corner
    /// (on, the corner and its neighbours, by default).
    pub resignation_signal: crate::end_signals::ResignationSignal,
}

impl Default for RefereeConfig {
    fn default() -> Self {
        Self {
            board: "board".into(),
            size: 19,
            settle_ms: 300,
            grace_ms: 2500,
            pass_decision_ms: 4000,
            disturbed_stones: 3,
            chatter_flips: 8,
            chatter_window_ms: 5_000,
            chatter_clear_ms: 5_000,
            auto_sanction: BTreeSet::new(),
            black_button: Button::L,
            ruleset: Ruleset::Cn2002,
            komi: None,
            time_control: None,
            venue: Venue::SameSite,
            clock_tick_ms: 1000,
            port_skew_ms: 0,
            black: "Black".into(),
            white: "White".into(),
            game: None,
            event: None,
            resignation_signal: crate::end_signals::ResignationSignal::default(),
        }
    }
}

impl RefereeConfig {
    /// Every kind sanctioned automatically.
    pub fn with_all_sanctions(mut self) -> Self {
        self.auto_sanction = InfractionKind::ALL.into_iter().collect();
        self
    }
}
