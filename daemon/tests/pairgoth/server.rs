//! A strict Pairgoth API server for tests, written to Pairgoth's `doc/reference.md`.
//!
//! It serves what the reference documents for tournaments, players,
//! pairings and results, and rejects what the reference does not allow:
//! a request without `Accept: application/json` (406), a missing or wrong
//! `Authorization` when one is configured (401), a `PUT .../res/#rn` whose
//! body is not exactly `{"id": #gid, "res": <code>}` with one of the seven
//! documented codes (400), a game id that is not in that round (400), an
//! unknown tournament (404), any other path (404) or method (405). Every
//! rejected request is recorded so a test can assert the client made none.
#![allow(dead_code, unreachable_pub)]

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

const CODES: [&str; 7] = ["b", "w", "=", "X", "?", "#", "0"];

/// One game as the server holds it.
#[derive(Clone, Debug)]
pub struct Game {
    pub id: u64,
    pub table: u32,
    pub white: u64,
    pub black: u64,
    pub handicap: u8,
    pub result: String,
}

#[derive(Default)]
struct Tour {
    info: Value,
    players: Vec<Value>,
    rounds: BTreeMap<u32, Vec<Game>>,
}

#[derive(Default)]
struct Inner {
    tours: BTreeMap<u64, Tour>,
    /// Every accepted `PUT .../res/#rn`: (tid, round, id, res).
    puts: Vec<(u64, u32, u64, String)>,
    /// Every rejected request: "METHOD path: why".
    rejected: Vec<String>,
    /// Answer the next N result PUTs with 503 (Pairgoth down).
    fail_puts: u32,
}

/// A handle on the running server.
#[derive(Clone)]
pub struct PairgothServer {
    inner: Arc<Mutex<Inner>>,
    pub addr: SocketAddr,
    auth: Option<String>,
    stop: CancellationToken,
}

impl PairgothServer {
    /// Serves on 127.0.0.1:0; `auth` is the exact `Authorization` value to require.
    pub async fn start(auth: Option<&str>) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        let server = Self {
            inner: Arc::default(),
            addr,
            auth: auth.map(str::to_owned),
            stop: CancellationToken::new(),
        };
        let app = Router::new()
            .route("/api/tour/{tid}", get(handle_tour))
            .route("/api/tour/{tid}/part", get(handle_players))
            .route("/api/tour/{tid}/pair/{rn}", get(handle_pairings))
            .route(
                "/api/tour/{tid}/res/{rn}",
                get(handle_results).put(handle_put_result),
            )
            .fallback(handle_unknown)
            .method_not_allowed_fallback(handle_wrong_method)
            .layer(middleware::from_fn_with_state(
                server.clone(),
                check_headers,
            ))
            .with_state(server.clone());
        let stop = server.stop.clone();
        tokio::spawn(async move {
            axum::serve(listener, app)
                .with_graceful_shutdown(stop.cancelled_owned())
                .await
                .ok();
        });
        server
    }

    /// The API root to give the client.
    pub fn api_url(&self) -> String {
        format!("http://{}/api", self.addr)
    }

    /// Adds tournament `tid` with `players` (id, last name, first name) and the given time system.
    pub fn add_tournament(&self, tid: u64, players: &[(u64, &str, &str)], komi: f64) {
        let info = json!({
            "id": tid, "type": "INDIVIDUAL", "name": "Test Open", "shortName": "test-open",
            "startDate": "2026-12-01", "endDate": "2026-12-01", "country": "fr", "location": "Lyon",
            "online": false, "rounds": 3, "gobanSize": 9, "rules": "CHINESE", "komi": komi,
            "timeSystem": {"type": "FISCHER", "mainTime": 600, "increment": 5, "maxTime": 0,
                           "byoyomi": 0, "periods": 0, "stones": 0},
            "pairing": {"type": "SWISS"}
        });
        let players = players
            .iter()
            .map(|(id, name, first)| {
                json!({
                    "id": id, "name": name, "firstname": first, "country": "FR", "club": "69Ly",
                    "rating": 1500, "rank": -5, "final": true, "mmsCorrection": 0, "skip": []
                })
            })
            .collect();
        self.lock().tours.insert(
            tid,
            Tour {
                info,
                players,
                rounds: BTreeMap::new(),
            },
        );
    }

    /// Sets round `rn`'s games (id, table, white, black, handicap), results unknown.
    pub fn set_round(&self, tid: u64, rn: u32, games: &[(u64, u32, u64, u64, u8)]) {
        let games = games
            .iter()
            .map(|&(id, table, white, black, handicap)| Game {
                id,
                table,
                white,
                black,
                handicap,
                result: "?".into(),
            })
            .collect();
        self.lock()
            .tours
            .get_mut(&tid)
            .expect("tournament")
            .rounds
            .insert(rn, games);
    }

    /// Every accepted result PUT, in order.
    pub fn puts(&self) -> Vec<(u64, u32, u64, String)> {
        self.lock().puts.clone()
    }

    /// Every rejected request.
    pub fn rejected(&self) -> Vec<String> {
        self.lock().rejected.clone()
    }

    /// The stored result of game `id` in round `rn`.
    pub fn result(&self, tid: u64, rn: u32, id: u64) -> Option<String> {
        let inner = self.lock();
        let games = inner.tours.get(&tid)?.rounds.get(&rn)?;
        games.iter().find(|g| g.id == id).map(|g| g.result.clone())
    }

    /// Answer the next `n` result PUTs with 503.
    pub fn fail_next_puts(&self, n: u32) {
        self.lock().fail_puts = n;
    }

    pub fn stop(&self) {
        self.stop.cancel();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn reject(&self, status: StatusCode, what: String) -> Response {
        self.lock().rejected.push(what.clone());
        (status, axum::Json(json!({"success": false, "error": what}))).into_response()
    }
}

