//! HTTP tests over real sockets: `serve` on 127.0.0.1:0, reqwest, and test doubles of the runtime at the hub seam.

mod arbiter;
mod boards;
mod delay;
mod docs;
mod games;
mod pages;
mod problems;
mod sse;

use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use futures::{Stream, StreamExt};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::{ArbiterTokens, HttpSettings, serve};
use goban_referee::{
    BoardState, Link, MoveName, MoveRecord, Phase, Referee, RefereeConfig, SgfHeader,
};
use goban_rules::{BoardSize, Color, GameSetup};

use crate::message::{BoardView, Payload, Published, Topic};
use crate::publish::delay::Feed;
use crate::publish::hub::{ArbiterRequest, Archive, BoardControl, Hub, RequestError};

pub(super) const BOARD: &str = "table-1";
pub(super) const TOKEN: &str = "alpha-7f3c";
pub(super) const TOKEN_2: &str = "beta-91d0";

/// A board state shaped like api.md's example: `move_number` moves, one open alert.
pub(super) fn build_board_state(seq: u64, move_number: u32) -> BoardState {
    let config = RefereeConfig {
        board: BOARD.to_owned(),
        ..RefereeConfig::default()
    };
    let mut state = Referee::new(config).unwrap().state();
    state.seq = seq;
    state.game = Some("2026-11-30-table-1-1".into());
    state.move_number = move_number;
    state.phase = Phase::Playing;
    state.device.board = Link::Connected;
    state.device.clock = Link::Connected;
    state.moves = (1..=move_number)
        .map(|number| MoveRecord {
            number,
            color: if number % 2 == 1 {
                Color::Black
            } else {
                Color::White
            },
            point: MoveName::new(&format!("D{}", 1 + number % 19)).expect("a move name"),
            at: goban_referee::Timestamp(0),
            time_left_ms: None,
            periods_left: None,
            order_known: true,
        })
        .collect();
    state.infractions = vec![
        serde_json::from_value(
            json!({"id": "inf-1", "kind": "missed_capture", "article": "CN2002 18.2",
            "player": "white", "move_number": 1, "points": ["D4"], "status": "open", "at": "",
            "sanction": "", "sanction_applied": false, "evidence": [], "note": ""}),
        )
        .unwrap(),
    ];
    state
}

/// The full state JSON of [`build_board_state`].
pub(super) fn build_state(seq: u64, move_number: u32) -> Value {
    serde_json::to_value(build_board_state(seq, move_number)).unwrap()
}

/// A board view as the runtime publishes it.
pub(super) fn build_view(state: Value) -> Arc<BoardView> {
    let state: BoardState = serde_json::from_value(state).expect("a board state");
    let setup = GameSetup::new(BoardSize::NINETEEN, state.ruleset);
    let header = state
        .game
        .as_ref()
        .map(|_| Arc::new(SgfHeader::of_setup(setup).expect("a 19x19 setup")));
    BoardView::build(state, header)
}

pub(super) fn build_settings() -> HttpSettings {
    HttpSettings {
        arbiter_tokens: ArbiterTokens::new(vec![TOKEN.to_owned(), TOKEN_2.to_owned()]).unwrap(),
        ..HttpSettings::default()
    }
}

/// The journal double: everything published, finished games, and a switch to make reads fail.
#[derive(Default)]
pub(super) struct FakeArchive {
    pub(super) log: Mutex<Vec<Published>>,
    pub(super) games: Mutex<Vec<(Value, String)>>,
    pub(super) broken: Mutex<bool>,
}

impl FakeArchive {
    fn check(&self) -> Result<(), RequestError> {
        if *self.broken.lock().unwrap() {
            Err(RequestError::Unavailable("journal".into()))
        } else {
            Ok(())
        }
    }
}

