//! The HTTP server loop: at most `max_connections` at once, and a connection whose request head, body or traffic stalls is closed (issue 43).
//!
//! `axum::serve` sets no timeout at all: a client trickling a header, a body
//! declared and never sent, or a socket opened and left silent each held a
//! connection (and a task, and a file) forever. hyper has the header timeout
//! (it also runs while a kept-alive connection waits for its next request);
//! the body deadline and the idle watchdog are here.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll, ready};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use http_body::{Body, Frame, SizeHint};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Sleep;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tower::ServiceExt as _;

/// hyper's read and write buffers per connection (its default, about 400 KB, times thousands
/// of SSE streams to slow readers was most of the memory they took; a request head is far smaller).
const MAX_BUFFER_BYTES: usize = 64 * 1024;

/// How long a connection may take over each part of its life (`[server]` in the config).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ConnectionLimits {
    /// The whole request head, counted from the connection's opening or the previous response.
    pub(crate) header_timeout: Duration,
    /// The whole request body, counted from the end of its head.
    pub(crate) body_timeout: Duration,
    /// No byte moved either way for this long: closed (an SSE stream sends a comment every 15 s).
    pub(crate) idle_timeout: Duration,
    /// Connections served at once; further ones wait in the listen backlog.
    pub(crate) max_connections: usize,
}

