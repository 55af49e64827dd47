//! A client of Pairgoth's REST API as its code answers: load a round, push a result.
//!
//! Requests carry `Accept: application/json` (`ApiServlet.validateAccept`
//! answers 400 without it) and, when Pairgoth runs with authentication,
//! the bearer of its token flow ([`super::pairgoth_auth`]), fetched on the
//! first request and again once when Pairgoth answers 401 (a restarted
//! Pairgoth forgets its access keys). A fixed `Authorization` value is
//! also possible, for a proxy in front of Pairgoth. Paths are relative to
//! the API root the organiser configures (Pairgoth's `api.external.url`,
//! e.g. `http://laptop:8085/api`): `GET tour/#tid`, `GET tour/#tid/part`,
//! `GET tour/#tid/pair/#rn`, `GET`/`PUT tour/#tid/res/#rn`, `GET`/`POST tour/token`.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use goban_tournament::pairgoth::{
    PairgothGame, PairgothPlayer, PairgothTournament, PairingsAnswer, ResultBody, SuccessAnswer,
    round_from,
};
use goban_tournament::{Round, TournamentError};
use reqwest::header::{ACCEPT, AUTHORIZATION, HeaderMap, HeaderValue, WWW_AUTHENTICATE};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use super::pairgoth_auth::{new_session, signature};
use crate::config::{PairgothAuthMode, PairgothConfig, SharedSecret};

