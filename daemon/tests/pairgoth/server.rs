//! A Pairgoth API server for tests that answers as Pairgoth's code does, each behaviour citing its source.
//!
//! Paths are of Pairgoth's `api-webapp/src/main/kotlin/org/jeudego/pairgoth/`
//! (and `pairgoth-common/...` for the crypto). What it does:
//! - `server/ApiServlet.kt` `doRequest`/`checkAuthorization`: with `auth`
//!   other than `none`, every request but `/api/tour/token` needs the bearer
//!   of a known access key, else `sendError(401)` (not JSON).
//! - `ApiServlet.validateAccept`: no `Accept` → 400 "Missing 'Accept'
//!   header"; not JSON → 400 "Invalid 'Accept' header".
//! - `ApiServlet.validateContentType`: a body request without
//!   `Content-Type` → 400 "no content type header"; not JSON → 400 "JSON
//!   content expected"; unparsable JSON → 400.
//! - `ApiServlet.doProtectedRequest`: `/api/<entity>/<selector>/<sub>/<subselector>`;
//!   `tour` + `token` → `TokenHandler`; sub-entities `part`, `pair`, `res`;
//!   other → 400 "unknown sub-entity"; errors answer `{"success": false,
//!   "error": reason}` with the status (`ApiServlet.error`).
//! - `api/ApiHandler.kt`: a method a handler lacks → 400 (`notImplemented`).
//! - `api/PairgothApiHandler.kt` `getTournament`: 400 "invalid tournament id"
//!   / "unknown tournament id"; `api/TournamentHandler.kt` 400 "no tournament with id #N".
//! - `api/ResultsHandler.kt`: `GET` the round's games (`Game.toJson`,
//!   `model/Game.kt`: id, t, w, b, h, r); `PUT` reads `payload.getInt("id")`
//!   (400 "invalid game id") and `payload.getChar("result")` (400 "missing
//!   result"); an unknown symbol throws `Error` in `Game.Result.fromSymbol`,
//!   which no handler catches: 500.
//! - `api/TokenHandler.kt`: the challenge (401 + `WWW-Authenticate`), the
//!   signed answer (SHA-256 of `session:challenge:email`) and the access key;
//!   a bearer whose AES padding is wrong throws in `webDecrypt`: 500.
//!
//! Every refused request is recorded so a test can assert the client made none it should not.
#![allow(dead_code, unreachable_pub)]

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use aws_lc_rs::cipher::{AES_128, PaddedBlockDecryptingKey, UnboundCipherKey};
use aws_lc_rs::digest::{SHA256, digest};
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

/// One game as the server holds it (`model/Game.kt`).
#[derive(Clone, Debug)]
pub struct Game {
    pub id: u64,
    pub table: u32,
    pub white: u64,
    pub black: u64,
    pub handicap: u8,
    pub result: char,
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
    /// Every accepted `PUT .../res/#rn`: (tid, round, id, result symbol).
    puts: Vec<(u64, u32, u64, String)>,
    /// Every refused request: "METHOD path: status why".
    rejected: Vec<String>,
    /// Answer the next N result PUTs with 503 (Pairgoth down behind a proxy).
    fail_puts: u32,
    /// `TokenHandler.challenges`: session → challenge.
    challenges: BTreeMap<String, String>,
    /// `TokenHandler.accesses`: access key → (session, email).
    accesses: BTreeMap<String, (String, String)>,
    /// Tokens handed out.
    tokens: u32,
}

/// A handle on the running server.
#[derive(Clone)]
pub struct PairgothServer {
    inner: Arc<Mutex<Inner>>,
    pub addr: SocketAddr,
    /// Pairgoth's `auth.shared_secret` when its `auth` is not `none`.
    secret: Option<String>,
    stop: CancellationToken,
}

impl PairgothServer {
    /// Serves on 127.0.0.1:0; `secret` set is Pairgoth with authentication and that shared secret.
    pub async fn start(secret: Option<&str>) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        let server = Self {
            inner: Arc::default(),
            addr,
            secret: secret.map(str::to_owned),
            stop: CancellationToken::new(),
        };
        let app = Router::new()
            .fallback(handle_request)
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

    /// The API root to give the client (Pairgoth's `api.external.url`).
    pub fn api_url(&self) -> String {
        format!("http://{}/api", self.addr)
    }

