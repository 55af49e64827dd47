//! The board-state snapshot, field for field the JSON of api.md ("Board state"), plus guidance.

use goban_rules::score::{Score, SekiRuling};
use goban_rules::{Color, Ruleset, ScoreUnit};
use serde::{Deserialize, Serialize};

use crate::clock::ClockReading;
use crate::guidance::Guidance;
use crate::infraction::Infraction;
use crate::move_records::MoveRecords;

/// api.md schema version.
pub const SCHEMA_VERSION: u8 = 1;

/// The game's phase (api.md `phase`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// No game started: the board only shows its sensors.
    Setup,
    /// Play.
    Playing,
    /// Clocks stopped by the arbiter or a sealed move (CN2002 14).
    Paused,
    /// The game ended by agreement or two passes; dead stones are being settled (CN2002 8, 21).
    Counting,
    /// The result is final.
    Finished,
}

/// A per-colour count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PerColor {
    /// Black's.
    pub black: u32,
    /// White's.
    pub white: u32,
}

impl PerColor {
    /// The count of `color`.
    pub fn of(&self, color: Color) -> u32 {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    /// Mutable count of `color`.
    pub fn of_mut(&mut self, color: Color) -> &mut u32 {
        match color {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }
}

/// Connection of one device.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Link {
    /// Answering.
    Connected,
    /// Silent or gone.
    #[default]
    Disconnected,
}

/// Device health (api.md `device`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeviceState {
    /// The sensor board.
    pub board: Link,
    /// The clock.
    pub clock: Link,
    /// Points whose sensors read `?` now ("D4" notation); no game decision is taken on them.
    pub unknown_points: Vec<String>,
    /// Frames rejected: by the device links (bad CRC, bad format; the `/health` report counts
    /// them per port) and by the referee (wrong length, diffs while waiting for a snapshot).
    pub rejected_frames: u64,
    /// Sequence gaps seen (board and clock).
    pub gaps: u64,
    /// Points whose sensor chatters ("D4" notation): read as `?` until steady again.
    #[serde(default)]
    pub chattering_points: Vec<String>,
    /// Clock presses held because the board could not see; the arbiter is asked.
    #[serde(default)]
    pub unexplained_presses: u32,
    /// Whether the referee is reading the board, waiting for it, or frozen after a disturbance.
    #[serde(default)]
    pub interpretation: Interpretation,
    /// Device alerts of this board, the latest last (bounded).
    #[serde(default)]
    pub alerts: Vec<crate::device_alert::DeviceAlert>,
    /// How late the board's readings arrive after the clock's, in ms, measured from the
    /// stone-to-press margins of recent moves (0: no lag seen, or too few moves yet). Above
    /// `port_skew` a `port_lag` device alert names the value to set.
    #[serde(default)]
    pub port_lag_ms: u64,
}

/// What the referee does with the board's readings now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Interpretation {
    /// Readings are interpreted as moves.
    #[default]
    Reading,
    /// The board cannot see (not connected yet, unplugged, resyncing): presses are held
    /// until it reads again and explains them (or the arbiter acts).
    WaitingForBoard,
    /// The board was disturbed: nothing is interpreted until the game position is restored (CN2002 17.6).
    Frozen,
}