impl Archive for FakeArchive {
    fn events_since(
        &self,
        board: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Published>, RequestError> {
        self.check()?;
        let log = self.log.lock().unwrap();
        Ok(log
            .iter()
            .filter(|m| &*m.board == board && m.seq > after)
            .take(limit)
            .cloned()
            .collect())
    }

    fn games(&self) -> Result<Vec<Value>, RequestError> {
        self.check()?;
        Ok(self
            .games
            .lock()
            .unwrap()
            .iter()
            .rev()
            .map(|(state, _)| json!({"game": state["game"], "result": state["result"]}))
            .collect())
    }

    fn game(&self, id: &str) -> Result<Option<Value>, RequestError> {
        self.check()?;
        Ok(self
            .games
            .lock()
            .unwrap()
            .iter()
            .find(|(s, _)| s["game"] == id)
            .map(|(s, _)| s.clone()))
    }

    fn game_sgf(&self, id: &str) -> Result<Option<String>, RequestError> {
        self.check()?;
        Ok(self
            .games
            .lock()
            .unwrap()
            .iter()
            .find(|(s, _)| s["game"] == id)
            .map(|(_, sgf)| sgf.clone()))
    }
}

/// The runtime double: records requests, refuses on demand, else answers a state with the seq bumped.
#[derive(Default)]
pub(super) struct FakeControl {
    pub(super) requests: Mutex<Vec<(ArbiterRequest, String)>>,
    pub(super) refuse: Mutex<Option<String>>,
}

impl BoardControl for FakeControl {
    fn request(
        &self,
        request: ArbiterRequest,
    ) -> futures::future::BoxFuture<'static, Result<Arc<BoardView>, RequestError>> {
        let refused = self.refuse.lock().unwrap().clone();
        if refused.is_none() {
            let who = request.by.clone();
            self.requests.lock().unwrap().push((request, who));
        }
        Box::pin(async move {
            match refused {
                Some(why) => Err(RequestError::Rejected(why)),
                None => Ok(build_view(build_state(1000, 0))),
            }
        })
    }
}

/// A running server with its doubles.
pub(super) struct Harness {
    pub(super) base: String,
    pub(super) hub: Hub,
    pub(super) archive: Arc<FakeArchive>,
    pub(super) control: Arc<FakeControl>,
    pub(super) client: reqwest::Client,
    pub(super) shutdown: CancellationToken,
    pub(super) server: tokio::task::JoinHandle<std::io::Result<()>>,
    seq: Mutex<u64>,
}

impl Harness {
    pub(super) async fn start(settings: HttpSettings) -> Self {
        let archive = Arc::new(FakeArchive::default());
        let hub = Hub::new(64, archive.clone());
        let control = Arc::new(FakeControl::default());
        hub.register(BOARD, build_view(build_state(1, 0)), control.clone(), 1);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let shutdown = CancellationToken::new();
        let public = Feed::public(hub.clone(), settings.broadcast_delay, &shutdown);
        let server = tokio::spawn(serve(listener, settings, public, shutdown.clone()));
        let client = reqwest::Client::builder().no_proxy().build().unwrap();
        let harness = Self {
            base,
            hub,
            archive,
            control,
            client,
            shutdown,
            server,
            seq: Mutex::new(1),
        };
        // The router (and the delayed view's subscription) exists once the server answers.
        assert_eq!(harness.get("/health").await.status().as_u16(), 200);
        harness
    }

    pub(super) fn url(&self, path: &str) -> String {
        format!("{}/api/v1{path}", self.base)
    }

    /// Journals then publishes one message of BOARD, as the runtime does; returns its seq.
    pub(super) fn publish(&self, topic: Topic, mut payload: Value) -> u64 {
        let seq = {
            let mut seq = self.seq.lock().unwrap();
            *seq += 1;
            *seq
        };
        payload["seq"] = json!(seq);
        payload["v"] = json!(1);
        let (payload, view) = if topic == Topic::State {
            let view = build_view(payload);
            (view.live.clone(), Some(view))
        } else {
            (Payload::json(&payload).unwrap(), None)
        };
        let message = Published {
            board: BOARD.into(),
            seq,
            topic,
            at_ms: 0,
            payload,
            view,
        };
        self.archive.log.lock().unwrap().push(message.clone());
        self.hub.publish(message);
        seq
    }

