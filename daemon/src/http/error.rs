//! The API's error answer: a 4xx (or 503) status with the JSON body `{"error": ..., "detail": ...}` of api.md.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use crate::hub::RequestError;

/// Why a request could not be served; every variant maps to one status and a JSON body.
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
        /// Where in the body, when serde knows (`line`, `column`, `field`).
        detail: Value,
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
    /// The board runtime or the journal is not running (503).
    #[error("{0}")]
    Unavailable(String),
}

impl ApiError {
    /// A body error without position details.
    pub(crate) fn bad_body(message: impl Into<String>) -> Self {
        Self::BadBody {
            message: message.into(),
            detail: Value::Null,
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
            Self::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
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
            Self::Unavailable(_) => "unavailable",
        }
    }

    fn detail(&self) -> Value {
        match self {
            Self::BadBody { message, detail } if !detail.is_null() => {
                let mut object = json!({ "message": message });
                if let (Some(target), Some(extra)) = (object.as_object_mut(), detail.as_object()) {
                    target.extend(extra.clone());
                }
                object
            }
            other => Value::String(other.to_string()),
        }
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
        let body = json!({ "error": self.code(), "detail": self.detail() });
        let mut response = (status, Json(body)).into_response();
        if status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer realm=\"goban-bridge\""),
            );
        }
        response
    }
}

/// Rewrites any error answer that is not JSON yet (axum's own rejections, e.g. a path segment
/// that is not UTF-8 or a malformed query) into the `{"error", "detail"}` body of api.md.
pub(crate) async fn ensure_json_errors(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    // Rejection texts are one line; anything longer is cut rather than buffered whole.
    let text = match axum::body::to_bytes(body, 4096).await {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(_) => String::new(),
    };
    let detail = if text.is_empty() {
        Value::String(status.to_string())
    } else {
        Value::String(text)
    };
    let body = json!({ "error": code_of_status(status), "detail": detail }).to_string();
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, axum::body::Body::from(body))
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

/// Fallback for paths no route matches: 404 with the JSON error body.
pub(crate) async fn handle_no_route(uri: axum::http::Uri) -> ApiError {
    ApiError::NoRoute(uri.path().to_owned())
}

/// Fallback for a known path with the wrong method: 405 with the JSON error body.
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
    fn body_detail_merges_position() {
        let error = ApiError::BadBody {
            message: "bad".into(),
            detail: json!({ "line": 1, "column": 7 }),
        };
        assert_eq!(
            error.detail(),
            json!({ "message": "bad", "line": 1, "column": 7 })
        );
        assert_eq!(ApiError::bad_body("x").detail(), json!("x"));
    }
}
