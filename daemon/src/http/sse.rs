//! GET /boards/{board}/events: Server-Sent Events with `Last-Event-ID` resume from the journal, then live.
//!
//! The stream subscribes to its feed before it reads anything else, so every
//! message is either in the journal read or on the bus; duplicates at the seam
//! are dropped by `seq`, which only grows per board. A client that falls behind
//! the bus re-reads the journal from its last `seq` instead of losing events.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use tokio::sync::broadcast::{self, error::RecvError};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tokio_util::sync::CancellationToken;

use super::App;
use super::auth::Viewer;
use super::error::ApiError;
use crate::message::{Published, Topic};
use crate::publish::delay::Feed;
use crate::publish::hub::Archive;

/// Journal page size while catching up: each client holds one page at a time, so this
/// bounds its memory (2,000 clients resuming from 0 with pages of 500 took 1 GB, issue 43).
const PAGE: usize = 64;
/// Events buffered between the pump task and the HTTP connection, per client. A client
/// that reads slower than its board publishes falls behind the bus and is caught up from
/// the journal (the hall stream skips instead): a deeper queue only costs memory.
const CHANNEL: usize = 16;
/// Journal reads of catching-up streams running at once, daemon-wide.
const CATCH_UP_READS: usize = 4;

fn catch_up_turns() -> &'static tokio::sync::Semaphore {
    static TURNS: std::sync::OnceLock<tokio::sync::Semaphore> = std::sync::OnceLock::new();
    TURNS.get_or_init(|| tokio::sync::Semaphore::new(CATCH_UP_READS))
}

/// Comment lines that keep proxies and browsers from closing an idle stream.
pub(crate) const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// Query alternative to the `Last-Event-ID` header, for clients that cannot set headers on first connect.
///
/// Other query parameters are ignored: polyfills add cache busters such as `?_=1700000000`.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub(crate) struct EventsQuery {
    /// Resume after this `seq` (the header wins when both are given).
    last_event_id: Option<String>,
}

/// The SSE event name of a topic (api.md "MQTT" topic names).
pub(crate) fn event_name(topic: Topic) -> &'static str {
    topic.name()
}

fn resume_point(headers: &HeaderMap, query: &EventsQuery) -> Result<Option<u64>, ApiError> {
    let header = headers
        .get("last-event-id")
        .map(HeaderValue::to_str)
        .transpose();
    let header =
        header.map_err(|_| ApiError::BadRequest("Last-Event-ID is not text".to_owned()))?;
    let Some(text) = header
        .or(query.last_event_id.as_deref())
        .map(str::trim)
        .filter(|t| !t.is_empty())
    else {
        return Ok(None);
    };
    text.parse()
        .map(Some)
        .map_err(|_| ApiError::BadRequest(format!("Last-Event-ID {text:?} is not a seq number")))
}