async fn check_headers(State(s): State<PairgothServer>, request: Request, next: Next) -> Response {
    let what = format!("{} {}", request.method(), request.uri().path());
    let accept = request
        .headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let media = accept.split(';').next().unwrap_or("").trim();
    let charset_ok = accept
        .split(';')
        .skip(1)
        .all(|p| p.trim().eq_ignore_ascii_case("charset=utf-8"));
    if media != "application/json" || !charset_ok {
        return s.reject(
            StatusCode::NOT_ACCEPTABLE,
            format!("{what}: Accept {accept:?}"),
        );
    }
    if let Some(token) = &s.auth {
        let given = request
            .headers()
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok());
        if given != Some(token.as_str()) {
            return s.reject(StatusCode::UNAUTHORIZED, format!("{what}: Authorization"));
        }
    }
    next.run(request).await
}

fn ok_json(value: Value) -> Response {
    axum::Json(value).into_response()
}

async fn handle_tour(State(s): State<PairgothServer>, Path(tid): Path<u64>) -> Response {
    let info = s.lock().tours.get(&tid).map(|t| t.info.clone());
    info.map_or_else(
        || s.reject(StatusCode::NOT_FOUND, format!("GET tour {tid}: unknown")),
        ok_json,
    )
}

async fn handle_players(State(s): State<PairgothServer>, Path(tid): Path<u64>) -> Response {
    let players = s
        .lock()
        .tours
        .get(&tid)
        .map(|t| Value::Array(t.players.clone()));
    players.map_or_else(
        || s.reject(StatusCode::NOT_FOUND, format!("GET part {tid}: unknown")),
        ok_json,
    )
}

async fn handle_pairings(
    State(s): State<PairgothServer>,
    Path((tid, rn)): Path<(u64, u32)>,
) -> Response {
    let answer = {
        let inner = s.lock();
        inner.tours.get(&tid).map(|t| {
            let games = t.rounds.get(&rn).cloned().unwrap_or_default();
            let paired: Vec<u64> = games.iter().flat_map(|g| [g.white, g.black]).collect();
            let pairables: Vec<Value> = t
                .players
                .iter()
                .filter_map(|p| p["id"].as_u64())
                .filter(|id| !paired.contains(id))
                .map(Value::from)
                .collect();
            json!({
                "games": games.iter().map(|g| json!({"id": g.id, "t": g.table, "w": g.white, "b": g.black, "h": g.handicap})).collect::<Vec<_>>(),
                "pairables": pairables,
                "unpairables": [],
            })
        })
    };
    answer.map_or_else(
        || s.reject(StatusCode::NOT_FOUND, format!("GET pair {tid}: unknown")),
        ok_json,
    )
}

async fn handle_results(
    State(s): State<PairgothServer>,
    Path((tid, rn)): Path<(u64, u32)>,
) -> Response {
    let answer = s.lock().tours.get(&tid).map(|t| {
        let games = t.rounds.get(&rn).cloned().unwrap_or_default();
        Value::Array(
            games
                .iter()
                .map(|g| json!({"id": g.id, "res": g.result}))
                .collect(),
        )
    });
    answer.map_or_else(
        || s.reject(StatusCode::NOT_FOUND, format!("GET res {tid}: unknown")),
        ok_json,
    )
}

async fn handle_put_result(
    State(s): State<PairgothServer>,
    Path((tid, rn)): Path<(u64, u32)>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let what = format!("PUT tour/{tid}/res/{rn}");
    let json_body = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(';').next().unwrap_or("").trim() == "application/json");
    if !json_body {
        return s.reject(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!("{what}: not JSON"),
        );
    }
    let Some((id, res)) = parse_result_body(&body) else {
        let text = String::from_utf8_lossy(&body).into_owned();
        return s.reject(StatusCode::BAD_REQUEST, format!("{what}: body {text}"));
    };
    let mut inner = s.lock();
    if inner.fail_puts > 0 {
        inner.fail_puts -= 1;
        return (StatusCode::SERVICE_UNAVAILABLE, "down for the test").into_response();
    }
    let game = inner
        .tours
        .get_mut(&tid)
        .and_then(|t| t.rounds.get_mut(&rn))
        .and_then(|games| games.iter_mut().find(|g| g.id == id));
    let Some(game) = game else {
        drop(inner);
        return s.reject(StatusCode::BAD_REQUEST, format!("{what}: no game {id}"));
    };
    game.result = res.clone();
    inner.puts.push((tid, rn, id, res));
    ok_json(json!({"success": true}))
}

/// Exactly `{"id": <integer>, "res": <one of the seven codes>}`.
fn parse_result_body(body: &[u8]) -> Option<(u64, String)> {
    let Value::Object(map) = serde_json::from_slice::<Value>(body).ok()? else {
        return None;
    };
    if map.len() != 2 {
        return None;
    }
    let id = map.get("id")?.as_u64()?;
    let res = map.get("res")?.as_str()?;
    CODES.contains(&res).then(|| (id, res.to_owned()))
}

async fn handle_unknown(State(s): State<PairgothServer>, request: Request) -> Response {
    s.reject(
        StatusCode::NOT_FOUND,
        format!(
            "{} {}: no such path",
            request.method(),
            request.uri().path()
        ),
    )
}

async fn handle_wrong_method(State(s): State<PairgothServer>, request: Request) -> Response {
    s.reject(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("{} {}: method", request.method(), request.uri().path()),
    )
}
