//! Arbiter request bodies of api.md as strict typed structs, and the extractor that reads them.

use std::str::FromStr;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{StatusCode, header};
use goban_referee::clock::TimeControl;
use goban_rules::GameResult;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::App;
use super::error::{ApiError, JsonPosition};
use super::grammar;

/// A player's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Color {
    /// Black.
    Black,
    /// White.
    White,
}

/// Rulesets of the config (`cn2002 | jk | ing | historical`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Ruleset {
    /// Chinese Weiqi rules 2002.
    Cn2002,
    /// Japanese-Korean rules.
    Jk,
    /// Ing rules.
    Ing,
    /// Historical rules.
    Historical,
}

/// `POST /boards/{board}/game`: every field optional, defaulting to the board's config.
#[derive(Clone, Debug, Default, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct StartGameBody {
    /// Black player's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) black: Option<String>,
    /// White player's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) white: Option<String>,
    /// Ruleset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) ruleset: Option<Ruleset>,
    /// Komi in points (CN2002: 7.5 points = 3 3/4 stones).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) komi: Option<f64>,
    /// Handicap stones, 0 to 9.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) handicap: Option<u8>,
    /// Time control string, e.g. `byoyomi-cn:main=60m,reserve=5`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(example = "byoyomi-cn:main=60m,reserve=5")]
    pub(crate) time_control: Option<String>,
    /// Whether the draw fixed the colours (a swap is then `wrong_colour`, CN2002 17.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) colours_fixed: Option<bool>,
    /// Ko rule (CN2002 6, 20; JK 11); default per ruleset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) ko_rule: Option<KoRule>,
    /// Event name for the SGF `EV`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) event: Option<String>,
}

/// Whole-board repetition rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum KoRule {
    /// Only the immediate recapture of a single-stone ko is forbidden (JK basic ko).
    Simple,
    /// No move may recreate an earlier position.
    Positional,
    /// No move may recreate an earlier position with the same player to move (CN2002 6).
    Situational,
}

/// An arbiter's decision on an alert.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum RulingAction {
    /// The infraction happened; apply the advised sanction.
    Confirm,
    /// The infraction happened; apply the sanction (when the tournament only advises).
    Sanction,
    /// No infraction: close the alert without effect.
    Dismiss,
    /// `time_forfeit` only: turn the flag fall into a pass and play on (CN2002 22.5).
    Convert,
}

/// `POST /boards/{board}/infractions/{id}/ruling`.
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RulingBody {
    /// What the arbiter decides.
    pub(crate) action: RulingAction,
    /// Free text for the record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) note: Option<String>,
}

/// `POST /boards/{board}/clock`: pause, resume or adjust one side's time (CN2002 14, 22.8-22.9).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
pub(crate) enum ClockBody {
    /// Stop both clocks.
    Pause {},
    /// Restart the clock of the side to move.
    Resume {},
    /// Add (positive) or remove (negative) time from one side.
    Adjust {
        /// Whose time.
        color: Color,
        /// Milliseconds to add, negative to remove; at most one day either way.
        delta_ms: i64,
    },
}

/// `POST /boards/{board}/dead-stones`: naming one stone marks its whole group.
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct DeadStonesBody {
    /// Points like `D4`, at least one.
    #[schema(example = json!(["D4"]))]
    pub(crate) points: Vec<String>,
    /// True marks dead, false unmarks.
    pub(crate) dead: bool,
}

/// `POST /boards/{board}/result`: the result in SGF `RE` form.
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResultBody {
    /// E.g. `B+R`, `W+6.5`, `B+0.75` (CN2002 stones), `W+T`, `0`.
    #[schema(example = "B+R")]
    pub(crate) result: String,
}

/// Longest player name or note accepted.
const MAX_TEXT: usize = 200;
/// Largest clock adjustment: one day.
const MAX_ADJUST_MS: i64 = 86_400_000;

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
        if let Some(time_control) = &self.time_control {
            // The referee's parser: one grammar for config and API (api.md "Time control strings").
            TimeControl::from_str(time_control)
                .map_err(|why| ApiError::bad_body(format!("time_control: {why}")))?;
        }
        Ok(())
    }
}

impl Validate for RulingBody {
    fn validate(&self) -> Result<(), ApiError> {
        check_text("note", self.note.as_deref(), 4 * MAX_TEXT)
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
            _ => Ok(()),
        }
    }
}

impl Validate for DeadStonesBody {
    fn validate(&self) -> Result<(), ApiError> {
        if self.points.is_empty() || self.points.len() > 625 {
            return Err(ApiError::bad_body("points: give between 1 and 625 points"));
        }
        Ok(())
    }
}

impl DeadStonesBody {
    /// Normalises every point to upper case, checking it lies on the board (api.md "Points").
    pub(crate) fn normalise(mut self, size: u32) -> Result<Self, ApiError> {
        for point in &mut self.points {
            *point = grammar::normalise_point(point, size)
                .map_err(|why| ApiError::bad_body(format!("points: {why}")))?;
        }
        Ok(self)
    }
}