    /// Adds tournament `tid` with `players` (id, last name, first name), Fischer 10 min + 5 s.
    pub fn add_tournament(&self, tid: u64, players: &[(u64, &str, &str)], komi: f64) {
        // `Tournament.toJson` (model/Tournament.kt) with `TimeSystem.toJson` (model/TimeSystem.kt).
        let info = json!({
            "id": tid, "type": "INDIVIDUAL", "name": "Test Open", "shortName": "test-open",
            "startDate": "2026-12-01", "endDate": "2026-12-01", "director": "", "country": "fr",
            "location": "Lyon", "online": false, "komi": komi, "rules": "CHINESE", "gobanSize": 19,
            "timeSystem": {"type": "FISCHER", "mainTime": 600, "increment": 5},
            "rounds": 3, "pairing": {"type": "SWISS"}, "stats": [], "teamSize": 1, "frozen": false
        });
        // `Player.toJson` (model/Pairable.kt).
        let players = players
            .iter()
            .map(|(id, name, first)| {
                json!({"id": id, "name": name, "firstname": first, "rating": 1500, "rank": -5,
                       "country": "FR", "club": "69Ly", "final": true})
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
                result: '?',
            })
            .collect();
        let mut inner = self.lock();
        let tour = inner.tours.get_mut(&tid).expect("tournament");
        tour.rounds.insert(rn, games);
    }

    /// Every accepted result PUT, in order.
    pub fn puts(&self) -> Vec<(u64, u32, u64, String)> {
        self.lock().puts.clone()
    }

    /// Every refused request.
    pub fn rejected(&self) -> Vec<String> {
        self.lock().rejected.clone()
    }

    /// The stored result symbol of game `id` in round `rn`.
    pub fn result(&self, tid: u64, rn: u32, id: u64) -> Option<String> {
        let inner = self.lock();
        let games = inner.tours.get(&tid)?.rounds.get(&rn)?;
        games
            .iter()
            .find(|g| g.id == id)
            .map(|g| g.result.to_string())
    }

    /// Answer the next `n` result PUTs with 503.
    pub fn fail_next_puts(&self, n: u32) {
        self.lock().fail_puts = n;
    }

    /// Forgets every access key, as a restarted Pairgoth does (its caches live in memory).
    pub fn forget_tokens(&self) {
        self.lock().accesses.clear();
    }

    /// How many access keys `POST tour/token` handed out.
    pub fn tokens_given(&self) -> u32 {
        self.lock().tokens
    }

    pub fn stop(&self) {
        self.stop.cancel();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `ApiServlet.error`: `{"success": false, "error": reason}` with the status.
    fn refuse(&self, what: &str, status: StatusCode, reason: &str) -> Response {
        self.lock()
            .rejected
            .push(format!("{what}: {} {reason}", status.as_u16()));
        let body = json!({"success": false, "error": reason});
        (status, axum::Json(body)).into_response()
    }

    /// `Cryptograph.webDecrypt`: base64 (either alphabet, padding optional), AES-128/ECB/PKCS5.
    fn web_decrypt(&self, secret: &str, text: &str) -> Option<String> {
        let engine = base64::engine::GeneralPurpose::new(
            &base64::alphabet::URL_SAFE,
            base64::engine::GeneralPurposeConfig::new()
                .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent),
        );
        let mut bytes = engine
            .decode(text.replace('+', "-").replace('/', "_"))
            .ok()?;
        let key = UnboundCipherKey::new(&AES_128, &secret.as_bytes()[..16]).ok()?;
        let cipher = PaddedBlockDecryptingKey::ecb_pkcs7(key).ok()?;
        let clear = cipher
            .decrypt(&mut bytes, aws_lc_rs::cipher::DecryptionContext::None)
            .ok()?;
        String::from_utf8(clear.to_vec()).ok()
    }

    /// `TokenHandler.parseAuthorizationHeader`: `Some(Err)` when decryption throws (a 500).
    fn bearer_parts(&self, headers: &HeaderMap) -> Option<Result<(String, String), ()>> {
        let secret = self.secret.as_deref()?;
        let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
        let bearer = value.strip_prefix("Bearer ")?;
        let Some(clear) = self.web_decrypt(secret, bearer) else {
            return Some(Err(()));
        };
        let parts: Vec<&str> = clear.split(':').collect();
        (parts.len() == 2).then(|| Ok((parts[0].to_owned(), parts[1].to_owned())))
    }

