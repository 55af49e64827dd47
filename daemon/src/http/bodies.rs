//! Arbiter request bodies of api.md as strict typed structs, their checks, and the extractor that reads them.
//!
//! Every body accepts an optional `note` for the audit trail; `convert` turns a
//! body into the referee's typed `ArbiterCommand`.

mod acknowledge;
mod convert;
mod order;
mod seki;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{StatusCode, header};
use goban_referee::RulingAction;
use goban_referee::clock::TimeControl;
use goban_rules::{Color, KoRule, Ruleset, StatedResult};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::App;
use super::error::{ApiError, JsonPosition};
use super::grammar;

pub(crate) use acknowledge::AcknowledgeBody;
pub(crate) use order::OrderBody;
pub(crate) use seki::{SekiAction, SekiBody};

/// `POST /boards/{board}/game`: every field optional, defaulting to the board's config.
#[derive(Clone, Debug, Default, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct StartGameBody {
    /// Black player's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(max_length = 200, pattern = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$")]
    pub(crate) black: Option<String>,
    /// White player's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(max_length = 200, pattern = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$")]
    pub(crate) white: Option<String>,
    /// Ruleset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) ruleset: Option<Ruleset>,
    /// Komi in points (CN2002: 7.5 points = 3 3/4 stones).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = -150, maximum = 150, multiple_of = 0.25)]
    pub(crate) komi: Option<f64>,
    /// Handicap stones, 0 to 9.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "super::whole_number::option_u8")]
    #[schema(minimum = 0, maximum = 9)]
    pub(crate) handicap: Option<u8>,
    /// Time control, e.g. `byoyomi-cn:main=60m,reserve=5`: api.md's grammar with the keys
    /// in its order and no zero parts (`0s` for none); a Fischer `max` is set in the config.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "grammar::time_control"
    )]
    #[schema(example = "byoyomi-cn:main=60m,reserve=5", value_type = Option<String>)]
    pub(crate) time_control: Option<TimeControl>,
    /// Whether the draw fixed the colours (a swap is then `wrong_colour`, CN2002 17.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) colours_fixed: Option<bool>,
    /// Ko rule (CN2002 6, 20; JK 11); default per ruleset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) ko_rule: Option<KoRule>,
    /// Event name for the SGF `EV`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(max_length = 200, pattern = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$")]
    pub(crate) event: Option<String>,
    /// Black places the handicap stones freely (needs `handicap` 2 or more); the
    /// referee reads them off the board as Black's first stones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) free_handicap: Option<bool>,
    /// Needed to start over a game still in play (playing, paused or counting):
    /// that game is abandoned without a result. Without it such a request is a 409.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) force: Option<bool>,
    /// The arbiter's note for the audit trail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(
        max_length = 800,
        pattern = "^[^\\u0000-\\u0009\\u000b-\\u001f\\u007f-\\u009f]*$"
    )]
    pub(crate) note: Option<String>,
}

/// `POST /boards/{board}/infractions/{id}/ruling`.
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RulingBody {
    /// What the arbiter decides.
    pub(crate) action: RulingAction,
    /// Free text for the record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(
        max_length = 800,
        pattern = "^[^\\u0000-\\u0009\\u000b-\\u001f\\u007f-\\u009f]*$"
    )]
    pub(crate) note: Option<String>,
}

/// `POST /boards/{board}/clock`: pause, resume or adjust one side's time (CN2002 14, 22.8-22.9).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
pub(crate) enum ClockBody {
    /// Stop both clocks.
    Pause {
        /// The arbiter's note for the audit trail.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(
            max_length = 800,
            pattern = "^[^\\u0000-\\u0009\\u000b-\\u001f\\u007f-\\u009f]*$"
        )]
        note: Option<String>,
    },
    /// Restart the clock of the side to move.
    Resume {
        /// The arbiter's note for the audit trail.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(
            max_length = 800,
            pattern = "^[^\\u0000-\\u0009\\u000b-\\u001f\\u007f-\\u009f]*$"
        )]
        note: Option<String>,
    },
    /// Add (positive) or remove (negative) time from one side.
    Adjust {
        /// Whose time.
        color: Color,
        /// Milliseconds to add, negative to remove; at most one day either way, not 0.
        #[schema(schema_with = delta_ms_schema)]
        #[serde(deserialize_with = "super::whole_number::i64")]
        delta_ms: i64,
        /// Why (a clock fault, CN2002 22.8-22.9), for the audit trail and the SGF.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(
            max_length = 800,
            pattern = "^[^\\u0000-\\u0009\\u000b-\\u001f\\u007f-\\u009f]*$"
        )]
        note: Option<String>,
    },
}

