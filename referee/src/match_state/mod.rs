//! Everything the referee knows about the game in progress: the rules game, the move records, open ambiguities, alerts.

use std::collections::{BTreeMap, BTreeSet};

use goban_rules::score::{Score, SekiMarks};
use goban_rules::{Color, Game, Ruleset, StatedResult};

mod claims;
mod counting;
mod leftovers;
mod outcome;
mod pause;
mod standing;
mod timers;

use crate::Timestamp;
use crate::infraction::{Infraction, InfractionId};
use crate::input::{Button, Reading};
use crate::machines::audit::Audit;
use crate::move_records::MoveRecords;
use crate::sgf_header::SgfHeader;
use crate::state::Phase;
use crate::timekeeper::{Switched, Timekeeper};

/// A clock press waiting for interpretation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Claim {
    /// The colour whose button was pressed (after the button mapping).
    pub(crate) color: Color,
    /// When.
    pub(crate) at: Timestamp,
    /// Whether it switched the clock (pressed by the side whose turn the clock showed).
    pub(crate) switched: bool,
    /// The presser's time left at the press (SGF `BL`/`WL`).
    pub(crate) time_left: Option<u64>,
    /// The presser's byo-yomi periods (or Canadian moves) left at the press.
    pub(crate) periods_left: Option<u32>,
}

impl Claim {
    /// A press by `color` at `at`, with what it did to the clock.
    pub(crate) fn new(color: Color, at: Timestamp, switched: bool, outcome: Switched) -> Self {
        let (time_left, periods_left) = match outcome {
            Switched::Charged { left_ms, periods } => (Some(left_ms), Some(periods)),
            _ => (None, None),
        };
        Self {
            color,
            at,
            switched,
            time_left,
            periods_left,
        }
    }
}

/// The clock's absence during a game: what its backlog of presses may stand for.
#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct ClockAway {
    /// The game's move count when the clock went away.
    pub(crate) from_move: u32,
    /// Backlog presses matched to moves the board read while the clock was away.
    pub(crate) matched: u32,
}

/// Who plays a game and where, from its start command and the board's configuration.
#[derive(Clone, Debug, Default)]
pub(crate) struct Entry {
    pub(crate) id: String,
    pub(crate) black: String,
    pub(crate) white: String,
    pub(crate) event: Option<String>,
    pub(crate) round: Option<String>,
    pub(crate) place: Option<String>,
    /// Whether the colours were drawn and fixed (a wrong colour is alerted, CN2002 17.1).
    pub(crate) colours_fixed: bool,
}