    /// `TokenHandler.getLoggedUser`: the access key is known and tied to this session.
    fn logged(&self, headers: &HeaderMap) -> bool {
        match self.bearer_parts(headers) {
            Some(Ok((session, key))) => self
                .lock()
                .accesses
                .get(&key)
                .is_some_and(|(s, _)| *s == session),
            _ => false,
        }
    }
}

fn ok_json(value: Value) -> Response {
    axum::Json(value).into_response()
}

/// `ApiServlet.doRequest` → `checkAuthorization` → `doProtectedRequest`.
async fn handle_request(State(s): State<PairgothServer>, request: Request) -> Response {
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let headers = request.headers().clone();
    let body = axum::body::to_bytes(request.into_body(), 1 << 20)
        .await
        .unwrap_or_default();
    let what = format!("{method} {path}");
    let open = s.secret.is_none() || path == "/api/tour/token";
    if !open && !s.logged(&headers) {
        // `response.sendError(SC_UNAUTHORIZED)`: the container's error page, not JSON.
        s.lock().rejected.push(format!("{what}: 401 unauthorized"));
        return (StatusCode::UNAUTHORIZED, "<html>401 Unauthorized</html>").into_response();
    }
    if let Err(reason) = validate_accept(&headers) {
        return s.refuse(&what, StatusCode::BAD_REQUEST, reason);
    }
    let payload = match validate_content_type(&method, &headers, &body) {
        Ok(payload) => payload,
        Err(reason) => return s.refuse(&what, StatusCode::BAD_REQUEST, reason),
    };
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    if !(2..=5).contains(&parts.len()) || parts[0] != "api" || parts[1] != "tour" {
        return s.refuse(&what, StatusCode::BAD_REQUEST, "bad request");
    }
    if parts.get(2) == Some(&"token") {
        return handle_token(&s, &what, &method, &headers, payload.as_ref());
    }
    let Some(tid) = parts.get(2).and_then(|t| t.parse::<u64>().ok()) else {
        return s.refuse(&what, StatusCode::BAD_REQUEST, "invalid tournament id");
    };
    let round = parts.get(4).and_then(|r| r.parse::<u32>().ok());
    match (parts.get(3).copied(), method) {
        (None, Method::GET) => handle_tour(&s, &what, tid),
        (Some("part"), Method::GET) => handle_players(&s, &what, tid),
        (Some("pair"), Method::GET) => handle_pairings(&s, &what, tid, round),
        (Some("res"), Method::GET) => handle_results(&s, &what, tid, round),
        (Some("res"), Method::PUT) => handle_put_result(&s, &what, tid, round, payload.as_ref()),
        (None | Some("part" | "pair" | "res"), _) => {
            s.refuse(&what, StatusCode::BAD_REQUEST, "unknown API error")
        }
        (Some(other), _) => s.refuse(
            &what,
            StatusCode::BAD_REQUEST,
            &format!("unknown sub-entity: {other}"),
        ),
    }
}

/// `ApiServlet.isJson`.
fn is_json(mime: &str) -> bool {
    mime == "text/json"
        || mime == "application/json"
        || mime.ends_with("+json")
        || mime == "application/pairgoth"
}

/// `ApiServlet.validateAccept` (the XML and standings exports aside).
fn validate_accept(headers: &HeaderMap) -> Result<(), &'static str> {
    let accept = headers
        .get(header::ACCEPT)
        .ok_or("Missing 'Accept' header")?
        .to_str()
        .unwrap_or("");
    if is_json(accept) {
        Ok(())
    } else {
        Err("Invalid 'Accept' header")
    }
}

/// `ApiServlet.validateContentType`: the JSON payload of a request with a body.
fn validate_content_type(
    method: &Method,
    headers: &HeaderMap,
    body: &Bytes,
) -> Result<Option<Value>, &'static str> {
    let Some(content_type) = headers.get(header::CONTENT_TYPE) else {
        return if method == Method::GET {
            Ok(None)
        } else {
            Err("no content type header")
        };
    };
    let mime = content_type
        .to_str()
        .unwrap_or("")
        .split(';')
        .next()
        .unwrap_or("")
        .trim();
    if !is_json(mime) {
        return Err("JSON content expected");
    }
    if body.is_empty() {
        return Ok(None);
    }
    serde_json::from_slice(body)
        .map(Some)
        .map_err(|_| "could not parse JSON")
}