/// `POST /boards/{board}/dead-stones`: naming one stone marks its whole group.
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct DeadStonesBody {
    /// Points like `D4`, at least one; a point off this board's edge is a 409.
    #[schema(example = json!(["D4"]), min_items = 1, max_items = 361, value_type = Vec<PointName>)]
    pub(crate) points: Vec<String>,
    /// True marks dead, false unmarks.
    pub(crate) dead: bool,
    /// The arbiter's note for the audit trail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(
        max_length = 800,
        pattern = "^[^\\u0000-\\u0009\\u000b-\\u001f\\u007f-\\u009f]*$"
    )]
    pub(crate) note: Option<String>,
}

/// `POST /boards/{board}/result`: the result in SGF `RE` form.
///
/// The form is `B+R`, `W+T`, `B+F` (forfeit), `0` (draw), `Void` (no result), or a
/// margin in quarter steps up to 511 (a 400 otherwise). The game decides the rest
/// (a 409 otherwise): a margin in the ruleset's unit that is not larger than its
/// board, stones in steps of 0.25 under cn2002 and historical, points in steps of
/// 0.5 under jk and ing.
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResultBody {
    /// E.g. `B+R`, `W+6.5` (points), `B+0.75` (CN2002 stones), `W+T`, `0`, `Void`; a margin
    /// of at most 511 (361 points and the largest komi), and a 409 when the game's board,
    /// komi or ruleset step does not allow it. (Its pattern is patterns.rs's `RESULT`.)
    #[schema(example = "B+R", value_type = String)]
    #[serde(deserialize_with = "grammar::result")]
    pub(crate) result: StatedResult,
    /// Needed to end a game still in play (playing or paused); without it such a
    /// request is a 409. During counting or after the end, a result is set or corrected freely.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) force: Option<bool>,
    /// The arbiter's note for the audit trail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(
        max_length = 800,
        pattern = "^[^\\u0000-\\u0009\\u000b-\\u001f\\u007f-\\u009f]*$"
    )]
    pub(crate) note: Option<String>,
}

/// A body with only the arbiter's note: void, restore, seal, unseal (may be empty).
#[derive(Clone, Debug, Default, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NoteBody {
    /// The arbiter's note for the audit trail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(
        max_length = 800,
        pattern = "^[^\\u0000-\\u0009\\u000b-\\u001f\\u007f-\\u009f]*$"
    )]
    pub(crate) note: Option<String>,
}

/// `POST /boards/{board}/late-start`: a player arrived after the clock started (CN2002 22.1-22.4).
///
/// The absence is deducted twice over (the part the player's own clock ran counts
/// once, the rest is taken on top); beyond the venue's limit (15 minutes on the same
/// site, 60 minutes apart, or the `[referee] late_limit` of the config) a `late_start`
/// alert advises the loss, applied at once when the tournament sanctions `late_start`
/// automatically; within it the alert is closed at once, nothing left to rule. Without
/// main time, or main time no longer than the limit, nothing is deducted and there is no
/// limit: the clock counts the absent player out (22.4). Refused (409) once the player
/// has moved; after an adjournment only recorded, the clock having simply run (22.1).
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct LateStartBody {
    /// The late player.
    pub(crate) color: Color,
    /// How long they were absent, in ms (1 ms to 1 day).
    #[schema(example = 300_000, minimum = 1, maximum = 86_400_000)]
    #[serde(deserialize_with = "super::whole_number::u64")]
    pub(crate) absent_ms: u64,
    /// The arbiter's note for the audit trail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(
        max_length = 800,
        pattern = "^[^\\u0000-\\u0009\\u000b-\\u001f\\u007f-\\u009f]*$"
    )]
    pub(crate) note: Option<String>,
}

