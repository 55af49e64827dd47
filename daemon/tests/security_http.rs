//! The HTTP edge of issue 43 with real sockets: clients trickling a header, a body declared
//! and never sent, or nothing at all are closed within the configured timeouts while others
//! are served; the connection limit holds clients back until a slot frees; the headers a
//! browser expects; `check-config` refuses what `run` refuses, and `run` refuses before
//! opening anything. Deadlines are generous: behaviour is asserted, never speed.

mod support;

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const TOKEN: &str = "security-token";
/// Far beyond any configured timeout: a stalled connection still open then is a failure.
const LIMIT: Duration = Duration::from_secs(60);

fn write_config(dir: &Path, http: u16, server_extra: &str) -> PathBuf {
    let text = format!(
        "[server]\nlisten = \"127.0.0.1:{http}\"\narbiter_tokens = [\"{TOKEN}\"]\n{server_extra}\n\
         [journal]\npath = {:?}\n[mqtt]\nembedded_port = {}\n\
         [[board]]\nid = \"table-1\"\nboard_port = {:?}\n",
        dir.join("journal.sqlite").display().to_string(),
        support::free_port(),
        dir.join("no-such-port").display().to_string(),
    );
    let path = dir.join("goban-bridge.toml");
    std::fs::write(&path, text).expect("write config");
    path
}

async fn start(dir: &Path, server_extra: &str) -> (support::Daemon, u16) {
    let http = support::free_port();
    let daemon = support::Daemon::run(&write_config(dir, http, server_extra));
    support::wait_for(
        &format!("http://127.0.0.1:{http}/api/v1/boards"),
        LIMIT,
        |_| true,
    )
    .await;
    (daemon, http)
}

