//! The API's error answer: an RFC 9457 problem (`application/problem+json`) for every 4xx and 5xx.
//!
//! Every error, whether a handler's [`ApiError`] or a rejection axum writes
//! itself, leaves as one [`Problem`]: `type`, `title`, `status`, `detail`
//! (RFC 9457 section 3.1), plus the extension member `error`, the stable code
//! api.md promised before problems were adopted (`type` ends with it).

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

use crate::publish::hub::RequestError;

/// The media type of every error answer (RFC 9457 section 6.1).
pub(crate) const PROBLEM_JSON: &str = "application/problem+json";

/// Prefix of every problem `type`: a tag URI (RFC 4151), an identifier that is not
/// meant to be fetched; the code after it is the `error` member.
const TYPE_PREFIX: &str = "tag:goban-bridge,2026:problem:";

/// Where in a JSON body the parser stopped (1-based), for a `bad_body` problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct JsonPosition {
    /// Line of the body.
    pub(crate) line: usize,
    /// Column in that line.
    pub(crate) column: usize,
}

/// Why a request could not be served; every variant maps to one status and one problem code.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ApiError {
    /// No `Authorization: Bearer` header, or a token that is not configured (401).
    #[error("{0}")]
    Unauthorized(&'static str),
    /// The body is not valid JSON, has unknown fields or values out of range (400).
    #[error("{message}")]
    BadBody {
        /// What was wrong, in words.
        message: String,
        /// Where in the body, when the JSON parser knows.
        position: Option<JsonPosition>,
    },
    /// A header or query parameter is malformed (400).
    #[error("{0}")]
    BadRequest(String),
    /// A non-empty body without `Content-Type: application/json` (415).
    #[error("expected Content-Type: application/json")]
    UnsupportedMediaType,
    /// The body exceeds the configured limit (413).
    #[error("request body larger than {0} bytes")]
    TooLarge(usize),
    /// No board with that id (404).
    #[error("unknown board {0:?}")]
    UnknownBoard(String),
    /// No finished game with that id (404).
    #[error("unknown game {0:?}")]
    UnknownGame(String),
    /// No infraction with that id on the board (404).
    #[error("unknown infraction {0:?}")]
    UnknownInfraction(String),
    /// No route at this path (404).
    #[error("no such path {0}")]
    NoRoute(String),
    /// The path exists but not for this method (405).
    #[error("method not allowed here")]
    MethodNotAllowed,
    /// /metrics without an installed recorder (404).
    #[error("metrics are not enabled")]
    MetricsDisabled,
    /// The runtime refused the request: it does not fit the game (409).
    #[error("{0}")]
    Rejected(String),
    /// A document inside a well-formed body (a round's CSV or OpenGotha file) cannot be read (422).
    #[error("{0}")]
    Unreadable(String),
    /// The board runtime or the journal is not running (503).
    #[error("{0}")]
    Unavailable(String),
    /// The board is still being rebuilt from the journal after a restart (503, `Retry-After: 1`).
    #[error(
        "board {0:?} is still being recovered from the journal; GET /health lists the boards ready"
    )]
    Recovering(String),
}

/// An RFC 9457 problem: the body of every error answer.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "type": "tag:goban-bridge,2026:problem:unknown_board",
    "title": "Unknown board",
    "status": 404,
    "detail": "unknown board \"table-9\"",
    "error": "unknown_board"
}))]
pub(crate) struct Problem {
    /// Identifies the kind of problem: `tag:goban-bridge,2026:problem:` and the `error` code.
    #[serde(rename = "type")]
    kind: String,
    /// A short summary of the kind of problem, the same for every occurrence.
    title: &'static str,
    /// The HTTP status code of this answer.
    #[schema(minimum = 400, maximum = 599)]
    status: u16,
    /// What went wrong this time, in words.
    detail: String,
    /// Stable code (extension member): `unauthorized`, `bad_body`, `bad_request`,
    /// `unsupported_media_type`, `payload_too_large`, `unknown_board`, `unknown_game`,
    /// `unknown_infraction`, `not_found`, `method_not_allowed`, `metrics_disabled`,
    /// `rejected`, `unreadable_document`, `unavailable`, `recovering`.
    error: &'static str,
    /// `bad_body` only: line of the body where the JSON parser stopped (extension member).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1)]
    line: Option<usize>,
    /// `bad_body` only: column where the JSON parser stopped (extension member).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 0)]
    column: Option<usize>,
}