/// The game in progress.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct Match {
    id: String,
    black: String,
    white: String,
    event: Option<String>,
    /// The round (SGF `RO`).
    round: Option<String>,
    /// The place (SGF `PC`).
    place: Option<String>,
    /// When the arbiter started the game.
    started_at: Timestamp,
    colours_fixed: bool,
    pub(crate) ruleset: Ruleset,
    pub(crate) komi: f64,
    /// Checkpointed as its setup and moves, rebuilt on restore (`checkpoint.rs`).
    #[serde(with = "crate::game_image")]
    pub(crate) game: Game,
    pub(crate) moves: MoveRecords,
    /// The last move is shown but not completed by a press yet.
    pub(crate) provisional: bool,
    /// When the last move's stone arrived (its final reading).
    pub(crate) placed_at: Timestamp,
    /// The press behind the last move, when that move is a pass announced at the pass deadline.
    deadline_pass: Option<Claim>,
    /// A press with no new stone: a pass or a premature press (digest).
    pending_press: Option<Claim>,
    /// Presses that arrived while the board was not quiet.
    claims: Vec<Claim>,
    /// Presses are judged from this time on: the first one's captured stones may still be
    /// taken off in board frames that have not arrived (the ports' skew, issue 15).
    claims_wait_until: Option<Timestamp>,
    /// Presses the board could not explain (it could not see): no move or pass is guessed;
    /// they wait for a reading that explains them (referee-notes.md point 7).
    pub(crate) held: Vec<Claim>,
    /// The held presses could not be explained by the last reading.
    reconcile_failed: bool,
    /// What the last failed reconciliation saw (the diff and the number of held presses), or
    /// `None` once it was ambiguous: more presses never tell apart two orders of the same
    /// stones, so the search is not run again until the position is restored.
    unexplained: Option<Option<(crate::diff::Diff, usize)>>,
    /// The number of the last move when it is a recorded double move (advised, not voided):
    /// lifting its stone withdraws it at once.
    double_move: Option<u32>,
    /// Points unreadable when the game started: what they first read is a leftover, never a move.
    unread_at_start: BTreeSet<usize>,
    /// Stones first read after the start at points unread then, before any move: leftovers,
    /// unless a press the board did not explain claims one as its move (the reconciliation decides).
    pub(crate) late_found: BTreeSet<usize>,
    /// The clock is away (or back with its backlog still coming): how many moves the game
    /// had when it went, and how many presses of its backlog were matched to moves the board
    /// read meanwhile (issue 39.7).
    clock_away: Option<ClockAway>,
    /// The open `board_unavailable` device alert's id.
    board_alert: Option<String>,
    /// The pending press's pass deadline counts from here when later than the press
    /// (a press explained only once the board could see again).
    pending_wait_from: Option<Timestamp>,
    /// The side whose button the physical clock takes now.
    pub(crate) press_turn: Color,
    /// A forbidden or ko stone was advised, not voided: if the opponent plays next, it counts as a pass.
    pub(crate) void_pending: Option<Color>,
    /// The last move's captured stones not yet seen off the board.
    pub(crate) pending_caps: Vec<(usize, Color)>,
    /// Stones that stood and went again inside a stall, since the last move's stone
    /// (the debouncer's sub-steps): a stone placed and captured before it was reported.
    pub(crate) vanished: Vec<crate::debounce::Vanished>,
    /// The advised forbidden or ko stone still standing, with its colour.
    illegal_stone: Option<(usize, Color)>,
    /// Physical deviations already alerted on or ruled: no second alert for one act.
    pub(crate) known: BTreeMap<usize, Reading>,
    /// Known deviations that end once their point is reported anew after the given time: a
    /// captured stone retaken before its region reported it (a ko at blitz pace), so the
    /// stone reported there next is a new one, to be read as a move.
    #[serde(default)]
    pub(crate) known_until_reread: BTreeMap<usize, Timestamp>,
    /// Since when an unexplained removal has been seen (grace before an alert).
    suspect_since: Option<Timestamp>,
    /// The board was disturbed: no interpretation until it shows the game position again (CN2002 17.6).
    frozen: bool,
    /// The alerts, warnings and arbiter acts of the game.
    #[serde(flatten)]
    pub(crate) audit: Audit,
    pub(crate) phase: Phase,
    /// The phase to return to after a pause.
    resume_phase: Phase,
    sealed: bool,
    /// The final result (`outcome.rs`).
    result: Option<StatedResult>,
    /// The proposed result: the count's, or a resignation signal's (`outcome.rs`).
    proposed: Option<StatedResult>,
    pub(crate) clock: Timekeeper,
    black_button: Button,
    /// Arbiter marks of dead (true) or alive (false) stones, by point (CN2002 8, 21.4).
    marks: BTreeMap<usize, bool>,
    /// Arbiter rulings on seki during counting (CN2002 21.2; they change the count under JK).
    seki: SekiMarks,
    /// The count of the position with the dead stones as marked: the proposal while
    /// counting, kept at the end when the result is the count's.
    #[serde(deserialize_with = "read_count")]
    count: Option<Score>,
    /// The dead stones when counting ended: the final state and the SGF keep them.
    dead_at_end: Vec<usize>,
    /// DONE keys pressed, by colour.
    done: BTreeSet<Color>,
    wrong_colour_raised: bool,
    /// Voided moves: number and the original move, for restoring.
    voided: BTreeMap<u32, (Color, goban_rules::Move)>,
    /// Flag falls already alerted on, by side and instant: one flag fall, one `time_forfeit`.
    forfeits: BTreeSet<(Color, Timestamp)>,
    /// When the last `clock` event went out (the tick counts from there).
    clock_published_at: Timestamp,
}