/// `POST /boards/{board}/resume-play`: the players dispute dead stones during counting (CN2002 21.4).
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResumePlayBody {
    /// The side that claims the stones are dead: it moves first.
    pub(crate) first: Color,
    /// The arbiter's note for the audit trail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(
        max_length = 800,
        pattern = "^[^\\u0000-\\u0009\\u000b-\\u001f\\u007f-\\u009f]*$"
    )]
    pub(crate) note: Option<String>,
}

/// Longest player name or note accepted.
const MAX_TEXT: usize = 200;
/// Largest clock adjustment: one day.
const MAX_ADJUST_MS: i64 = 86_400_000;
/// Longest note accepted.
const MAX_NOTE: usize = 4 * MAX_TEXT;

pub(crate) fn check_note(note: Option<&str>) -> Result<(), ApiError> {
    check_text("note", note, MAX_NOTE)
}

fn check_text(field: &str, text: Option<&str>, max: usize) -> Result<(), ApiError> {
    match text {
        Some(t) if t.chars().count() > max => Err(ApiError::bad_body(format!(
            "{field}: longer than {max} characters"
        ))),
        Some(t) if t.chars().any(|c| c.is_control() && c != '\n') => Err(ApiError::bad_body(
            format!("{field}: control characters are not allowed"),
        )),
        _ => Ok(()),
    }
}

/// Checks of values that serde's types cannot express.
pub(crate) trait Validate {
    /// Refuses out-of-range values with a 400 naming the field.
    fn validate(&self) -> Result<(), ApiError>;
}

impl Validate for StartGameBody {
    fn validate(&self) -> Result<(), ApiError> {
        check_text("black", self.black.as_deref(), MAX_TEXT)?;
        check_text("white", self.white.as_deref(), MAX_TEXT)?;
        if let Some(komi) = self
            .komi
            .filter(|k| !k.is_finite() || k.abs() > 150.0 || (k * 4.0).fract() != 0.0)
        {
            return Err(ApiError::bad_body(format!(
                "komi: {komi} is not a multiple of 0.25 within ±150"
            )));
        }
        if let Some(handicap) = self.handicap.filter(|h| *h > 9) {
            return Err(ApiError::bad_body(format!(
                "handicap: {handicap} is more than 9"
            )));
        }
        check_text("event", self.event.as_deref(), MAX_TEXT)?;
        check_note(self.note.as_deref())?;
        if self.free_handicap == Some(true) && self.handicap.unwrap_or(0) < 2 {
            return Err(ApiError::bad_body(
                "free_handicap: needs handicap 2 or more",
            ));
        }
        // `time_control` was read with the body: the pattern of the document, then the
        // referee's parser (api.md "Time control strings").
        Ok(())
    }
}

impl Validate for RulingBody {
    fn validate(&self) -> Result<(), ApiError> {
        check_note(self.note.as_deref())
    }
}

impl Validate for NoteBody {
    fn validate(&self) -> Result<(), ApiError> {
        check_note(self.note.as_deref())
    }
}

impl Validate for LateStartBody {
    fn validate(&self) -> Result<(), ApiError> {
        if self.absent_ms == 0 || self.absent_ms > MAX_ADJUST_MS.unsigned_abs() {
            return Err(ApiError::bad_body(format!(
                "absent_ms: {} must be between 1 and {MAX_ADJUST_MS}",
                self.absent_ms
            )));
        }
        check_note(self.note.as_deref())
    }
}

impl Validate for ResumePlayBody {
    fn validate(&self) -> Result<(), ApiError> {
        check_note(self.note.as_deref())
    }
}

impl Validate for ClockBody {
    fn validate(&self) -> Result<(), ApiError> {
        match self {
            Self::Adjust { delta_ms, .. } if *delta_ms == 0 || delta_ms.abs() > MAX_ADJUST_MS => {
                Err(ApiError::bad_body(format!(
                    "delta_ms: {delta_ms} must be non-zero and within ±{MAX_ADJUST_MS}"
                )))
            }
            Self::Pause { note } | Self::Resume { note } | Self::Adjust { note, .. } => {
                check_note(note.as_deref())
            }
        }
    }
}

impl Validate for DeadStonesBody {
    fn validate(&self) -> Result<(), ApiError> {
        check_points(&self.points)?;
        check_note(self.note.as_deref())
    }
}