/// The published state of one board (api.md "Board state"): GET /boards/{board}, a finished
/// game's final state, the journal's checkpoints.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "openapi",
    derive(utoipa::ToSchema),
    schema(
        description = "The board state of api.md (GET /boards/{board}, a finished game's final state)."
    )
)]
pub struct BoardState {
    /// Schema version (1).
    pub v: u8,
    /// Output counter of this board: it only grows, also across restarts.
    // The publisher numbers the state (the daemon's ledger); `Referee::state` leaves it 0.
    pub seq: u64,
    /// Board id.
    #[cfg_attr(feature = "openapi", schema(example = "table-1"))]
    pub board: String,
    /// Game id, once a game started; null before the first game.
    #[cfg_attr(feature = "openapi", schema(example = "2026-11-30-table-1-1"))]
    pub game: Option<String>,
    /// Board size.
    pub size: u8,
    /// Ruleset.
    pub ruleset: Ruleset,
    /// Komi in points.
    pub komi: f64,
    /// The game position, size*size chars of `.`, `B`, `W` in the index order of wire-protocol.md.
    pub position: String,
    /// Moves played so far (passes included).
    pub move_number: u32,
    /// The side to move.
    pub to_move: Color,
    /// Every move with its time: the game record.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<crate::MoveRecord>))]
    pub moves: MoveRecords,
    /// Stones captured by each side.
    pub captures: PerColor,
    /// The clock, when a time control runs.
    pub clock: Option<ClockReading>,
    /// Every alert of the game.
    pub infractions: Vec<Infraction>,
    /// Warnings given (CN2002 24).
    pub warnings: PerColor,
    /// Device health.
    pub device: DeviceState,
    /// Phase.
    pub phase: Phase,
    /// Final result in SGF `RE` form with the margin in `result_unit`, e.g. `B+0.75` (stones,
    /// cn2002), `W+6.5` (points, jk), `B+R`, `W+T`; null while playing.
    pub result: Option<String>,
    /// The counted score proposed during counting, or `B+R`/`W+R` while a resignation signal
    /// (two own stones at one's lower-right corner) waits for the arbiter's `POST /result`,
    /// before the arbiter confirms it.
    pub proposed_result: Option<String>,
    /// The unit of the margins of `result` and `proposed_result`: `stones` under CN2002 and
    /// the historical rules (1 stone = 2 points), `points` under JK and Ing.
    #[serde(default = "stones")]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub result_unit: ScoreUnit,
    /// The count behind `proposed_result` (counting) or `result` (when the count gave it):
    /// per side stones, territory, prisoners, and dame, komi, handicap give-back, warnings;
    /// null otherwise.
    #[serde(default)]
    pub count: Option<Score>,
    /// A physical end signal waiting for the arbiter or the other player (CN2002 终局), or null:
    /// `{"signal": "resignation", "color", "points", "move_number"}`,
    /// `{"signal": "agreed_end_proposed", "color", "move_number"}` or
    /// `{"signal": "out_of_order", "zone", "stone", "move_number"}`.
    #[serde(default)]
    pub end_signal: Option<crate::end_signals::EndSignal>,
    /// Points counted dead ("D4"): marked while counting, kept in the final state.
    pub dead_stones: Vec<String>,
    /// The arbiter's seki rulings of the count (`POST /seki`, CN2002 21.2), by the point that
    /// named each group.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub seki: Vec<SekiMark>,
    /// The physical position after debouncing (same encoding as `position`, plus `?` for a
    /// point whose sensor cannot be read).
    pub physical: String,
    /// What to change on the board to restore the game position (the LED list).
    pub guidance: Guidance,
    /// Every arbiter action of the game, oldest first (who, when, what, note).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub audit: Vec<crate::audit::AuditEntry>,
    /// Players: Black.
    pub black: String,
    /// Players: White.
    pub white: String,
}

/// Schema version of the live `state` message (MQTT/SSE): the state without `moves`, with `last_move`.
pub const LIVE_SCHEMA_VERSION: u8 = 2;

/// One seki ruling as the state shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SekiMark {
    /// The stone that named the group ("D4").
    #[cfg_attr(feature = "openapi", schema(example = "D4"))]
    pub point: String,
    /// In seki or not.
    pub ruling: SekiRuling,
}

/// States written before `result_unit` existed were CN2002's (the default ruleset).
fn stones() -> ScoreUnit {
    ScoreUnit::Stones
}

