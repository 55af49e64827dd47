//! What the HTTP layer needs from the daemon's configuration: tokens, broadcast delay, CORS, body limit, metrics.

use std::time::Duration;

use axum::http::HeaderValue;
use metrics_exporter_prometheus::PrometheusHandle;

/// Default request body limit: arbiter bodies are a few hundred bytes.
pub(crate) const DEFAULT_BODY_LIMIT_BYTES: usize = 64 * 1024;

/// A setting that cannot be used as given.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SettingsError {
    /// A CORS origin is not a valid header value.
    #[allow(dead_code, reason = "built by AllowOrigins::parse")]
    #[error(
        "cors origin {0:?} is not a valid origin (expected e.g. \"https://overlay.example\" or \"*\")"
    )]
    BadOrigin(String),
    /// An arbiter token is empty or contains whitespace.
    #[error("arbiter token #{0} is empty or contains whitespace")]
    BadToken(usize),
}

/// Which browser origins may read the API (overlay pages live on other origins).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) enum AllowOrigins {
    /// Any origin (`Access-Control-Allow-Origin: *`), the default.
    #[default]
    Any,
    /// Only these exact origins.
    #[allow(
        dead_code,
        reason = "built by parse, which the config does not call yet"
    )]
    List(Vec<HeaderValue>),
}

impl AllowOrigins {
    /// Parses configured origins: empty or containing `"*"` means any origin.
    #[allow(
        dead_code,
        reason = "for a config field server.cors_allow_origins, not there yet"
    )]
    pub(crate) fn parse(origins: &[String]) -> Result<Self, SettingsError> {
        if origins.is_empty() || origins.iter().any(|o| o.trim() == "*") {
            return Ok(Self::Any);
        }
        origins
            .iter()
            .map(|o| {
                let trimmed = o.trim().trim_end_matches('/');
                let valid = trimmed.starts_with("http://") || trimmed.starts_with("https://");
                HeaderValue::from_str(trimmed)
                    .ok()
                    .filter(|_| valid)
                    .ok_or_else(|| SettingsError::BadOrigin(o.clone()))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Self::List)
    }
}

/// Arbiter bearer tokens, checked in constant time; never logged or echoed.
#[derive(Clone, Default)]
pub(crate) struct ArbiterTokens(Vec<String>);

impl ArbiterTokens {
    /// Accepts tokens from the config and `GOBAN_ARBITER_TOKENS`; an empty list disables arbiter routes.
    pub(crate) fn new(tokens: Vec<String>) -> Result<Self, SettingsError> {
        for (index, token) in tokens.iter().enumerate() {
            if token.is_empty() || token.chars().any(char::is_whitespace) {
                return Err(SettingsError::BadToken(index + 1));
            }
        }
        Ok(Self(tokens))
    }

    /// The tokens in config order; identity `arbiter#N` is the 1-based index.
    pub(crate) fn as_slice(&self) -> &[String] {
        &self.0
    }
}

impl std::fmt::Debug for ArbiterTokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Tokens are secrets: print only how many there are.
        write!(f, "ArbiterTokens({} configured)", self.0.len())
    }
}

/// Everything [`super::serve`] and [`super::router`] need besides the hub.
#[derive(Clone, Debug)]
pub(crate) struct HttpSettings {
    /// Bearer tokens of arbiters (config `server.arbiter_tokens` and env `GOBAN_ARBITER_TOKENS`).
    pub(crate) arbiter_tokens: ArbiterTokens,
    /// Anti-cheating lag of public state, SGF and SSE behind live play; zero means live for everyone.
    pub(crate) broadcast_delay: Duration,
    /// Origins allowed by CORS; default any.
    pub(crate) cors_allow_origins: AllowOrigins,
    /// Largest accepted request body in bytes, default 64 KiB; larger bodies get 413.
    pub(crate) body_limit_bytes: usize,
    /// The Prometheus recorder's handle from [`super::install_metrics`]; `None` answers 404 on /metrics.
    pub(crate) metrics: Option<PrometheusHandle>,
    /// The tournament desk, when the daemon runs one; `None` answers 503 on /tournament routes.
    pub(crate) tournament: Option<std::sync::Arc<crate::tournament::Desk>>,
    /// The analysis the public feed released; `None` answers "off" on `/boards/{board}/analysis`.
    pub(crate) analysis: Option<crate::analysis::PublicAnalysis>,
}

impl Default for HttpSettings {
    fn default() -> Self {
        Self {
            arbiter_tokens: ArbiterTokens::default(),
            broadcast_delay: Duration::ZERO,
            cors_allow_origins: AllowOrigins::Any,
            body_limit_bytes: DEFAULT_BODY_LIMIT_BYTES,
            metrics: None,
            tournament: None,
            analysis: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_default_to_any() {
        assert_eq!(AllowOrigins::parse(&[]).unwrap(), AllowOrigins::Any);
        let star = vec!["https://a.example".to_owned(), "*".to_owned()];
        assert_eq!(AllowOrigins::parse(&star).unwrap(), AllowOrigins::Any);
    }

    #[test]
    fn origins_are_parsed_or_refused() {
        let list = vec!["https://overlay.example/".to_owned()];
        let AllowOrigins::List(parsed) = AllowOrigins::parse(&list).unwrap() else {
            panic!("expected a list");
        };
        assert_eq!(
            parsed,
            vec![HeaderValue::from_static("https://overlay.example")]
        );
        let bad = vec!["overlay.example".to_owned()];
        assert!(matches!(
            AllowOrigins::parse(&bad),
            Err(SettingsError::BadOrigin(_))
        ));
    }

    #[test]
    fn tokens_refuse_blank_and_hide_in_debug() {
        assert!(matches!(
            ArbiterTokens::new(vec!["ok".into(), "".into()]),
            Err(SettingsError::BadToken(2))
        ));
        assert!(ArbiterTokens::new(vec!["a b".into()]).is_err());
        let tokens = ArbiterTokens::new(vec!["s3cret".into()]).unwrap();
        assert!(!format!("{tokens:?}").contains("s3cret"));
    }
}