/// Writes `head` then `trickle` one byte every 300 ms; returns once the server closed the
/// connection (end of stream or reset), or after [`LIMIT`] with `false`.
async fn stall(port: u16, head: String, trickle: &'static [u8]) -> bool {
    let Ok(stream) = TcpStream::connect(("127.0.0.1", port)).await else {
        return false;
    };
    let (mut reader, mut writer) = stream.into_split();
    let closed = async move {
        let mut sink = [0_u8; 1024];
        loop {
            match reader.read(&mut sink).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    };
    let trickling = async move {
        if writer.write_all(head.as_bytes()).await.is_err() {
            return;
        }
        for byte in trickle.iter().cycle() {
            tokio::time::sleep(Duration::from_millis(300)).await;
            if writer.write_all(&[*byte]).await.is_err() {
                return;
            }
        }
    };
    tokio::time::timeout(LIMIT, async {
        tokio::select! {
            () = closed => {}
            () = trickling => {}
        }
    })
    .await
    .is_ok()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stalled_connections_are_closed_while_others_are_served() {
    let dir = tempfile::tempdir().expect("tempdir");
    let limits = "header_timeout = \"2s\"\nbody_timeout = \"3s\"\nmax_connections = 100";
    let (_daemon, http) = start(dir.path(), limits).await;
    let mut stalled = tokio::task::JoinSet::new();
    for _ in 0..10 {
        // A header that never ends.
        let head = "GET /api/v1/boards HTTP/1.1\r\nHost: a\r\nX-Slow: ".to_owned();
        stalled.spawn(stall(http, head, b"abcdefgh"));
        // A body of 60 KB declared, a byte every 300 ms sent.
        let head = format!(
            "POST /api/v1/boards/table-1/game HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer {TOKEN}\r\n\
             Content-Type: application/json\r\nContent-Length: 60000\r\n\r\n{{\"black\":\""
        );
        stalled.spawn(stall(http, head, b"x"));
        // Nothing at all.
        stalled.spawn(stall(http, String::new(), b""));
    }
    // The others are served meanwhile.
    let client = support::http();
    for _ in 0..5 {
        let response = client
            .get(format!("http://127.0.0.1:{http}/api/v1/boards"))
            .send()
            .await
            .expect("served beside the stalled connections");
        assert!(response.status().is_success());
    }
    let mut closed = 0;
    while let Some(outcome) = stalled.join_next().await {
        assert!(
            outcome.expect("task"),
            "a stalled connection was still open after {LIMIT:?}"
        );
        closed += 1;
    }
    assert_eq!(closed, 30);
    // The daemon still serves after shedding them.
    let response = client
        .get(format!("http://127.0.0.1:{http}/api/v1/boards"))
        .send()
        .await
        .expect("served after");
    assert!(response.status().is_success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn beyond_the_connection_limit_a_client_waits_for_a_slot() {
    let dir = tempfile::tempdir().expect("tempdir");
    let limits = "header_timeout = \"3s\"\nmax_connections = 4";
    let (_daemon, http) = start(dir.path(), limits).await;
    // Plain sockets: a non-blocking read tells at once whether the server closed them.
    let silent: Vec<std::net::TcpStream> = (0..4)
        .map(|_| {
            let socket = std::net::TcpStream::connect(("127.0.0.1", http)).expect("connect");
            socket.set_nonblocking(true).expect("non-blocking");
            socket
        })
        .collect();
    let mut fifth = TcpStream::connect(("127.0.0.1", http))
        .await
        .expect("connect");
    fifth
        .write_all(b"GET /api/v1/boards HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        .await
        .expect("request");
    let mut answer = Vec::new();
    tokio::time::timeout(LIMIT, fifth.read_to_end(&mut answer))
        .await
        .expect("the fifth client was served once a slot freed")
        .expect("read the answer");
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    // It was served only after the header timeout had shed a silent connection.
    let shed = silent
        .iter()
        .filter(|socket| {
            let mut byte = [0_u8; 1];
            match (&**socket).read(&mut byte) {
                Ok(0) => true,
                Ok(_) => false,
                Err(err) => err.kind() != std::io::ErrorKind::WouldBlock,
            }
        })
        .count();
    assert!(
        shed >= 1,
        "the fifth client was served while four were open"
    );
}

/// (content-security-policy, x-frame-options, x-content-type-options) of a GET.
async fn headers_of(http: u16, path: &str) -> (String, String, String) {
    let response = support::http()
        .get(format!("http://127.0.0.1:{http}{path}"))
        .send()
        .await
        .expect("GET");
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .map(|v| v.to_str().unwrap_or("").to_owned())
            .unwrap_or_default()
    };
    (
        header("content-security-policy"),
        header("x-frame-options"),
        header("x-content-type-options"),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_are_not_frameable_except_the_overlay_and_nothing_is_sniffed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let framing = "overlay_frame_ancestors = \"'self' https://studio.example\"";
    let (_daemon, http) = start(dir.path(), framing).await;
    for path in ["/", "/arbiter", "/board/table-1", "/api/docs/"] {
        let (csp, frame_options, sniff) = headers_of(http, path).await;
        assert!(csp.ends_with("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(csp.contains("default-src 'self'"), "{path}: {csp}");
        assert_eq!(frame_options, "DENY", "{path}");
        assert_eq!(sniff, "nosniff", "{path}");
    }
    let (csp, frame_options, sniff) = headers_of(http, "/overlay/table-1").await;
    assert!(
        csp.ends_with("frame-ancestors 'self' https://studio.example"),
        "{csp}"
    );
    assert_eq!(frame_options, "", "the overlay must stay frameable");
    assert_eq!(sniff, "nosniff");
    for path in ["/api/v1/boards", "/api/v1/no-such-route", "/assets/app.js"] {
        let (_, _, sniff) = headers_of(http, path).await;
        assert_eq!(sniff, "nosniff", "{path}");
    }
}

fn goban_bridge(args: &[&str], config: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_goban-bridge"))
        .args(args)
        .arg(config)
        .stdin(Stdio::null())
        .output()
        .expect("run goban-bridge")
}

#[test]
fn check_config_refuses_what_run_refuses_and_run_opens_nothing_first() {
    let dir = tempfile::tempdir().expect("tempdir");
    let journal = dir.path().join("journal.sqlite");
    let valid = write_config(dir.path(), support::free_port(), "");
    let text = std::fs::read_to_string(&valid).expect("read");
    let cases = [
        (text.replace(TOKEN, "two words"), "arbiter_tokens"),
        (
            text.replace(&format!("\"{TOKEN}\""), "\"\""),
            "arbiter_tokens",
        ),
        (
            text.replace("journal.sqlite", "missing-dir/journal.sqlite"),
            "journal.path",
        ),
        (
            text.replace("[server]\n", "[server]\nidle_timeout = \"5s\"\n"),
            "idle_timeout",
        ),
    ];
    for (config, field) in cases {
        let path = dir.path().join("case.toml");
        std::fs::write(&path, &config).expect("write");
        let checked = goban_bridge(&["check-config"], &path);
        let stderr = String::from_utf8_lossy(&checked.stderr);
        assert!(!checked.status.success(), "check-config accepted {field}");
        assert!(stderr.contains(field), "{stderr}");
        let run = goban_bridge(&["run", "--config"], &path);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success(), "run accepted {field}");
        assert!(stderr.contains(field), "{stderr}");
        assert!(
            !journal.exists(),
            "run opened the journal before refusing {field}"
        );
        assert!(
            !stderr.contains("board ready"),
            "run started a board before refusing {field}: {stderr}"
        );
    }
    // A serial path that does not exist (yet) is only a warning.
    let checked = goban_bridge(&["check-config"], &valid);
    assert!(checked.status.success());
    let stderr = String::from_utf8_lossy(&checked.stderr);
    assert!(
        stderr.contains("warning") && stderr.contains("board_port"),
        "{stderr}"
    );
}