/// `TokenHandler.get` / `post` / `failed`.
fn handle_token(
    s: &PairgothServer,
    what: &str,
    method: &Method,
    headers: &HeaderMap,
    payload: Option<&Value>,
) -> Response {
    match *method {
        Method::GET if s.logged(headers) => ok_json(json!({"success": true})),
        Method::GET => challenge(s, what, headers),
        Method::POST => answer_challenge(s, what, headers, payload),
        _ => s.refuse(what, StatusCode::BAD_REQUEST, "unknown API error"),
    }
}

/// `TokenHandler.failed`: a new challenge for the bearer's session, else 400.
fn challenge(s: &PairgothServer, what: &str, headers: &HeaderMap) -> Response {
    match s.bearer_parts(headers) {
        Some(Ok((session, _))) if !session.is_empty() => {
            let challenge: String = format!("{:032x}", rand_u128(&session));
            s.lock().challenges.insert(session, challenge.clone());
            let body = json!({"status": "failed", "message": "unauthorized"});
            let mut answer = (StatusCode::UNAUTHORIZED, axum::Json(body)).into_response();
            answer
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, challenge.parse().expect("header"));
            answer
        }
        // `webDecrypt` threw (a wrong shared secret): uncaught, the container answers 500.
        Some(Err(())) => {
            s.lock().rejected.push(format!("{what}: 500 decryption"));
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
        _ => {
            s.lock().rejected.push(format!("{what}: 400 no bearer"));
            StatusCode::BAD_REQUEST.into_response()
        }
    }
}

/// A challenge differing per session and per call (Pairgoth draws `Randomizer.randomString(32)`).
fn rand_u128(session: &str) -> u128 {
    let mut bytes = [0u8; 16];
    aws_lc_rs::rand::fill(&mut bytes).expect("random");
    u128::from_le_bytes(bytes) ^ session.len() as u128
}

/// `TokenHandler.post`: the challenge is used once; a right signature gets an access key.
fn answer_challenge(
    s: &PairgothServer,
    what: &str,
    headers: &HeaderMap,
    payload: Option<&Value>,
) -> Response {
    let field = |k: &str| payload.and_then(|p| p[k].as_str()).unwrap_or("").to_owned();
    let (session, email, signature) = (field("session"), field("email"), field("signature"));
    let challenge = s.lock().challenges.remove(&session);
    if let Some(challenge) = challenge {
        let hash = digest(&SHA256, format!("{session}:{challenge}:{email}").as_bytes());
        let expected: String = hash.as_ref().iter().map(|b| format!("{b:02x}")).collect();
        if signature == expected {
            let mut inner = s.lock();
            inner.tokens += 1;
            let key = format!("key{}{}", inner.tokens, &expected[..16]);
            inner.accesses.insert(key.clone(), (session, email));
            return ok_json(json!({"token": key}));
        }
    }
    challenge_failed(s, what, headers)
}

/// `TokenHandler.failed` after a refused answer.
fn challenge_failed(s: &PairgothServer, what: &str, headers: &HeaderMap) -> Response {
    s.lock()
        .rejected
        .push(format!("{what}: challenge answer refused"));
    challenge(s, what, headers)
}

/// `TournamentHandler.get` (JSON `Accept`).
fn handle_tour(s: &PairgothServer, what: &str, tid: u64) -> Response {
    let info = s.lock().tours.get(&tid).map(|t| t.info.clone());
    info.map_or_else(
        || {
            s.refuse(
                what,
                StatusCode::BAD_REQUEST,
                &format!("no tournament with id #{tid}"),
            )
        },
        ok_json,
    )
}

/// `PlayerHandler.get`.
fn handle_players(s: &PairgothServer, what: &str, tid: u64) -> Response {
    let players = s
        .lock()
        .tours
        .get(&tid)
        .map(|t| Value::Array(t.players.clone()));
    players.map_or_else(
        || s.refuse(what, StatusCode::BAD_REQUEST, "unknown tournament id"),
        ok_json,
    )
}