/// GET /boards/{board}/events.
#[utoipa::path(
    get,
    path = "/api/v1/boards/{board}/events",
    tag = "boards",
    params(
        ("board" = String, Path, description = "Board id"),
        ("Last-Event-ID" = Option<String>, Header, description = "Resume after this seq"),
        EventsQuery,
    ),
    responses(
        (status = 200, description = "text/event-stream: `id:` seq, `event:` state|moves|infractions|clock|device|audit|analysis (no `id:` on analysis), `data:` JSON payload", content_type = "text/event-stream", body = String),
        (status = 400, description = "Bad Last-Event-ID", body = super::schema::ErrorBody),
        (status = 404, description = "Unknown board", body = super::schema::ErrorBody),
        (status = 503, description = "The board is still being recovered from the journal after a restart (`recovering`, see `/health`)", body = super::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_events(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    Path(board): Path<String>,
    Query(query): Query<EventsQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let Some(board) = app.hub.boards().into_iter().find(|b| **b == *board) else {
        return Err(app.missing(&board));
    };
    let after = resume_point(&headers, &query)?;
    let feed = app.feed(&viewer);
    // Subscribe before reading the journal or the state: see the module docs. Only this
    // board's messages: the stream does not wake for the rest of the hall.
    let receiver = feed.subscribe_board(&board);
    let (sender, events) = mpsc::channel(CHANNEL);
    let pump = Pump {
        board,
        feed,
        archive: app.hub.archive().clone(),
        sender,
        last: 0,
    };
    tokio::spawn(pump.run(receiver, after, app.shutdown.clone()));
    let sse =
        Sse::new(ReceiverStream::new(events)).keep_alive(KeepAlive::new().interval(KEEP_ALIVE));
    // Tell reverse proxies not to buffer the stream.
    Ok(([("x-accel-buffering", "no")], sse).into_response())
}

struct Pump {
    board: Arc<str>,
    feed: Feed,
    archive: Arc<dyn Archive>,
    sender: mpsc::Sender<Result<Event, Infallible>>,
    /// Highest seq sent so far.
    last: u64,
}

/// Why a stream ends early.
enum Stop {
    /// The client went away.
    Gone,
    /// The journal could not be read; the client reconnects with its Last-Event-ID.
    Journal,
}

impl Pump {
    async fn run(
        mut self,
        mut receiver: broadcast::Receiver<Published>,
        after: Option<u64>,
        shutdown: CancellationToken,
    ) {
        metrics::gauge!("goban_http_sse_clients").increment(1.0);
        let sender = self.sender.clone();
        tokio::select! {
            () = shutdown.cancelled() => {}
            // An idle board sends nothing; notice a departed client without waiting for a message.
            () = sender.closed() => {}
            _ = self.stream(&mut receiver, after) => {}
        }
        metrics::gauge!("goban_http_sse_clients").decrement(1.0);
    }

    /// Resume (or snapshot), then follow the feed until the client goes or the journal fails.
    async fn stream(
        &mut self,
        receiver: &mut broadcast::Receiver<Published>,
        after: Option<u64>,
    ) -> Stop {
        let start = match after {
            Some(seq) => {
                self.last = seq;
                self.catch_up().await
            }
            None => self.send_snapshot().await,
        };
        match start {
            Ok(()) => self.follow(receiver).await,
            Err(stop) => stop,
        }
    }

    async fn follow(&mut self, receiver: &mut broadcast::Receiver<Published>) -> Stop {
        loop {
            let outcome = match receiver.recv().await {
                Ok(message) => self.forward(&message).await,
                Err(RecvError::Lagged(_)) => self.catch_up().await,
                Err(RecvError::Closed) => return Stop::Gone,
            };
            if let Err(stop) = outcome {
                return stop;
            }
        }
    }

    /// Sends the current state so a fresh client starts from a full picture.
    async fn send_snapshot(&mut self) -> Result<(), Stop> {
        let Some(view) = self.feed.view(&self.board) else {
            return Ok(());
        };
        let seq = view.seq();
        let event = Event::default()
            .event(event_name(Topic::State))
            .data(view.live.as_str());
        let event = if seq > 0 {
            event.id(seq.to_string())
        } else {
            event
        };
        self.sender.send(Ok(event)).await.map_err(|_| Stop::Gone)?;
        self.last = seq;
        Ok(())
    }

    async fn forward(&mut self, message: &Published) -> Result<(), Stop> {
        if message.topic == Topic::Analysis && message.board == self.board {
            return self.forward_analysis(message).await;
        }
        if message.board != self.board || message.seq <= self.last {
            return Ok(());
        }
        let event = Event::default()
            .id(message.seq.to_string())
            .event(event_name(message.topic))
            .data(message.payload.as_str());
        self.sender.send(Ok(event)).await.map_err(|_| Stop::Gone)?;
        self.last = message.seq;
        Ok(())
    }

    /// An analysis: not journaled, so no `id:` (a resume point must be a journaled seq); its
    /// `seq` is the analysed state's, which this stream has already sent.
    async fn forward_analysis(&mut self, message: &Published) -> Result<(), Stop> {
        let event = Event::default()
            .event(event_name(message.topic))
            .data(message.payload.as_str());
        self.sender.send(Ok(event)).await.map_err(|_| Stop::Gone)
    }

    /// Sends what the journal holds after `last`, up to what this feed may show.
    async fn catch_up(&mut self) -> Result<(), Stop> {
        loop {
            let cutoff = self.feed.cutoff(&self.board);
            let page = self.read_page().await?;
            let full = page.len() >= PAGE;
            for message in &page {
                if message.seq > cutoff {
                    return Ok(());
                }
                self.forward(message).await?;
            }
            if !full {
                return Ok(());
            }
        }
    }

    async fn read_page(&self) -> Result<Vec<Published>, Stop> {
        let (archive, board, after) = (self.archive.clone(), self.board.clone(), self.last);
        // A few journal reads at a time: 2,000 clients resuming at once otherwise each held a
        // blocking thread (tokio allows 512) with its page and its allocator arena.
        let Ok(_turn) = catch_up_turns().acquire().await else {
            return Err(Stop::Gone);
        };
        let read =
            tokio::task::spawn_blocking(move || archive.events_since(&board, after, PAGE)).await;
        match read {
            Ok(Ok(page)) => Ok(page),
            Ok(Err(error)) => Err(self.journal_failed(&error.to_string()).await),
            Err(error) => Err(self.journal_failed(&error.to_string()).await),
        }
    }

    async fn journal_failed(&self, cause: &str) -> Stop {
        tracing::error!(board = %self.board, cause, "SSE resume: journal read failed");
        let data = serde_json::json!({ "error": "unavailable", "detail": cause }).to_string();
        // The client may already be gone; the stream ends either way.
        let _ = self
            .sender
            .send(Ok(Event::default().event("error").data(data)))
            .await;
        Stop::Journal
    }
}

/// GET /events: every board's `state`, `infractions`, `clock` and `analysis` messages on one stream, for the hall page.
///
/// No resume: a client that reconnects re-reads `GET /boards` (api.md).
#[utoipa::path(
    get,
    path = "/api/v1/events",
    tag = "boards",
    responses(
        (status = 200, description = "text/event-stream: `event:` state|infractions|clock|analysis, `data:` the per-board JSON (with `board` and `seq`)", content_type = "text/event-stream", body = String),
    )
)]
pub(crate) async fn handle_hall_events(State(app): State<Arc<App>>, viewer: Viewer) -> Response {
    let mut receiver = app.feed(&viewer).subscribe();
    let (sender, events) = mpsc::channel::<Result<Event, Infallible>>(CHANNEL);
    let shutdown = app.shutdown.clone();
    tokio::spawn(async move {
        metrics::gauge!("goban_http_sse_clients").increment(1.0);
        let pump = async {
            loop {
                let message = match receiver.recv().await {
                    Ok(message) => message,
                    // A slow hall client skips what it missed; the next state of each board repairs it.
                    Err(RecvError::Lagged(_)) => continue,
                    Err(RecvError::Closed) => break,
                };
                if !matches!(
                    message.topic,
                    Topic::State | Topic::Infractions | Topic::Clock | Topic::Analysis
                ) {
                    continue;
                }
                let event = Event::default()
                    .event(event_name(message.topic))
                    .data(message.payload.as_str());
                if sender.send(Ok(event)).await.is_err() {
                    break;
                }
            }
        };
        tokio::select! {
            () = shutdown.cancelled() => {}
            () = pump => {}
        }
        metrics::gauge!("goban_http_sse_clients").decrement(1.0);
    });
    let sse =
        Sse::new(ReceiverStream::new(events)).keep_alive(KeepAlive::new().interval(KEEP_ALIVE));
    ([("x-accel-buffering", "no")], sse).into_response()
}