impl Problem {
    fn new(status: StatusCode, code: &'static str, detail: String) -> Self {
        Self {
            kind: format!("{TYPE_PREFIX}{code}"),
            title: title_of(code),
            status: status.as_u16(),
            detail,
            error: code,
            line: None,
            column: None,
        }
    }

    /// The answer: the status, `Content-Type: application/problem+json` and the body.
    fn into_response_with(self, status: StatusCode) -> Response {
        let body = match serde_json::to_vec(&self) {
            Ok(body) => body,
            // Only strings and integers: serialising cannot fail; say so rather than panic.
            Err(_) => br#"{"title":"Internal error","status":500}"#.to_vec(),
        };
        let mut response = (status, body).into_response();
        response
            .headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON));
        response
    }
}

/// The `title` of each code: fixed per kind, as RFC 9457 section 3.1.3 asks.
fn title_of(code: &str) -> &'static str {
    match code {
        "unauthorized" => "Arbiter token missing or unknown",
        "bad_body" => "Malformed request body",
        "bad_request" => "Malformed request",
        "unsupported_media_type" => "Body is not JSON",
        "payload_too_large" => "Request body too large",
        "unknown_board" => "Unknown board",
        "unknown_game" => "Unknown game",
        "unknown_infraction" => "Unknown infraction",
        "not_found" => "No such path",
        "method_not_allowed" => "Method not allowed",
        "metrics_disabled" => "Metrics not enabled",
        "rejected" => "Refused by the game",
        "unreadable_document" => "Document cannot be read",
        "recovering" => "Board still recovering",
        _ => "Service unavailable",
    }
}

impl ApiError {
    /// A body error without position details.
    pub(crate) fn bad_body(message: impl Into<String>) -> Self {
        Self::BadBody {
            message: message.into(),
            position: None,
        }
    }

    fn status(&self) -> StatusCode {
        match self {
            Self::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            Self::BadBody { .. } | Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnknownBoard(_)
            | Self::UnknownGame(_)
            | Self::UnknownInfraction(_)
            | Self::NoRoute(_)
            | Self::MetricsDisabled => StatusCode::NOT_FOUND,
            Self::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Self::Rejected(_) => StatusCode::CONFLICT,
            Self::Unreadable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Self::Unavailable(_) | Self::Recovering(_) => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    /// The stable, machine-readable `error` field.
    fn code(&self) -> &'static str {
        match self {
            Self::Unauthorized(_) => "unauthorized",
            Self::BadBody { .. } => "bad_body",
            Self::BadRequest(_) => "bad_request",
            Self::UnsupportedMediaType => "unsupported_media_type",
            Self::TooLarge(_) => "payload_too_large",
            Self::UnknownBoard(_) => "unknown_board",
            Self::UnknownGame(_) => "unknown_game",
            Self::UnknownInfraction(_) => "unknown_infraction",
            Self::NoRoute(_) => "not_found",
            Self::MethodNotAllowed => "method_not_allowed",
            Self::MetricsDisabled => "metrics_disabled",
            Self::Rejected(_) => "rejected",
            Self::Unreadable(_) => "unreadable_document",
            Self::Unavailable(_) => "unavailable",
            Self::Recovering(_) => "recovering",
        }
    }

    /// The problem this error answers with.
    fn problem(&self) -> Problem {
        let mut problem = Problem::new(self.status(), self.code(), self.to_string());
        if let Self::BadBody {
            position: Some(position),
            ..
        } = self
        {
            problem.line = Some(position.line);
            problem.column = Some(position.column);
        }
        problem
    }
}

impl From<RequestError> for ApiError {
    fn from(error: RequestError) -> Self {
        match error {
            RequestError::UnknownBoard(board) => Self::UnknownBoard(board),
            RequestError::Rejected(why) => Self::Rejected(why),
            RequestError::Unavailable(_) => Self::Unavailable(error.to_string()),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let mut response = self.problem().into_response_with(status);
        if status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer realm=\"goban-bridge\""),
            );
        }
        if matches!(self, Self::Recovering(_)) {
            // A board recovers in well under a second; ask again soon rather than give up.
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        response
    }
}