/// The newest move of the live state (api.md "Changes": `last_move`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LastMove {
    /// 1-based move number.
    pub number: u32,
    /// Who moved.
    pub color: Color,
    /// "D4" or "pass".
    #[cfg_attr(feature = "openapi", schema(example = "Q16"))]
    pub point: String,
    /// The mover's time left after the move, when a clock runs; null until the press that
    /// completes the move. That press publishes no new state: its update goes on `moves` (a
    /// `correction` with `was` = `now` and the times) and `clock`; `GET /boards/{board}` has
    /// it at once.
    pub time_left_ms: Option<u64>,
    /// The mover's byo-yomi periods (or Canadian moves) left, when a clock runs; null until
    /// the press, like `time_left_ms`.
    pub periods_left: Option<u32>,
    /// `false` when the newest move is one of a setup block (moves played while the board
    /// could not see, order unknown: [`crate::MoveRecord::order_known`]); absent when `true`.
    #[serde(
        default = "crate::move_records::order_known",
        skip_serializing_if = "crate::move_records::is_true"
    )]
    #[cfg_attr(feature = "openapi", schema(default = true, required = false))]
    pub order_known: bool,
}

/// The live state (v2) as published on MQTT `state` and SSE `state`: every field of
/// [`BoardState`] but `moves`, plus `last_move`; it borrows, so serializing it copies nothing.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(
    feature = "openapi",
    derive(utoipa::ToSchema),
    schema(
        as = LiveBoardState,
        description = "The live state (v2) of api.md: `GET /boards` lists them, SSE and MQTT \
            `state` carry them. Every field of `BoardState` but `moves`, plus `last_move`; \
            `physical` only while it differs from `position`."
    )
)]
pub struct LiveState<'a> {
    /// Schema version (2).
    pub v: u8,
    /// Output counter of this board: it only grows, also across restarts.
    pub seq: u64,
    /// Board id.
    #[cfg_attr(feature = "openapi", schema(value_type = String, example = "table-1"))]
    pub board: &'a str,
    /// Game id, once a game started; null before the first game.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>))]
    pub game: Option<&'a str>,
    /// Board size.
    pub size: u8,
    /// Ruleset.
    pub ruleset: Ruleset,
    /// Komi in points.
    pub komi: f64,
    /// The game position, size*size chars of `.`, `B`, `W`.
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub position: &'a str,
    /// Moves played so far (passes included).
    pub move_number: u32,
    /// The side to move.
    pub to_move: Color,
    /// The newest move, or null before the first.
    pub last_move: Option<LastMove>,
    /// Stones captured by each side.
    pub captures: PerColor,
    /// The clock at this seq; readings in between go on `clock`.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<ClockReading>))]
    pub clock: Option<&'a ClockReading>,
    /// Every alert of the game.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<Infraction>))]
    pub infractions: &'a [Infraction],
    /// Warnings given (CN2002 24).
    pub warnings: PerColor,
    /// Device health.
    #[cfg_attr(feature = "openapi", schema(value_type = DeviceState))]
    pub device: &'a DeviceState,
    /// Phase.
    pub phase: Phase,
    /// Final result, null while playing.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>))]
    pub result: Option<&'a str>,
    /// The counted score (or resignation) proposed, waiting for the arbiter.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>))]
    pub proposed_result: Option<&'a str>,
    /// The unit of the result's margin.
    pub result_unit: ScoreUnit,
    /// The count behind the (proposed) result.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Score>))]
    pub count: Option<&'a Score>,
    /// A physical end signal waiting for the arbiter or the other player, or null.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::end_signals::EndSignal>))]
    pub end_signal: Option<&'a crate::end_signals::EndSignal>,
    /// Points counted dead.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<String>))]
    pub dead_stones: &'a [String],
    /// The arbiter's seki rulings.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<SekiMark>))]
    pub seki: &'a [SekiMark],
    /// Every arbiter action of the game, oldest first (who, when, what, note).
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<crate::audit::AuditEntry>))]
    pub audit: &'a [crate::audit::AuditEntry],
    /// The physical position after debouncing, size*size chars of `.`, `B`, `W`, `?`, only
    /// when it differs from `position` (a stone off its point, captured stones not yet
    /// removed, a hand over the board): absent, the board reads as `position`. The full
    /// state (`GET /boards/{board}`) always carries it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, required = false))]
    pub physical: Option<&'a str>,
    /// What to change on the board to restore the game position.
    #[cfg_attr(feature = "openapi", schema(value_type = Guidance))]
    pub guidance: &'a Guidance,
    /// Players: Black.
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub black: &'a str,
    /// Players: White.
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub white: &'a str,
}

