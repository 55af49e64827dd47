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
    /// An arbiter's name is empty, too long, has control characters, looks like
    /// another arbiter's `arbiter#N` or is given twice.
    #[error(
        "arbiter name {0:?}: give 1 to 60 printable characters, unique, not of the form arbiter#N"
    )]
    ArbiterName(String),
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
pub(crate) struct ArbiterTokens {
    tokens: Vec<String>,
    /// The name each token carries (`[[server.arbiters]]`), by index; `None`: `arbiter#N`.
    names: Vec<Option<String>>,
}

impl ArbiterTokens {
    /// Accepts tokens from the config and `GOBAN_ARBITER_TOKENS`; an empty list disables arbiter routes.
    pub(crate) fn new(tokens: Vec<String>) -> Result<Self, SettingsError> {
        for (index, token) in tokens.iter().enumerate() {
            if token.is_empty() || token.chars().any(char::is_whitespace) {
                return Err(SettingsError::BadToken(index + 1));
            }
        }
        let names = vec![None; tokens.len()];
        Ok(Self { tokens, names })
    }

    /// Adds tokens that carry their arbiter's name (`(name, token)`), after the unnamed ones.
    pub(crate) fn with_named(
        mut self,
        named: Vec<(String, String)>,
    ) -> Result<Self, SettingsError> {
        for (name, token) in named {
            let taken = self.names.iter().flatten().any(|n| n == &name);
            let printable = !name.chars().any(char::is_control) && name.trim() == name;
            if taken
                || !printable
                || name.is_empty()
                || name.chars().count() > 60
                || name.starts_with("arbiter#")
            {
                return Err(SettingsError::ArbiterName(name));
            }
            if token.is_empty() || token.chars().any(char::is_whitespace) {
                return Err(SettingsError::BadToken(self.tokens.len() + 1));
            }
            self.tokens.push(token);
            self.names.push(Some(name));
        }
        Ok(self)
    }

    /// The tokens in config order (the unnamed ones first).
    pub(crate) fn as_slice(&self) -> &[String] {
        &self.tokens
    }

    /// Who the token at `index` is: its name, else `arbiter#N` (the 1-based index).
    pub(crate) fn identity(&self, index: usize) -> String {
        match self.names.get(index) {
            Some(Some(name)) => name.clone(),
            _ => format!("arbiter#{}", index + 1),
        }
    }
}

impl std::fmt::Debug for ArbiterTokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Tokens are secrets: print only how many there are.
        write!(f, "ArbiterTokens({} configured)", self.tokens.len())
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
    /// Timeouts and the connection limit of the server loop.
    pub(crate) connections: super::server::ConnectionLimits,
    /// CSP `frame-ancestors` of the overlay pages (`server.overlay_frame_ancestors`); the
    /// console, the hall, the viewer and /api/docs may not be framed at all.
    pub(crate) overlay_frame_ancestors: HeaderValue,
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
            connections: super::server::ConnectionLimits {
                header_timeout: Duration::from_secs(10),
                body_timeout: Duration::from_secs(30),
                idle_timeout: Duration::from_secs(60),
                max_connections: 4096,
            },
            overlay_frame_ancestors: HeaderValue::from_static("*"),
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