impl Match {
    /// The game `entry` just started at `now`, `game` fresh from the rules core.
    pub(crate) fn new(
        game: Game,
        clock: Timekeeper,
        now: Timestamp,
        black_button: Button,
        entry: Entry,
    ) -> Self {
        let first = game.first_to_move();
        let Entry {
            id,
            black,
            white,
            event,
            round,
            place,
            colours_fixed,
        } = entry;
        Self {
            id,
            black,
            white,
            event,
            round,
            place,
            started_at: now,
            colours_fixed,
            ruleset: game.setup().ruleset,
            komi: game.setup().komi,
            game,
            moves: MoveRecords::new(),
            provisional: false,
            placed_at: now,
            deadline_pass: None,
            pending_press: None,
            claims: Vec::new(),
            claims_wait_until: None,
            held: Vec::new(),
            reconcile_failed: false,
            unexplained: None,
            board_alert: None,
            double_move: None,
            unread_at_start: BTreeSet::new(),
            late_found: BTreeSet::new(),
            clock_away: None,
            pending_wait_from: None,
            press_turn: first,
            void_pending: None,
            illegal_stone: None,
            pending_caps: Vec::new(),
            vanished: Vec::new(),
            known: BTreeMap::new(),
            known_until_reread: BTreeMap::new(),
            suspect_since: None,
            frozen: false,
            audit: Audit::default(),
            phase: Phase::Playing,
            resume_phase: Phase::Playing,
            sealed: false,
            result: None,
            proposed: None,
            clock,
            black_button,
            marks: BTreeMap::new(),
            seki: SekiMarks::new(),
            count: None,
            dead_at_end: Vec::new(),
            done: BTreeSet::new(),
            wrong_colour_raised: false,
            voided: BTreeMap::new(),
            forfeits: BTreeSet::new(),
            clock_published_at: now,
        }
    }

    /// The game's id.
    pub(crate) fn id(&self) -> &str {
        &self.id
    }

    /// Black's name.
    pub(crate) fn black(&self) -> &str {
        &self.black
    }

    /// White's name.
    pub(crate) fn white(&self) -> &str {
        &self.white
    }

    /// CN2002 17.1: up to move 10 wrong colours are corrected by swapping the players.
    pub(crate) fn swap_players(&mut self) {
        std::mem::swap(&mut self.black, &mut self.white);
    }

    /// The players hold each other's colours (CN2002 17.1): the buttons swap. True when it is
    /// to be alerted: the colours were fixed and it was not alerted before in this game.
    pub(crate) fn handle_wrong_colour(&mut self) -> bool {
        self.black_button = self.black_button.other();
        let raise = self.colours_fixed && !self.wrong_colour_raised;
        self.wrong_colour_raised = true;
        raise
    }

    /// Raises the alert `alert` makes of the game's next id (`<game>-i<n>`); returns its index.
    pub(crate) fn raise_alert(&mut self, alert: impl FnOnce(InfractionId) -> Infraction) -> usize {
        self.audit.raise(&self.id, alert)
    }

    /// The SGF header of the game.
    pub(crate) fn sgf_header(&self) -> SgfHeader {
        SgfHeader {
            event: self.event.clone(),
            round: self.round.clone(),
            place: self.place.clone(),
            date: self.started_at.to_rfc3339().get(..10).map(str::to_owned),
            time_control: self.clock.time_control(),
            ..SgfHeader::of_game(&self.game)
        }
    }

    /// The colour of a button under the current mapping.
    pub(crate) fn color_of(&self, button: Button) -> Color {
        if button == self.black_button {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The button of a colour.
    pub(crate) fn button_of(&self, color: Color) -> Button {
        if color == Color::Black {
            self.black_button
        } else {
            self.black_button.other()
        }
    }

    /// Number of moves recorded.
    pub(crate) fn move_count(&self) -> u32 {
        // Invariant: games have far fewer than 4 billion moves.
        u32::try_from(self.game.move_number()).unwrap_or(u32::MAX)
    }

    /// The last move's colour and point index, if it was a stone and its place in the order
    /// is known: after a setup block (moves of unknown order) no stone is the last one.
    pub(crate) fn last_stone(&self) -> Option<(Color, usize)> {
        let last = self.game.moves().last().filter(|m| m.order_known)?;
        last.mv.point().map(|p| (last.color, p.index()))
    }

    /// The stones the last move captured, with their colour.
    pub(crate) fn last_captures(&self) -> Vec<(usize, Color)> {
        self.game
            .moves()
            .last()
            .map(|m| {
                m.captured
                    .iter()
                    .map(|p| (p.index(), m.color.opponent()))
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// A count read back from a checkpoint. Its `result` is written as SGF `RE`, in points, and
/// reads back so; the result the count gave was in the count's unit (stones under CN2002), and
/// a restored count must still equal it (`keep_count_for` keeps the count beside the result
/// it gives, an arbiter's confirmation after a restart included).
fn read_count<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Score>, D::Error> {
    let count: Option<Score> = serde::Deserialize::deserialize(d)?;
    Ok(count.map(|score| Score {
        result: goban_rules::GameResult::of_lead(score.margin),
        ..score
    }))
}