/// `Game.toJson` (model/Game.kt).
fn game_json(g: &Game) -> Value {
    json!({"id": g.id, "t": g.table, "w": g.white, "b": g.black, "h": g.handicap, "r": g.result.to_string()})
}

/// `PairingHandler.get`: games sorted by table (0 last), pairables, unpairables.
fn handle_pairings(s: &PairgothServer, what: &str, tid: u64, round: Option<u32>) -> Response {
    let Some(round) = round else {
        return s.refuse(what, StatusCode::BAD_REQUEST, "invalid round number");
    };
    let answer = {
        let inner = s.lock();
        inner.tours.get(&tid).map(|t| {
            let mut games = t.rounds.get(&round).cloned().unwrap_or_default();
            games.sort_by_key(|g| if g.table == 0 { u32::MAX } else { g.table });
            let paired: Vec<u64> = games.iter().flat_map(|g| [g.white, g.black]).collect();
            let pairables: Vec<Value> = t
                .players
                .iter()
                .filter_map(|p| p["id"].as_u64())
                .filter(|id| !paired.contains(id))
                .map(Value::from)
                .collect();
            json!({"games": games.iter().map(game_json).collect::<Vec<_>>(),
                   "pairables": pairables, "unpairables": []})
        })
    };
    answer.map_or_else(
        || s.refuse(what, StatusCode::BAD_REQUEST, "unknown tournament id"),
        ok_json,
    )
}

/// `ResultsHandler.get`: the round's games.
fn handle_results(s: &PairgothServer, what: &str, tid: u64, round: Option<u32>) -> Response {
    let Some(round) = round else {
        return s.refuse(what, StatusCode::BAD_REQUEST, "invalid round number");
    };
    let answer = s.lock().tours.get(&tid).map(|t| {
        let games = t.rounds.get(&round).cloned().unwrap_or_default();
        Value::Array(games.iter().map(game_json).collect())
    });
    answer.map_or_else(
        || s.refuse(what, StatusCode::BAD_REQUEST, "unknown tournament id"),
        ok_json,
    )
}

/// `ResultsHandler.put`.
fn handle_put_result(
    s: &PairgothServer,
    what: &str,
    tid: u64,
    round: Option<u32>,
    payload: Option<&Value>,
) -> Response {
    let Some(round) = round else {
        return s.refuse(what, StatusCode::BAD_REQUEST, "invalid round number");
    };
    let Some(payload) = payload else {
        return s.refuse(what, StatusCode::BAD_REQUEST, "no payload");
    };
    if !payload.is_object() {
        return s.refuse(what, StatusCode::BAD_REQUEST, "expecting a json object");
    }
    let mut inner = s.lock();
    if inner.fail_puts > 0 {
        inner.fail_puts -= 1;
        return (StatusCode::SERVICE_UNAVAILABLE, "down for the test").into_response();
    }
    if !inner.tours.contains_key(&tid) {
        drop(inner);
        return s.refuse(what, StatusCode::BAD_REQUEST, "unknown tournament id");
    }
    let id = payload["id"].as_u64();
    let games = inner
        .tours
        .get_mut(&tid)
        .and_then(|t| t.rounds.get_mut(&round));
    let Some(game) = games.and_then(|g| g.iter_mut().find(|g| Some(g.id) == id)) else {
        drop(inner);
        return s.refuse(what, StatusCode::BAD_REQUEST, "invalid game id");
    };
    // `payload.getChar("result")`: the first character of the string.
    let Some(symbol) = payload["result"].as_str().and_then(|r| r.chars().next()) else {
        drop(inner);
        return s.refuse(what, StatusCode::BAD_REQUEST, "missing result");
    };
    if !"?bw=X#0".contains(symbol) {
        // `Game.Result.fromSymbol` throws `Error`: nothing catches it, the container answers 500.
        drop(inner);
        s.lock()
            .rejected
            .push(format!("{what}: 500 unknown result symbol: {symbol}"));
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    }
    game.result = symbol;
    let id = game.id;
    inner.puts.push((tid, round, id, symbol.to_string()));
    ok_json(json!({"success": true}))
}
