//! Bearer-token authentication of arbiters: constant-time comparison, identity by index, extractors.

use std::sync::Arc;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderValue, header};
use subtle::ConstantTimeEq;

use super::error::ApiError;
use super::{App, ArbiterTokens};

/// Who acts: the name the token carries, else `arbiter#N`, the 1-based index of the token; never the token itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Identity(String);

impl Identity {
    /// The name passed to the runtime as `who` and written to the journal.
    pub(crate) fn name(&self) -> &str {
        &self.0
    }
}

/// Checks an `Authorization` header: `Ok(None)` when absent, an identity when a configured token matches.
///
/// A header that is present but malformed or carries an unknown token is refused,
/// even on public routes, so that a misconfigured overlay notices instead of silently
/// seeing the delayed view.
pub(crate) fn check(
    tokens: &ArbiterTokens,
    header: Option<&HeaderValue>,
) -> Result<Option<Identity>, ApiError> {
    let Some(header) = header else {
        return Ok(None);
    };
    let value = header
        .to_str()
        .map_err(|_| ApiError::Unauthorized("malformed Authorization header"))?;
    let (scheme, token) = value.split_once(' ').ok_or(ApiError::Unauthorized(
        "expected Authorization: Bearer <token>",
    ))?;
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Err(ApiError::Unauthorized(
            "expected Authorization: Bearer <token>",
        ));
    }
    match find_token(tokens.as_slice(), token.trim().as_bytes()) {
        Some(index) => Ok(Some(Identity(tokens.identity(index)))),
        None => Err(ApiError::Unauthorized("unknown arbiter token")),
    }
}

/// Index of the matching token; compares against every token so timing tells nothing about which.
fn find_token(tokens: &[String], given: &[u8]) -> Option<usize> {
    let mut found = None;
    for (index, token) in tokens.iter().enumerate() {
        let equal: bool = token.as_bytes().ct_eq(given).into();
        if equal && found.is_none() {
            found = Some(index);
        }
    }
    found
}

/// Extractor for arbiter routes: a valid bearer token or 401.
#[derive(Debug)]
pub(crate) struct Arbiter(pub(crate) Identity);

impl FromRequestParts<Arc<App>> for Arbiter {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        app: &Arc<App>,
    ) -> Result<Self, Self::Rejection> {
        let header = parts.headers.get(header::AUTHORIZATION);
        match check(&app.tokens, header)? {
            Some(identity) => Ok(Self(identity)),
            None => Err(ApiError::Unauthorized(
                "arbiter token required: Authorization: Bearer <token>",
            )),
        }
    }
}

/// Extractor for public routes: arbiters see live play, everyone else the delayed view.
#[derive(Debug)]
pub(crate) enum Viewer {
    /// No credentials: subject to the broadcast delay.
    Public,
    /// A valid bearer token: live.
    Arbiter,
}

impl Viewer {
    /// Whether this viewer sees live play rather than the delayed broadcast.
    pub(crate) fn is_arbiter(&self) -> bool {
        matches!(self, Self::Arbiter)
    }
}

impl FromRequestParts<Arc<App>> for Viewer {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        app: &Arc<App>,
    ) -> Result<Self, Self::Rejection> {
        let header = parts.headers.get(header::AUTHORIZATION);
        Ok(check(&app.tokens, header)?.map_or(Self::Public, |_| Self::Arbiter))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build_tokens() -> ArbiterTokens {
        ArbiterTokens::new(vec!["alpha-token".to_owned(), "beta-token".to_owned()]).unwrap()
    }

    #[test]
    fn identity_is_the_index_not_the_token() {
        let header = HeaderValue::from_static("Bearer beta-token");
        let identity = check(&build_tokens(), Some(&header)).unwrap().unwrap();
        assert_eq!(identity.name(), "arbiter#2");
        let lower = HeaderValue::from_static("bearer alpha-token");
        assert_eq!(
            check(&build_tokens(), Some(&lower))
                .unwrap()
                .unwrap()
                .name(),
            "arbiter#1"
        );
    }

    #[test]
    fn absent_header_is_public_and_bad_ones_are_refused() {
        assert_eq!(check(&build_tokens(), None).unwrap(), None);
        for bad in [
            "Bearer alpha",
            "Bearer alpha-token-x",
            "Basic YWxwaGE=",
            "alpha-token",
            "Bearer ",
        ] {
            let header = HeaderValue::from_str(bad).unwrap();
            assert!(
                check(&build_tokens(), Some(&header)).is_err(),
                "{bad} accepted"
            );
        }
    }

    #[test]
    fn no_tokens_means_nobody_is_arbiter() {
        let header = HeaderValue::from_static("Bearer anything");
        assert!(check(&ArbiterTokens::default(), Some(&header)).is_err());
    }

    #[test]
    fn a_named_token_acts_under_its_name() {
        let tokens = build_tokens()
            .with_named(vec![("Li Wei".to_owned(), "gamma-token".to_owned())])
            .unwrap();
        let header = HeaderValue::from_static("Bearer gamma-token");
        let identity = check(&tokens, Some(&header)).unwrap().unwrap();
        assert_eq!(identity.name(), "Li Wei");
        let header = HeaderValue::from_static("Bearer alpha-token");
        let identity = check(&tokens, Some(&header)).unwrap().unwrap();
        assert_eq!(
            identity.name(),
            "arbiter#1",
            "unnamed tokens keep their index"
        );
    }

    #[test]
    fn bad_names_are_refused_at_start() {
        for name in ["", " Li", "arbiter#9", "a\u{7}b", &"x".repeat(61)] {
            let named = vec![(name.to_owned(), "tok".to_owned())];
            assert!(
                build_tokens().with_named(named).is_err(),
                "{name:?} accepted"
            );
        }
        let twice = vec![
            ("Anna".to_owned(), "t1".to_owned()),
            ("Anna".to_owned(), "t2".to_owned()),
        ];
        assert!(build_tokens().with_named(twice).is_err());
    }
}
