//! A client of Pairgoth's REST API, written to its `doc/reference.md`: load a round, push a result.
//!
//! Requests carry `Accept: application/json` as the reference asks ("The
//! API expects an Accept header of application/json"), and the configured
//! `Authorization` header when Pairgoth runs with authentication. Paths are
//! relative to the API root the organiser configures (Pairgoth's
//! `api.external.url`, e.g. `http://laptop:8080/api`):
//! `GET tour/#tid`, `GET tour/#tid/part`, `GET tour/#tid/pair/#rn`,
//! `GET`/`PUT tour/#tid/res/#rn`.

use std::time::Duration;

use goban_tournament::pairgoth::{
    PairgothPlayer, PairgothTournament, PairingsAnswer, ResultBody, SuccessAnswer, round_from,
};
use goban_tournament::{Round, TournamentError};
use reqwest::header::{ACCEPT, AUTHORIZATION, HeaderMap, HeaderValue};
use serde::de::DeserializeOwned;

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

/// A cheap cloneable client of one Pairgoth API root.
#[derive(Clone, Debug)]
pub struct PairgothClient {
    http: reqwest::Client,
    api: String,
}

impl PairgothClient {
    /// A client of the API at `api` (e.g. `http://127.0.0.1:8080/api`), with
    /// `authorization` sent verbatim when set, and `timeout` per request.
    pub fn new(
        api: &str,
        authorization: Option<&str>,
        timeout: Duration,
    ) -> Result<Self, PairgothError> {
        let mut headers = HeaderMap::new();
        headers.insert(ACCEPT, HeaderValue::from_static("application/json"));
        if let Some(auth) = authorization {
            let value = HeaderValue::from_str(auth)
                .map_err(|_| PairgothError::Setup("authorization is not a header value".into()))?;
            headers.insert(AUTHORIZATION, value);
        }
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
        Ok(Self { http, api })
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

    /// `GET /api/tour/#tid/res/#rn`.
    pub async fn results(&self, tid: u64, round: u32) -> Result<Vec<ResultBody>, PairgothError> {
        self.get(&format!("tour/{tid}/res/{round}")).await
    }

    /// Round `round` of tournament `tid`: its pairings, players, komi and clock.
    pub async fn load_round(&self, tid: u64, round: u32) -> Result<Round, PairgothError> {
        let tournament = self.tournament(tid).await?;
        let players = self.players(tid).await?;
        let pairings = self.pairings(tid, round).await?;
        Ok(round_from(round, &pairings, &players, Some(&tournament))?)
    }

    /// `PUT /api/tour/#tid/res/#rn` with `{"id": gid, "res": code}`.
    pub async fn put_result(
        &self,
        tid: u64,
        round: u32,
        body: &ResultBody,
    ) -> Result<(), PairgothError> {
        let url = format!("{}/tour/{tid}/res/{round}", self.api);
        let answer = self.http.put(url).json(body).send().await?;
        let answer: SuccessAnswer = decode(answer).await?;
        if answer.success {
            Ok(())
        } else {
            Err(PairgothError::Refused(answer.error.unwrap_or_default()))
        }
    }

    async fn get<T: DeserializeOwned>(&self, path: &str) -> Result<T, PairgothError> {
        let answer = self.http.get(format!("{}/{path}", self.api)).send().await?;
        decode(answer).await
    }
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