/// What can go wrong talking to Pairgoth.
#[derive(Debug, thiserror::Error)]
pub enum PairgothError {
    /// The configured URL or authorization header is not usable.
    #[error("Pairgoth client setup: {0}")]
    Setup(String),
    /// No answer (connection refused, timeout).
    #[error("Pairgoth unreachable: {0}")]
    Transport(#[from] reqwest::Error),
    /// Pairgoth answered with an error status.
    #[error("Pairgoth answered {status}: {body}")]
    Status {
        /// The HTTP status.
        status: u16,
        /// The body, cut to 300 bytes.
        body: String,
    },
    /// Pairgoth answered 200 with `{"success": false}`.
    #[error("Pairgoth refused: {0}")]
    Refused(String),
    /// Pairgoth's token challenge failed (a wrong shared secret, or Pairgoth without authentication).
    #[error("Pairgoth authentication: {0}")]
    Auth(String),
    /// The answer is not the documented shape.
    #[error("Pairgoth answer: {0}")]
    Shape(#[from] TournamentError),
}

impl PairgothError {
    /// Whether trying again later may succeed (transport errors and 5xx);
    /// a 4xx or a refusal will not change by itself.
    pub fn is_transient(&self) -> bool {
        match self {
            Self::Transport(_) => true,
            Self::Status { status, .. } => *status >= 500 || *status == 429,
            _ => false,
        }
    }
}

/// How requests prove who they are.
#[derive(Clone, Debug)]
enum Auth {
    /// Pairgoth's `auth = none`.
    None,
    /// A fixed `Authorization` value (a proxy in front of Pairgoth).
    Fixed(HeaderValue),
    /// Pairgoth's token flow; the bearer once fetched.
    Token {
        secret: SharedSecret,
        email: String,
        bearer: Arc<Mutex<Option<HeaderValue>>>,
    },
}

/// `POST tour/token`'s answer (`TokenHandler.post`).
#[derive(Deserialize)]
struct TokenAnswer {
    token: String,
}

/// A cheap cloneable client of one Pairgoth API root.
#[derive(Clone, Debug)]
pub struct PairgothClient {
    http: reqwest::Client,
    api: String,
    auth: Auth,
}

impl PairgothClient {
    /// A client of the API at `api` (e.g. `http://127.0.0.1:8085/api`), with
    /// `authorization` sent verbatim when set, and `timeout` per request.
    pub fn new(
        api: &str,
        authorization: Option<&str>,
        timeout: Duration,
    ) -> Result<Self, PairgothError> {
        let auth =
            match authorization {
                Some(value) => Auth::Fixed(HeaderValue::from_str(value).map_err(|_| {
                    PairgothError::Setup("authorization is not a header value".into())
                })?),
                None => Auth::None,
            };
        Self::build(api, auth, timeout)
    }

    /// The client `[tournament.pairgoth]` describes.
    pub fn from_config(config: &PairgothConfig) -> Result<Self, PairgothError> {
        match config.auth {
            PairgothAuthMode::None => Self::new(
                &config.url,
                config.authorization.as_deref(),
                config.timeout.0,
            ),
            PairgothAuthMode::Token => {
                let secret = config.shared_secret.clone().ok_or_else(|| {
                    PairgothError::Setup(
                        "auth = \"token\" needs shared_secret (Pairgoth's auth.shared_secret)"
                            .into(),
                    )
                })?;
                let auth = Auth::Token {
                    secret,
                    email: config.email.clone(),
                    bearer: Arc::default(),
                };
                Self::build(&config.url, auth, config.timeout.0)
            }
        }
    }

    fn build(api: &str, auth: Auth, timeout: Duration) -> Result<Self, PairgothError> {
        let mut headers = HeaderMap::new();
        headers.insert(ACCEPT, HeaderValue::from_static("application/json"));
        let http = reqwest::Client::builder()
            .default_headers(headers)
            .timeout(timeout)
            .build()
            .map_err(|e| PairgothError::Setup(e.to_string()))?;
        let api = api.trim_end_matches('/').to_owned();
        if !(api.starts_with("http://") || api.starts_with("https://")) {
            return Err(PairgothError::Setup(format!(
                "{api:?} is not an http(s) URL"
            )));
        }
        Ok(Self { http, api, auth })
    }

    /// Sends the request `build` makes with the credentials; under the token
    /// flow a 401 fetches a new token and tries once more.
    async fn send(
        &self,
        build: impl Fn(&reqwest::Client) -> reqwest::RequestBuilder,
    ) -> Result<reqwest::Response, PairgothError> {
        for first in [true, false] {
            let mut request = build(&self.http);
            if let Some(value) = self.credentials().await? {
                request = request.header(AUTHORIZATION, value);
            }
            let answer = request.send().await?;
            if first && answer.status() == reqwest::StatusCode::UNAUTHORIZED && self.forget() {
                continue;
            }
            return Ok(answer);
        }
        unreachable!("the loop returns on its second pass")
    }

    /// The `Authorization` value to send, fetching a token when none is held.
    async fn credentials(&self) -> Result<Option<HeaderValue>, PairgothError> {
        match &self.auth {
            Auth::None => Ok(None),
            Auth::Fixed(value) => Ok(Some(value.clone())),
            Auth::Token {
                secret,
                email,
                bearer,
            } => {
                if let Some(value) = lock(bearer).clone() {
                    return Ok(Some(value));
                }
                let value = self.login(secret, email).await?;
                *lock(bearer) = Some(value.clone());
                Ok(Some(value))
            }
        }
    }

    /// Drops the held token; true under the token flow (worth a second try).
    fn forget(&self) -> bool {
        match &self.auth {
            Auth::Token { bearer, .. } => {
                lock(bearer).take();
                true
            }
            _ => false,
        }
    }

    /// Pairgoth's challenge (`TokenHandler.failed`), our signed answer (`TokenHandler.post`).
    async fn login(
        &self,
        secret: &SharedSecret,
        email: &str,
    ) -> Result<HeaderValue, PairgothError> {
        let url = format!("{}/tour/token", self.api);
        let session = new_session().map_err(PairgothError::Auth)?;
        let header = |text: String| {
            HeaderValue::from_str(&text)
                .map_err(|_| PairgothError::Auth("bearer is not a header".into()))
        };
        let empty = secret.bearer(&session, "").map_err(PairgothError::Auth)?;
        let asked = self
            .http
            .get(&url)
            .header(AUTHORIZATION, header(empty)?)
            .send()
            .await?;
        let challenge = match (
            asked.status().as_u16(),
            asked.headers().get(WWW_AUTHENTICATE),
        ) {
            (401, Some(value)) => value.to_str().unwrap_or_default().to_owned(),
            (status, _) => {
                return Err(PairgothError::Auth(format!(
                    "GET tour/token answered {status} without a challenge: is Pairgoth's \
                     auth.shared_secret the configured shared_secret, and its auth not \"none\"?"
                )));
            }
        };
        let answer = serde_json::json!({
            "session": session,
            "email": email,
            "signature": signature(&session, &challenge, email),
        });
        let answered = self.http.post(&url).json(&answer).send().await?;
        let token: TokenAnswer = decode(answered).await.map_err(|e| match e {
            PairgothError::Status { status, .. } => PairgothError::Auth(format!(
                "POST tour/token answered {status}: challenge refused"
            )),
            other => other,
        })?;
        let bearer = secret
            .bearer(&session, &token.token)
            .map_err(PairgothError::Auth)?;
        header(bearer)
    }

    /// `GET /api/tour/#tid`.
    pub async fn tournament(&self, tid: u64) -> Result<PairgothTournament, PairgothError> {
        self.get(&format!("tour/{tid}")).await
    }

    /// `GET /api/tour/#tid/part`.
    pub async fn players(&self, tid: u64) -> Result<Vec<PairgothPlayer>, PairgothError> {
        self.get(&format!("tour/{tid}/part")).await
    }

    /// `GET /api/tour/#tid/pair/#rn`.
    pub async fn pairings(&self, tid: u64, round: u32) -> Result<PairingsAnswer, PairgothError> {
        self.get(&format!("tour/{tid}/pair/{round}")).await
    }

    /// `GET /api/tour/#tid/res/#rn`: the round's games with their results (`r`).
    pub async fn results(&self, tid: u64, round: u32) -> Result<Vec<PairgothGame>, PairgothError> {
        self.get(&format!("tour/{tid}/res/{round}")).await
    }

    /// Round `round` of tournament `tid`: its pairings, players, komi and clock.
    pub async fn load_round(&self, tid: u64, round: u32) -> Result<Round, PairgothError> {
        let tournament = self.tournament(tid).await?;
        let players = self.players(tid).await?;
        let pairings = self.pairings(tid, round).await?;
        Ok(round_from(round, &pairings, &players, Some(&tournament))?)
    }

    /// `PUT /api/tour/#tid/res/#rn` with `{"id": gid, "result": symbol}`.
    pub async fn put_result(
        &self,
        tid: u64,
        round: u32,
        body: &ResultBody,
    ) -> Result<(), PairgothError> {
        let url = format!("{}/tour/{tid}/res/{round}", self.api);
        let answer = self.send(|http| http.put(&url).json(body)).await?;
        let answer: SuccessAnswer = decode(answer).await?;
        if answer.success {
            Ok(())
        } else {
            Err(PairgothError::Refused(answer.error.unwrap_or_default()))
        }
    }

    async fn get<T: DeserializeOwned>(&self, path: &str) -> Result<T, PairgothError> {
        let url = format!("{}/{path}", self.api);
        let answer = self.send(|http| http.get(&url)).await?;
        decode(answer).await
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A poisoned lock only means a panic while a token was being stored; the value is whole.
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

async fn decode<T: DeserializeOwned>(answer: reqwest::Response) -> Result<T, PairgothError> {
    let status = answer.status();
    let bytes = answer.bytes().await?;
    if !status.is_success() {
        let body = String::from_utf8_lossy(&bytes[..bytes.len().min(300)]).into_owned();
        return Err(PairgothError::Status {
            status: status.as_u16(),
            body,
        });
    }
    serde_json::from_slice(&bytes).map_err(|e| PairgothError::Shape(TournamentError::Json(e)))
}