/// Serves `router` on `listener` until `shutdown`; then waits for the open connections to end.
pub(crate) async fn run(
    listener: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    shutdown: CancellationToken,
) -> std::io::Result<()> {
    let slots = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let connections = TaskTracker::new();
    loop {
        let permit = tokio::select! {
            () = shutdown.cancelled() => break,
            permit = slots.clone().acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => break,
            },
        };
        let stream = tokio::select! {
            () = shutdown.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(err) => {
                    // Out of files, mostly: give connections a moment to close.
                    tracing::warn!(cause = %err, "HTTP accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let _ = stream.set_nodelay(true);
        connections.spawn(serve_connection(
            stream,
            router.clone(),
            limits,
            shutdown.clone(),
            permit,
        ));
    }
    drop(listener);
    connections.close();
    connections.wait().await;
    Ok(())
}

/// One connection: hyper's HTTP/1 with the header timeout, each body under its deadline,
/// closed when idle; at shutdown it finishes the response in progress and closes.
async fn serve_connection(
    stream: TcpStream,
    router: Router,
    limits: ConnectionLimits,
    shutdown: CancellationToken,
    _slot: OwnedSemaphorePermit,
) {
    let activity = Arc::new(Activity::new());
    let io = TokioIo::new(Watched {
        inner: stream,
        activity: activity.clone(),
    });
    let body_timeout = limits.body_timeout;
    let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
        let request = request.map(|body| DeadlineBody::new(body, body_timeout));
        router.clone().oneshot(request)
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(MAX_BUFFER_BYTES);
    let connection = builder.serve_connection(io, service).with_upgrades();
    tokio::pin!(connection);
    let mut closing = false;
    loop {
        tokio::select! {
            served = connection.as_mut() => {
                if let Err(err) = served {
                    tracing::debug!(cause = %err, "HTTP connection ended");
                }
                break;
            }
            () = shutdown.cancelled(), if !closing => {
                connection.as_mut().graceful_shutdown();
                closing = true;
            }
            () = activity.idle_for(limits.idle_timeout) => {
                tracing::debug!("HTTP connection idle: closed");
                metrics::counter!("goban_http_idle_closed_total").increment(1);
                break;
            }
        }
    }
}

/// When a connection last moved a byte, in milliseconds since it opened.
struct Activity {
    opened: Instant,
    last_ms: AtomicU64,
}

impl Activity {
    fn new() -> Self {
        Self {
            opened: Instant::now(),
            last_ms: AtomicU64::new(0),
        }
    }

    fn touch(&self) {
        let now = u64::try_from(self.opened.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last_ms.store(now, Ordering::Relaxed);
    }

    /// Returns once no byte has moved for `limit`.
    async fn idle_for(&self, limit: Duration) {
        loop {
            let last = Duration::from_millis(self.last_ms.load(Ordering::Relaxed));
            let deadline = self.opened + last + limit;
            if Instant::now() >= deadline {
                return;
            }
            tokio::time::sleep_until(deadline.into()).await;
        }
    }
}

/// The socket, noting every byte read or written in [`Activity`].
struct Watched {
    inner: TcpStream,
    activity: Arc<Activity>,
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.activity.touch();
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write(cx, buf);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.touch();
        }
        polled
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.touch();
        }
        polled
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// The request body took longer than `body_timeout`.
#[derive(Debug, thiserror::Error)]
#[error("the request body did not arrive within {0:?}")]
struct BodyTimedOut(Duration);

/// A request body that fails once `limit` has passed since its head arrived (a trickle of
/// one byte every few seconds keeps a per-read timeout happy, not this one).
struct DeadlineBody {
    inner: Incoming,
    limit: Duration,
    /// Only for a body that has bytes to come: a GET costs no timer.
    deadline: Option<Pin<Box<Sleep>>>,
}

impl DeadlineBody {
    fn new(inner: Incoming, limit: Duration) -> Self {
        let deadline = (!inner.is_end_stream()).then(|| Box::pin(tokio::time::sleep(limit)));
        Self {
            inner,
            limit,
            deadline,
        }
    }
}

impl Body for DeadlineBody {
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let this = &mut *self;
        if let Poll::Ready(frame) = Pin::new(&mut this.inner).poll_frame(cx) {
            return Poll::Ready(frame.map(|f| f.map_err(Into::into)));
        }
        if let Some(deadline) = this.deadline.as_mut() {
            ready!(deadline.as_mut().poll(cx));
            return Poll::Ready(Some(Err(BodyTimedOut(this.limit).into())));
        }
        Poll::Pending
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::routing::get;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// Generous: the watchdog is set to 300 ms.
    const LIMIT: Duration = Duration::from_secs(30);

    /// `/hang` never answers; `/trickle` sends a byte every 100 ms for 1.5 s.
    async fn build_server() -> (std::net::SocketAddr, CancellationToken) {
        let trickle = || async {
            let bytes = futures::stream::unfold(0_u32, |n| async move {
                if n == 15 {
                    return None;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
                Some((
                    Ok::<_, std::convert::Infallible>(Bytes::from_static(b".")),
                    n + 1,
                ))
            });
            axum::body::Body::from_stream(bytes)
        };
        let router = Router::new()
            .route("/hang", get(std::future::pending::<&'static str>))
            .route("/trickle", get(trickle));
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let limits = ConnectionLimits {
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_millis(300),
            max_connections: 8,
        };
        let stop = CancellationToken::new();
        tokio::spawn(run(listener, router, limits, stop.clone()));
        (addr, stop)
    }

    async fn request(addr: std::net::SocketAddr, path: &str) -> Vec<u8> {
        let mut stream = TcpStream::connect(addr).await.expect("connect");
        let head = format!("GET {path} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
        stream.write_all(head.as_bytes()).await.expect("write");
        let mut answer = Vec::new();
        let read = tokio::time::timeout(LIMIT, stream.read_to_end(&mut answer)).await;
        assert!(read.is_ok(), "{path}: the connection stayed open");
        answer
    }

    #[tokio::test]
    async fn a_connection_moving_no_byte_is_closed_one_moving_bytes_is_not() {
        let (addr, stop) = build_server().await;
        let hung = request(addr, "/hang").await;
        assert!(hung.is_empty(), "{}", String::from_utf8_lossy(&hung));
        let streamed = String::from_utf8(request(addr, "/trickle").await).expect("text");
        assert!(streamed.starts_with("HTTP/1.1 200"), "{streamed}");
        let body = streamed.split("\r\n\r\n").nth(1).unwrap_or_default();
        assert_eq!(body.matches('.').count(), 15, "cut short: {streamed}");
        stop.cancel();
    }
}