/// 1 to 361 points, each of the form `D4` on a board of at most 19 lines (400 otherwise).
pub(crate) fn check_points(points: &[String]) -> Result<(), ApiError> {
    if points.is_empty() || points.len() > 361 {
        return Err(ApiError::bad_body("points: give between 1 and 361 points"));
    }
    for point in points {
        grammar::check_point(point).map_err(|why| ApiError::bad_body(format!("points: {why}")))?;
    }
    Ok(())
}

/// Normalises every point to upper case, checking it lies on this board (api.md "Points"):
/// a point of the right form beyond a smaller board's edge does not fit the game (409).
pub(crate) fn normalise_points(points: &mut [String], size: u32) -> Result<(), ApiError> {
    for point in points {
        *point = grammar::normalise_point(point, size)
            .map_err(|why| ApiError::Rejected(format!("points: {why}")))?;
    }
    Ok(())
}

impl DeadStonesBody {
    /// Normalises every point to upper case, checking it lies on the board (api.md "Points").
    pub(crate) fn normalise(mut self, size: u32) -> Result<Self, ApiError> {
        normalise_points(&mut self.points, size)?;
        Ok(self)
    }
}

impl Validate for ResultBody {
    fn validate(&self) -> Result<(), ApiError> {
        // The form was read with the body; what the board and ruleset allow is checked against the game.
        check_note(self.note.as_deref())
    }
}

/// A body read strictly: JSON content type, size limit, no unknown fields, validated values.
///
/// An empty body reads as `{}`, so `POST /game` needs no body at all.
#[derive(Debug)]
pub(crate) struct Body<T>(pub(crate) T);

impl<T> FromRequest<Arc<App>> for Body<T>
where
    T: DeserializeOwned + Validate,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, app: &Arc<App>) -> Result<Self, Self::Rejection> {
        let json_type = request
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(is_json);
        let limit = app.body_limit_bytes;
        let bytes = Bytes::from_request(request, app)
            .await
            .map_err(|rejection| {
                if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    ApiError::TooLarge(limit)
                } else {
                    ApiError::BadRequest(rejection.body_text())
                }
            })?;
        let text: &[u8] = if bytes.is_empty() { b"{}" } else { &bytes };
        if !bytes.is_empty() && !json_type {
            return Err(ApiError::UnsupportedMediaType);
        }
        // serde reads a struct from an array too (`[]` would be an empty body): only objects.
        if text.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
            return Err(ApiError::bad_body("the body must be a JSON object"));
        }
        let value: T = serde_json::from_slice(text).map_err(|error| ApiError::BadBody {
            message: error.to_string(),
            // serde_json says line 0 when an error has no place in the text.
            position: (error.line() > 0).then(|| JsonPosition {
                line: error.line(),
                column: error.column(),
            }),
        })?;
        value.validate()?;
        Ok(Self(value))
    }
}

/// `application/json`, with or without parameters, and `application/*+json`.
fn is_json(content_type: &str) -> bool {
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    essence == "application/json"
        || (essence.starts_with("application/") && essence.ends_with("+json"))
}

/// A point in letters and numbers (`D4`; no `I`), case-insensitive, on a board of at most
/// 19 lines (wire protocol v1); a point beyond a smaller board's edge is a 409.
/// (Its pattern is patterns.rs's `POINT`.)
#[derive(ToSchema)]
#[schema(example = "D4")]
pub(crate) struct PointName(#[allow(dead_code)] String);

/// A move of a setup block as the arbiter orders it: a point like [`PointName`], or `pass`.
/// (Its pattern is patterns.rs's `POINT_OR_PASS`.)
#[derive(ToSchema)]
#[schema(example = "D4")]
pub(crate) struct BlockMoveName(#[allow(dead_code)] String);

/// `delta_ms`: a non-zero number of milliseconds within one day either way.
fn delta_ms_schema() -> utoipa::openapi::schema::Schema {
    let range = |min: i64, max: i64| {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::Integer)
            .format(Some(utoipa::openapi::SchemaFormat::KnownFormat(
                utoipa::openapi::KnownFormat::Int64,
            )))
            .minimum(Some(min))
            .maximum(Some(max))
    };
    utoipa::openapi::schema::OneOfBuilder::new()
        .item(range(-MAX_ADJUST_MS, -1))
        .item(range(1, MAX_ADJUST_MS))
        .build()
        .into()
}