impl Validate for ResultBody {
    fn validate(&self) -> Result<(), ApiError> {
        // The rules crate's reader: the same forms the runtime and SGF import accept.
        GameResult::parse_sgf(&self.result)
            .map(drop)
            .map_err(|why| ApiError::bad_body(format!("result: {why}")))
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
        let value: T = serde_json::from_slice(text).map_err(|error| ApiError::BadBody {
            message: error.to_string(),
            position: Some(JsonPosition {
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn build<T: DeserializeOwned + Validate>(text: &str) -> Result<T, String> {
        let value: T = serde_json::from_str(text).map_err(|e| e.to_string())?;
        value.validate().map_err(|e| e.to_string())?;
        Ok(value)
    }

    #[test]
    fn clock_bodies_of_api_md() {
        assert_eq!(
            build::<ClockBody>(r#"{"action":"pause"}"#),
            Ok(ClockBody::Pause {})
        );
        assert_eq!(
            build::<ClockBody>(r#"{"action":"resume"}"#),
            Ok(ClockBody::Resume {})
        );
        let adjust = r#"{"action":"adjust","color":"black","delta_ms":-60000}"#;
        assert_eq!(
            build::<ClockBody>(adjust),
            Ok(ClockBody::Adjust {
                color: Color::Black,
                delta_ms: -60000
            })
        );
        let back = serde_json::to_value(ClockBody::Adjust {
            color: Color::White,
            delta_ms: 5,
        })
        .unwrap();
        assert_eq!(
            back,
            json!({"action": "adjust", "color": "white", "delta_ms": 5})
        );
    }

    #[test]
    fn clock_bodies_refuse_extras_and_nonsense() {
        for bad in [
            r#"{"action":"pause","color":"black"}"#,
            r#"{"action":"stop"}"#,
            r#"{"action":"adjust","color":"black"}"#,
            r#"{"action":"adjust","color":"red","delta_ms":1}"#,
            r#"{"action":"adjust","color":"black","delta_ms":0}"#,
            r#"{"action":"adjust","color":"black","delta_ms":1.5}"#,
            r#"{"action":"adjust","color":"black","delta_ms":-90000000000}"#,
            r#"{}"#,
        ] {
            assert!(build::<ClockBody>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn game_body_is_optional_but_strict() {
        let empty = build::<StartGameBody>("{}").unwrap();
        assert_eq!(serde_json::to_value(empty).unwrap(), json!({}));
        let full = r#"{"black":"A","white":"B","ruleset":"cn2002","komi":7.5,"handicap":0,
            "time_control":"byoyomi-cn:main=60m,reserve=5","colours_fixed":true,
            "ko_rule":"situational","event":"City Open"}"#;
        assert!(build::<StartGameBody>(full).is_ok());
        for bad in [
            r#"{"blak":"A"}"#,
            r#"{"ruleset":"aga"}"#,
            r#"{"komi":7.3}"#,
            r#"{"komi":"7.5"}"#,
            r#"{"handicap":10}"#,
            r#"{"handicap":-1}"#,
            r#"{"time_control":"sudden death"}"#,
            r#"{"time_control":"byoyomi-cn:main=60"}"#,
            r#"{"ko_rule":"superko"}"#,
            r#"{"black":"a\u0000b"}"#,
        ] {
            assert!(build::<StartGameBody>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn ruling_dead_stones_and_result_bodies() {
        assert!(build::<RulingBody>(r#"{"action":"dismiss","note":"hand slipped"}"#).is_ok());
        assert!(build::<RulingBody>(r#"{"action":"convert"}"#).is_ok());
        assert!(build::<RulingBody>(r#"{"action":"void"}"#).is_err());
        assert!(build::<RulingBody>(r#"{"note":"x"}"#).is_err());
        let dead = build::<DeadStonesBody>(r#"{"points":["d4","Q16"],"dead":true}"#).unwrap();
        assert_eq!(dead.normalise(19).unwrap().points, vec!["D4", "Q16"]);
        assert!(build::<DeadStonesBody>(r#"{"points":[],"dead":true}"#).is_err());
        assert!(build::<DeadStonesBody>(r#"{"points":["D4"]}"#).is_err());
        let far = build::<DeadStonesBody>(r#"{"points":["Q16"],"dead":true}"#).unwrap();
        assert!(far.normalise(9).is_err());
        assert!(build::<ResultBody>(r#"{"result":"B+R"}"#).is_ok());
        assert!(build::<ResultBody>(r#"{"result":"W+6.5"}"#).is_ok());
        assert!(build::<ResultBody>(r#"{"result":"black"}"#).is_err());
        assert!(build::<ResultBody>(r#"{"result":"B+X"}"#).is_err());
        assert!(build::<ResultBody>(r#"{"result":"W+-3"}"#).is_err());
    }

    #[test]
    fn json_content_types() {
        assert!(is_json("application/json"));
        assert!(is_json("Application/JSON; charset=utf-8"));
        assert!(is_json("application/merge-patch+json"));
        assert!(!is_json("text/plain"));
        assert!(!is_json("application/x-www-form-urlencoded"));
    }
}