impl BoardState {
    /// The newest move as the live state shows it.
    pub fn last_move(&self) -> Option<LastMove> {
        self.moves.last().map(|m| LastMove {
            number: m.number,
            color: m.color,
            point: m.point.to_string(),
            time_left_ms: m.time_left_ms,
            periods_left: m.periods_left,
            order_known: m.order_known,
        })
    }

    /// The live (v2) view of this state, without the move list.
    pub fn live(&self) -> LiveState<'_> {
        LiveState {
            v: LIVE_SCHEMA_VERSION,
            seq: self.seq,
            board: &self.board,
            game: self.game.as_deref(),
            size: self.size,
            ruleset: self.ruleset,
            komi: self.komi,
            position: &self.position,
            move_number: self.move_number,
            to_move: self.to_move,
            last_move: self.last_move(),
            captures: self.captures,
            clock: self.clock.as_ref(),
            infractions: &self.infractions,
            warnings: self.warnings,
            device: &self.device,
            phase: self.phase,
            result: self.result.as_deref(),
            proposed_result: self.proposed_result.as_deref(),
            result_unit: self.result_unit,
            count: self.count.as_ref(),
            end_signal: self.end_signal.as_ref(),
            dead_stones: &self.dead_stones,
            seki: &self.seki,
            audit: &self.audit,
            physical: (self.physical != self.position).then_some(self.physical.as_str()),
            guidance: &self.guidance,
            black: &self.black,
            white: &self.white,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Referee, RefereeConfig};

    #[test]
    fn the_live_state_has_no_moves_and_names_the_last_one() {
        let mut state = Referee::new(RefereeConfig::default()).unwrap().state();
        state.moves.push(crate::MoveRecord {
            number: 1,
            color: goban_rules::Color::Black,
            point: crate::MoveName::new("Q16").expect("a move name"),
            at: crate::Timestamp(0),
            time_left_ms: Some(5),
            periods_left: None,
            order_known: true,
        });
        state.physical = state.position.clone();
        let live = serde_json::to_value(state.live()).unwrap();
        assert_eq!(live["v"], 2);
        assert!(live.get("moves").is_none(), "{live}");
        assert_eq!(live["last_move"]["point"], "Q16");
        assert_eq!(live["last_move"]["time_left_ms"], 5);
        let full = serde_json::to_value(&state).unwrap();
        let fields = |v: &serde_json::Value| v.as_object().unwrap().len();
        // Every field of the full state but `moves` and `physical` (once the board reads as
        // `position`), plus `last_move`.
        assert!(live.get("physical").is_none(), "{live}");
        assert_eq!(fields(&live), fields(&full) - 1);
    }

    #[test]
    fn the_live_state_names_the_physical_position_only_when_it_differs() {
        let mut state = Referee::new(RefereeConfig::default()).unwrap().state();
        // Before the board's first reading every point is unknown.
        assert!(state.physical.chars().all(|c| c == '?'));
        let live = serde_json::to_value(state.live()).unwrap();
        assert_eq!(live["physical"], state.physical.as_str());
        state.physical = state.position.replacen('.', "B", 1);
        let live = serde_json::to_value(state.live()).unwrap();
        assert_eq!(live["physical"], state.physical.as_str());
        assert_ne!(live["physical"], live["position"]);
    }
}
