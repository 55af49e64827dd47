//! `GET /boards/{id}` measured with wrk, against axum serving the same bytes and a hello world.

use super::*;

/// wrk on `url`: requests per second and its latency line.
pub(super) fn wrk(url: &str, seconds: Duration) -> Result<(f64, String)> {
    let out = Command::new("wrk")
        .args(["-t1", "-c8", "--latency"])
        .arg(format!("-d{}s", seconds.as_secs().max(1)))
        .arg(url)
        .output()
        .context("run wrk (apt-get install wrk)")?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let rate = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("Requests/sec:"))
        .and_then(|v| v.trim().parse().ok())
        .with_context(|| format!("wrk output: {text}"))?;
    let pick = |label: &str| {
        text.lines()
            .find(|l| l.trim_start().starts_with(label))
            .and_then(|l| l.split_whitespace().nth(1))
            .unwrap_or("?")
            .to_owned()
    };
    let errors = text
        .lines()
        .filter(|l| l.contains("Non-2xx") || l.contains("Socket errors"))
        .collect::<Vec<_>>()
        .join("; ");
    Ok((
        rate,
        format!("p50 {} p99 {} {errors}", pick("50%"), pick("99%")),
    ))
}

/// An axum server serving `body` as a static string at `path` and a hello world at `/hello`, on
/// its own runtime of two worker threads (as many as the daemon's on this machine).
pub(super) fn static_server(path: String, body: axum::body::Bytes) -> Result<u16> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    listener.set_nonblocking(true)?;
    let port = listener.local_addr()?.port();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        runtime.block_on(async move {
            let app = axum::Router::new()
                .route(
                    &path,
                    axum::routing::get(move || {
                        let body = body.clone();
                        async move {
                            (
                                [(axum::http::header::CONTENT_TYPE, "application/json")],
                                body,
                            )
                        }
                    }),
                )
                .route("/hello", axum::routing::get(|| async { "Hello, World!" }));
            let listener = tokio::net::TcpListener::from_std(listener).expect("listener");
            let _ = axum::serve(listener, app).await;
        });
    });
    Ok(port)
}