/// Rewrites any error answer that is not a problem yet (axum's own rejections, e.g. a path
/// segment that is not UTF-8 or a malformed query) into an RFC 9457 problem.
pub(crate) async fn ensure_json_errors(response: Response) -> Response {
    let status = response.status();
    let content_type = response.headers().get(header::CONTENT_TYPE);
    let is_problem = content_type.is_some_and(|v| v.as_bytes() == PROBLEM_JSON.as_bytes());
    // A page's own 404 (an unknown board's viewer) is for people: it stays HTML.
    let is_page = content_type.is_some_and(|v| v.as_bytes().starts_with(b"text/html"));
    if !(status.is_client_error() || status.is_server_error()) || is_problem || is_page {
        return response;
    }
    let (parts, body) = response.into_parts();
    // Rejection texts are one line; anything longer is cut rather than buffered whole.
    let text = match axum::body::to_bytes(body, 4096).await {
        Ok(bytes) => String::from_utf8_lossy(&bytes).trim().to_owned(),
        Err(_) => String::new(),
    };
    let detail = if text.is_empty() {
        status.to_string()
    } else {
        text
    };
    let mut response =
        Problem::new(status, code_of_status(status), detail).into_response_with(status);
    for (name, value) in &parts.headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            response.headers_mut().append(name, value.clone());
        }
    }
    response
}

fn code_of_status(status: StatusCode) -> &'static str {
    match status {
        StatusCode::UNAUTHORIZED => "unauthorized",
        StatusCode::NOT_FOUND => "not_found",
        StatusCode::METHOD_NOT_ALLOWED => "method_not_allowed",
        StatusCode::PAYLOAD_TOO_LARGE => "payload_too_large",
        StatusCode::UNSUPPORTED_MEDIA_TYPE => "unsupported_media_type",
        StatusCode::UNPROCESSABLE_ENTITY => "bad_body",
        s if s.is_server_error() => "unavailable",
        _ => "bad_request",
    }
}

/// Fallback for paths no route matches: 404 problem.
pub(crate) async fn handle_no_route(uri: axum::http::Uri) -> ApiError {
    ApiError::NoRoute(uri.path().to_owned())
}

/// Fallback for a known path with the wrong method: 405 problem.
pub(crate) async fn handle_wrong_method() -> ApiError {
    ApiError::MethodNotAllowed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_errors_map_to_statuses() {
        let cases = [
            (
                RequestError::UnknownBoard("x".into()),
                StatusCode::NOT_FOUND,
            ),
            (
                RequestError::Rejected("wrong phase".into()),
                StatusCode::CONFLICT,
            ),
            (
                RequestError::Unavailable("x".into()),
                StatusCode::SERVICE_UNAVAILABLE,
            ),
        ];
        for (error, status) in cases {
            assert_eq!(ApiError::from(error).into_response().status(), status);
        }
    }

    #[test]
    fn a_body_error_carries_its_position_as_extension_members() {
        let error = ApiError::BadBody {
            message: "expected value".into(),
            position: Some(JsonPosition { line: 1, column: 7 }),
        };
        let problem = serde_json::to_value(error.problem()).expect("json");
        assert_eq!(
            problem,
            serde_json::json!({
                "type": "tag:goban-bridge,2026:problem:bad_body",
                "title": "Malformed request body",
                "status": 400,
                "detail": "expected value",
                "error": "bad_body",
                "line": 1,
                "column": 7
            })
        );
        let plain = serde_json::to_value(ApiError::bad_body("x").problem()).expect("json");
        assert!(plain.get("line").is_none(), "{plain}");
    }

    #[test]
    fn every_code_has_its_own_title() {
        let codes = [
            "unauthorized",
            "bad_body",
            "bad_request",
            "unsupported_media_type",
            "payload_too_large",
            "unknown_board",
            "unknown_game",
            "unknown_infraction",
            "not_found",
            "method_not_allowed",
            "metrics_disabled",
            "rejected",
            "unreadable_document",
            "unavailable",
            "recovering",
        ];
        let titles: std::collections::HashSet<_> = codes.iter().map(|c| title_of(c)).collect();
        assert_eq!(titles.len(), codes.len());
    }
}
