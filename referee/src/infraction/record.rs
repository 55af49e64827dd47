//! One raised alert as arbiters and viewers see it: kind, article, player, move, points, evidence, status.

use goban_rules::Color;
use serde::{Deserialize, Serialize};

use super::InfractionKind;

/// An alert's id, unique within a board's life ("<game>/<n>").
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct InfractionId(pub String);

impl std::fmt::Display for InfractionId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Where an alert stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum InfractionStatus {
    /// Raised, waiting for the arbiter.
    Open,
    /// The arbiter confirmed it: the sanction the article gives is applied (as `sanctioned`).
    Confirmed,
    /// The sanction was applied (automatically or by ruling).
    Sanctioned,
    /// The arbiter dismissed it.
    Dismissed,
    /// `time_forfeit` converted into a pass (CN2002 22.5).
    Converted,
}

impl InfractionStatus {
    /// The api.md word: `open`, `confirmed`, `sanctioned`, `dismissed`, `converted`.
    pub fn word(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Confirmed => "confirmed",
            Self::Sanctioned => "sanctioned",
            Self::Dismissed => "dismissed",
            Self::Converted => "converted",
        }
    }
}

impl std::fmt::Display for InfractionStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.word())
    }
}

/// Points by what the board's sensors read on them ("D4" notation), for an evidence line: the whole
/// board (`seen`: every point not listed read empty) or what changed since the line before (`changed`).
/// O(stones), not one character per point; empty lists are omitted.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "openapi",
    derive(utoipa::ToSchema),
    schema(as = EvidenceSeen)
)]
pub struct Seen {
    /// Points read as a black stone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "openapi", schema(example = json!(["D5", "E4", "E6", "F5"])))]
    pub black: Vec<String>,
    /// Points read as a white stone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "openapi", schema(example = json!(["A1", "A2", "E5"])))]
    pub white: Vec<String>,
    /// Points read empty: only in `changed` (in `seen` every point not listed is empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub empty: Vec<String>,
    /// Points whose sensor could not be read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unreadable: Vec<String>,
}

/// One line of an alert's evidence timeline.
///
/// The board each line shows is given once and then as changes, so that an alert costs one board,
/// not sixteen: the first line carries `seen`, a later line `changed` when the board differs from the
/// line before, and a line with neither shows the same board as the line before.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Evidence {
    /// When (RFC 3339 UTC with milliseconds).
    pub at: String,
    /// What the sensors or the clock showed, in words.
    #[cfg_attr(feature = "openapi", schema(example = "black stone read on E4"))]
    pub what: String,
    /// The whole board as the sensors read it at that moment: on the first line; omitted on the
    /// others, and in alerts raised before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seen: Option<Seen>,
    /// The points whose reading changed since the line before, by what they read now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(example = json!({"black": ["E4"]})))]
    pub changed: Option<Seen>,
    /// The points the line is about: the point read, or the alert's own points for its finding;
    /// omitted when none (a press, a time forfeit).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "openapi", schema(example = json!(["E4"])))]
    pub points: Vec<String>,
}

/// An infraction alert (api.md `infractions[]`, rules-digest.md "Infractions").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Infraction {
    /// Its id, used in `/infractions/{id}/ruling`.
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub id: InfractionId,
    /// The digest's id of the infraction, e.g. `missed_capture`.
    pub kind: InfractionKind,
    /// The article cited under the game's ruleset, e.g. "CN2002 18.2, 22.6" or "JK 9".
    #[cfg_attr(feature = "openapi", schema(example = "CN2002 18.2"))]
    pub article: String,
    /// The offender; `null` when none can be known (`board_disturbed`: a knocked board, CN2002 17.6).
    pub player: Option<Color>,
    /// The move the act belongs to.
    pub move_number: u32,
    /// The points involved, "D4" notation.
    pub points: Vec<String>,
    /// Where it stands; only an `open` alert takes a ruling. `confirmed` is legacy (closed
    /// without sanction), `converted` a time forfeit turned into a pass (CN2002 22.5).
    pub status: InfractionStatus,
    /// When it was raised (RFC 3339 UTC with milliseconds).
    pub at: String,
    /// The sanction the ruleset names, in words.
    #[cfg_attr(
        feature = "openapi",
        schema(
            example = "one warning, the dead stones are removed, the clock is not changed (CN2002 18.2)"
        )
    )]
    pub sanction: String,
    /// Whether that sanction has been applied (a dismissal undoes it).
    pub sanction_applied: bool,
    /// The evidence timeline: what the sensors and the clock showed, oldest first.
    pub evidence: Vec<Evidence>,
    /// The arbiter's note from the ruling; absent when none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
    /// Who ruled on it ("arbiter#1"); an alert takes one ruling. Absent while open
    /// or only sanctioned automatically.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(example = "arbiter#1"))]
    pub ruled_by: Option<String>,
    /// The arbiter on the way to the table ("I'm on my way", `POST .../acknowledge`), while
    /// the alert is open; absent while nobody took it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(example = "Li Wei"))]
    pub taken_by: Option<String>,
    /// When they took it (RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub taken_at: Option<String>,
}