    /// Publishes a move and the state after it.
    pub(super) fn play(&self, move_number: u32) -> u64 {
        self.publish(
            Topic::Moves,
            json!({"number": move_number, "color": "black", "point": "D4"}),
        );
        self.publish(Topic::State, build_state(0, move_number))
    }

    pub(super) async fn get(&self, path: &str) -> reqwest::Response {
        self.client.get(self.url(path)).send().await.unwrap()
    }

    pub(super) async fn get_as_arbiter(&self, path: &str) -> reqwest::Response {
        self.client
            .get(self.url(path))
            .bearer_auth(TOKEN)
            .send()
            .await
            .unwrap()
    }

    pub(super) async fn post(
        &self,
        path: &str,
        token: Option<&str>,
        body: &str,
    ) -> reqwest::Response {
        let mut request = self
            .client
            .post(self.url(path))
            .header("content-type", "application/json")
            .body(body.to_owned());
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        request.send().await.unwrap()
    }

    pub(super) async fn stop(self) {
        self.shutdown.cancel();
        let finished = tokio::time::timeout(Duration::from_secs(10), self.server).await;
        assert!(finished.is_ok(), "server did not stop after shutdown");
    }
}

/// Status and JSON body; asserts the body is JSON.
pub(super) async fn json_of(response: reqwest::Response) -> (u16, Value) {
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    let value =
        serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON ({status}): {text}"));
    (status, value)
}

/// One parsed SSE event.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct SseEvent {
    pub(super) id: Option<String>,
    pub(super) event: Option<String>,
    pub(super) data: String,
}

impl SseEvent {
    pub(super) fn seq(&self) -> u64 {
        self.id
            .as_deref()
            .and_then(|id| id.parse().ok())
            .unwrap_or(0)
    }
}

/// Reads `text/event-stream` frames from a reqwest response.
pub(super) struct SseReader {
    stream: Pin<Box<dyn Stream<Item = reqwest::Result<Bytes>> + Send>>,
    buffer: String,
}

impl SseReader {
    pub(super) fn new(response: reqwest::Response) -> Self {
        assert_eq!(response.status().as_u16(), 200);
        let content_type = response.headers()["content-type"]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(
            content_type.starts_with("text/event-stream"),
            "{content_type}"
        );
        Self {
            stream: Box::pin(response.bytes_stream()),
            buffer: String::new(),
        }
    }

    /// The next event (comments skipped), or None when the stream ends; fails after 10 s of silence.
    pub(super) async fn next(&mut self) -> Option<SseEvent> {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let frame: String = self.buffer.drain(..end + 2).collect();
                if let Some(event) = parse_frame(&frame) {
                    return Some(event);
                }
                continue;
            }
            let chunk = tokio::time::timeout(Duration::from_secs(10), self.stream.next())
                .await
                .expect("SSE stalled");
            match chunk {
                Some(Ok(bytes)) => self.buffer.push_str(std::str::from_utf8(&bytes).unwrap()),
                _ => return None,
            }
        }
    }
}

fn parse_frame(frame: &str) -> Option<SseEvent> {
    let mut event = SseEvent {
        id: None,
        event: None,
        data: String::new(),
    };
    let mut any = false;
    for line in frame
        .lines()
        .filter(|l| !l.starts_with(':') && !l.is_empty())
    {
        let (field, value) = line
            .split_once(':')
            .map_or((line, ""), |(f, v)| (f, v.strip_prefix(' ').unwrap_or(v)));
        any = true;
        match field {
            "id" => event.id = Some(value.to_owned()),
            "event" => event.event = Some(value.to_owned()),
            "data" => event.data.push_str(value),
            _ => {}
        }
    }
    any.then_some(event)
}
