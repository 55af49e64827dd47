//! The real `goban-bridge run --config` process: its config, HTTP access, kill -9, SIGTERM, and cleanup on drop.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::{free_port, unique, wait_for};

/// The arbiter token every e2e config accepts.
pub(crate) const TOKEN: &str = "e2e-arbiter-token";
/// The board id of every e2e config.
pub(crate) const BOARD: &str = "table-1";

/// What one daemon run needs; kept so that a restart uses the very same config and journal.
pub(crate) struct Setup {
    pub(crate) dir: PathBuf,
    pub(crate) http_port: u16,
    pub(crate) broker_port: u16,
    pub(crate) prefix: String,
    pub(crate) board_port: PathBuf,
    pub(crate) clock_port: PathBuf,
    /// Extra lines of the `[mqtt]` table (e.g. `username`/`password`).
    pub(crate) mqtt_extra: String,
    /// The journal file; default `journal.sqlite` in `dir` (a test of a full disk puts it elsewhere).
    pub(crate) journal: Option<PathBuf>,
    /// Text appended after the board of [`BOARD`]: more `[[board]]` tables (harness::hall),
    /// or other sections (`[analysis]`).
    pub(crate) boards_extra: String,
    /// Extra lines of the `[server]` table (e.g. `broadcast_delay`).
    pub(crate) server_extra: String,
    /// The `[analysis]` table: the engine is off unless a test of the analysis asks for one,
    /// so the other tests run no engine beside them (and see only the board's own messages).
    pub(crate) analysis: String,
}

impl Setup {
    /// A setup in `dir` for the given devices and broker, with a unique MQTT prefix.
    pub(crate) fn new(dir: &Path, board_port: &Path, clock_port: &Path, broker_port: u16) -> Self {
        Self {
            dir: dir.to_path_buf(),
            http_port: free_port(),
            broker_port,
            prefix: unique("gbe2e"),
            board_port: board_port.to_path_buf(),
            clock_port: clock_port.to_path_buf(),
            mqtt_extra: String::new(),
            journal: None,
            boards_extra: String::new(),
            server_extra: String::new(),
            analysis: "[analysis]\nengine = \"off\"\n".into(),
        }
    }

    fn write_config(&self) -> PathBuf {
        let config = format!(
            "[server]\nlisten = \"127.0.0.1:{http}\"\narbiter_tokens = [\"{TOKEN}\"]\n{server_extra}\
             [journal]\npath = \"{journal}\"\n\
             [mqtt]\nurl = \"mqtt://127.0.0.1:{broker}\"\nprefix = \"{prefix}\"\nclient_id = \"{prefix}\"\nmax_backoff = \"1s\"\n{mqtt_extra}\
             [referee]\nsettle_time = \"100ms\"\n\
             [[board]]\nid = \"{BOARD}\"\nboard_port = \"{board}\"\nclock_port = \"{clock}\"\nsize = 9\n\
             ruleset = \"cn2002\"\ntime_control = \"absolute:main=90m\"\nautostart = true\n\
             black = \"E2E Black\"\nwhite = \"E2E White\"\n{boards_extra}{analysis}",
            http = self.http_port,
            journal = self
                .journal
                .clone()
                .unwrap_or_else(|| self.dir.join("journal.sqlite"))
                .display(),
            broker = self.broker_port,
            prefix = self.prefix,
            mqtt_extra = self.mqtt_extra,
            board = self.board_port.display(),
            clock = self.clock_port.display(),
            boards_extra = self.boards_extra,
            server_extra = self.server_extra,
            analysis = self.analysis,
        );
        let path = self.dir.join("goban-bridge.toml");
        std::fs::write(&path, config).expect("write the config");
        path
    }
}

/// A running daemon; dropping it kills the process.
pub(crate) struct Daemon {
    child: Option<Child>,
    log: PathBuf,
    base: String,
    http: reqwest::Client,
}

impl Daemon {
    /// Spawns the binary on `setup` and waits (15 s at most) until `/api/v1/health` answers.
    pub(crate) async fn start(setup: &Setup, run: usize) -> Self {
        let config = setup.write_config();
        let log = setup.dir.join(format!("daemon-{run}.log"));
        let file = std::fs::File::create(&log).expect("create the daemon log");
        let child = Command::new(env!("CARGO_BIN_EXE_goban-bridge"))
            .args(["run", "--config"])
            .arg(&config)
            .current_dir(&setup.dir)
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(file.try_clone().expect("clone the log handle"))
            .stderr(file)
            .spawn()
            .expect("spawn goban-bridge");
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(5))
            .build()
            .expect("http client");
        let mut daemon = Self {
            child: Some(child),
            log,
            base: format!("http://127.0.0.1:{}/api/v1", setup.http_port),
            http,
        };
        daemon.wait_ready().await;
        daemon
    }

    async fn wait_ready(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(status) = self
                .child
                .as_mut()
                .and_then(|c| c.try_wait().ok().flatten())
            {
                panic!(
                    "goban-bridge exited at start with {status}:\n{}",
                    self.log_tail()
                );
            }
            let health = self.http.get(format!("{}/health", self.base)).send().await;
            if health.is_ok_and(|resp| resp.status().is_success()) {
                self.wait_board_reads().await;
                return;
            }
            assert!(
                Instant::now() < deadline,
                "goban-bridge not ready within 60 s:\n{}",
                self.log_tail()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Waits (30 s at most, then goes on) until the referee reads the board: players start
    /// once the board is seen. A stone placed while the referee is still blind at start-up is
    /// taken for a leftover and its press for a pass (a known referee bug, issue 15), which
    /// these tests are not about.
    pub(crate) async fn wait_board_reads(&self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            let state = self
                .http
                .get(format!("{}/boards/{BOARD}", self.base))
                .send()
                .await;
            if let Ok(resp) = state {
                let state: Value = resp.json().await.unwrap_or(Value::Null);
                let device = &state["device"];
                let reads = device["board"] == "connected"
                    && device["interpretation"]
                        .as_str()
                        .is_none_or(|i| i == "reading");
                if reads {
                    return;
                }
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The process id.
    pub(crate) fn pid(&self) -> u32 {
        self.child.as_ref().map_or(0, Child::id)
    }

    /// Whether the daemon's log so far has a line containing `text`.
    #[allow(dead_code)] // not every test binary that includes the harness asks
    pub(crate) fn log_has(&self, text: &str) -> bool {
        std::fs::read_to_string(&self.log).is_ok_and(|log| log.contains(text))
    }

    /// The end of the daemon's log, for failure messages.
    pub(crate) fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let start = text.len().saturating_sub(4000);
        text.get(start..).unwrap_or(&text).to_string()
    }

    /// The base URL, `http://127.0.0.1:PORT/api/v1`.
    pub(crate) fn base(&self) -> &str {
        &self.base
    }

    /// GET a JSON document; panics on a non-200 answer.
    pub(crate) async fn get(&self, path: &str) -> Value {
        let resp = self
            .http
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .expect("GET");
        let status = resp.status();
        let body: Value = resp.json().await.unwrap_or(Value::Null);
        assert_eq!(status, 200, "GET {path}: {body}");
        body
    }

    /// The board state (api.md "Board state").
    pub(crate) async fn state(&self) -> Value {
        self.get(&format!("/boards/{BOARD}")).await
    }

    /// POST a JSON body with an optional bearer token: the status and the JSON answer (Null if none).
    pub(crate) async fn post(&self, path: &str, body: &Value, token: Option<&str>) -> (u16, Value) {
        let mut req = self.http.post(format!("{}{path}", self.base)).json(body);
        if let Some(token) = token {
            req = req.bearer_auth(token);
        }
        let resp = req.send().await.expect("POST");
        let status = resp.status().as_u16();
        (status, resp.json().await.unwrap_or(Value::Null))
    }

    /// Waits until the board state satisfies `done`.
    pub(crate) async fn wait_state(&self, what: &str, done: impl Fn(&Value) -> bool) -> Value {
        wait_for(what, Duration::from_secs(30), || async {
            let state = self.state().await;
            done(&state).then_some(state)
        })
        .await
    }

    /// `kill -9`: no flush, no goodbye.
    pub(crate) fn kill9(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// SIGTERM, then waits up to `bound` for the exit; `None` if it is still running (it is then killed).
    pub(crate) fn sigterm(&mut self, bound: Duration) -> Option<ExitStatus> {
        let mut child = self.child.take()?;
        let sent = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status();
        assert!(sent.is_ok_and(|s| s.success()), "could not send SIGTERM");
        let deadline = Instant::now() + bound;
        let exited = loop {
            if let Ok(Some(status)) = child.try_wait() {
                break Some(status);
            }
            if Instant::now() >= deadline {
                break None;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        if exited.is_none() {
            let _ = child.kill();
            let _ = child.wait();
        }
        exited
    }

    /// Whether the process is still running.
    pub(crate) fn alive(&mut self) -> bool {
        self.child
            .as_mut()
            .is_some_and(|c| matches!(c.try_wait(), Ok(None)))
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("--- goban-bridge log (tail) ---\n{}", self.log_tail());
        }
        self.kill9();
    }
}
