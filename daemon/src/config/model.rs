//! The typed configuration: every section of goban-bridge.toml, with defaults and units documented.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;

use serde::Deserialize;

use super::mqtt_url::MqttUrl;
use super::time_control::TimeControlSpec;
use super::types::{BoardId, BoardSize, InfractionKind, Retention, Ruleset, Span};

/// The whole daemon configuration.
#[derive(Clone, Debug)]
pub struct Config {
    /// `[server]`: REST/SSE listener, arbiter tokens, broadcast delay.
    pub server: ServerConfig,
    /// `[journal]`: the SQLite journal.
    pub journal: JournalConfig,
    /// `[mqtt]`: the broker to publish to, or the embedded one.
    pub mqtt: MqttConfig,
    /// `[referee]`: defaults every board inherits.
    pub referee: RefereeDefaults,
    /// `[log]`: log format and filter.
    pub log: LogConfig,
    /// `[[board]]`: one entry per physical board.
    pub boards: Vec<BoardConfig>,
    /// `[tournament]`: where rounds come from and results go (issue 13).
    pub tournament: crate::tournament::TournamentConfig,
    /// `[analysis]`: the engine beside the broadcast (issue 42).
    pub analysis: crate::analysis::AnalysisConfig,
}

/// `[server]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ServerConfig {
    /// REST/SSE listen address, `ip:port` or `host:port` (resolved once, at load).
    /// Default `127.0.0.1:8080`.
    #[serde(deserialize_with = "super::listen::deserialize")]
    pub listen: SocketAddr,
    /// Arbiter bearer tokens; the env var `GOBAN_ARBITER_TOKENS` (comma separated) adds more.
    pub arbiter_tokens: Vec<String>,
    /// Public state, SSE and MQTT lag live play by this much (anti-cheating). Default `"0s"`.
    pub broadcast_delay: Span,
    /// Largest accepted request body in bytes. Default 65536.
    pub body_limit: usize,
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            arbiter_tokens: Vec::new(),
            broadcast_delay: Span::default(),
            body_limit: 64 * 1024,
        }
    }
}

/// How hard SQLite pushes each commit to the disk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Synchronous {
    /// `PRAGMA synchronous=NORMAL` with WAL: survives a crash of the process, may lose the last commits on power loss.
    #[default]
    Normal,
    /// `PRAGMA synchronous=FULL`: every commit reaches the disk before anything is published.
    Full,
}

/// `[journal]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct JournalConfig {
    /// SQLite file, relative to the working directory. Default `goban-bridge.sqlite`.
    pub path: PathBuf,
    /// `"normal"` (default) or `"full"`.
    pub synchronous: Synchronous,
    /// Longest wait to gather more writes into one commit. Default `"0ms"`: commit
    /// at once (a move on its board's own thread when no other commit runs, with
    /// `synchronous = "normal"`); writes arriving during a commit join the next one.
    pub commit_window: Span,
    /// Longest wait of a write nobody is waiting for (a clock reading, a device report)
    /// for another commit to go along with. Default `"50ms"`: in a hall such writes share
    /// the commits of moves instead of costing one each; alone, a clock reading is
    /// published (and shown on the clock) this much later. `"0ms"` commits them at once.
    pub lazy_window: Span,
    /// How long a finished game's inputs and events are kept once its board started
    /// another game: `"end-of-day"` (default), a duration such as `"2h"`, or `"never"`.
    pub retention: Retention,
}

impl Default for JournalConfig {
    fn default() -> Self {
        Self {
            path: PathBuf::from("goban-bridge.sqlite"),
            synchronous: Synchronous::Normal,
            commit_window: Span(std::time::Duration::ZERO),
            lazy_window: Span(std::time::Duration::from_millis(50)),
            retention: Retention::EndOfDay,
        }
    }
}

/// `[mqtt]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MqttConfig {
    /// Broker URL, `mqtt://host:port` or `mqtts://host:port` (TLS). Omitted: the embedded broker.
    pub url: Option<MqttUrl>,
    /// Topic root. Default `goban`.
    pub prefix: String,
    /// Client id. Default `goban-bridge`.
    pub client_id: String,
    /// User name, if the broker asks for one.
    pub username: Option<String>,
    /// Password, with `username`.
    pub password: Option<String>,
    /// PEM file of the CA that signed the broker's certificate (mqtts); default: the system roots.
    pub ca_file: Option<PathBuf>,
    /// Messages kept while the broker is away; older ones are dropped and counted. Default 10000.
    pub buffer: usize,
    /// Longest wait between reconnect attempts (backoff doubles up to this). Default `"10s"`.
    pub max_backoff: Span,
    /// Embedded broker address. Default `127.0.0.1` (loopback only).
    pub embedded_host: IpAddr,
    /// Embedded broker port; a free one is picked if it is taken. Default 1883.
    pub embedded_port: u16,
}

impl Default for MqttConfig {
    fn default() -> Self {
        Self {
            url: None,
            prefix: "goban".into(),
            client_id: "goban-bridge".into(),
            username: None,
            password: None,
            ca_file: None,
            buffer: 10_000,
            max_backoff: Span(std::time::Duration::from_secs(10)),
            embedded_host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            embedded_port: 1883,
        }
    }
}

/// `[referee]`: defaults for every board.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RefereeDefaults {
    /// A reading must hold this long to count as steady (referee-notes.md 4). Default `"300ms"`.
    pub settle_time: Span,
    /// The largest lag between a board's port and its clock's that the order of a stone and
    /// a press tolerates, for devices without `SYNC` (referee-notes.md 8). Default `"0ms"`;
    /// raise it for an adapter known to lag, at the cost of premature presses closer than it.
    pub port_skew: Span,
    /// Infraction kinds (rules-digest.md ids) sanctioned without an arbiter; the rest are advised. Default none.
    pub auto_sanction: Vec<InfractionKind>,
    /// The resignation signal (two own stones at one's lower-right corner, CN2002 终局):
    /// `{ enabled = true, reach = 1 }` by default; `reach` is how many lines from the corner
    /// point the stones may lie (0: the corner point only).
    pub resignation_signal: goban_referee::end_signals::ResignationSignal,
}

impl Default for RefereeDefaults {
    fn default() -> Self {
        Self {
            settle_time: Span(std::time::Duration::from_millis(300)),
            port_skew: Span(std::time::Duration::ZERO),
            auto_sanction: Vec::new(),
            resignation_signal: goban_referee::end_signals::ResignationSignal::default(),
        }
    }
}

/// Log output.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// Human-readable lines.
    #[default]
    Text,
    /// One JSON object per line.
    Json,
}

/// `[log]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LogConfig {
    /// `"text"` (default) or `"json"`.
    pub format: LogFormat,
    /// An env-filter directive, e.g. `"info,goban_bridge=debug"`; `RUST_LOG` wins. Default `"info"`.
    pub filter: String,
}

impl Default for LogConfig {
    fn default() -> Self {
        Self {
            format: LogFormat::Text,
            filter: "info".into(),
        }
    }
}

/// One `[[board]]`: a sensor board with its clock and its game settings.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardConfig {
    /// `[a-z0-9-]{1,32}`.
    pub id: BoardId,
    /// Serial path of the board (`/dev/ttyACM0`, a by-id path or a pseudo-terminal).
    pub board_port: PathBuf,
    /// Serial path of the clock; may equal `board_port`; omitted: same as `board_port`.
    #[serde(default)]
    pub clock_port: Option<PathBuf>,
    /// Serial speed. Default 115200 (wire-protocol.md "Physical layer").
    #[serde(default = "default_baud")]
    pub baud: u32,
    /// 9, 13 or 19. Default 19.
    #[serde(default)]
    pub size: BoardSize,
    /// Default `cn2002`.
    #[serde(default = "default_ruleset")]
    pub ruleset: Ruleset,
    /// Points; omitted: the ruleset's usual komi (cn2002 7.5).
    #[serde(default)]
    pub komi: Option<f64>,
    /// Handicap stones, 0 or 2..=9. Default 0.
    #[serde(default)]
    pub handicap: u8,
    /// api.md time-control grammar. Default `none`.
    #[serde(default)]
    pub time_control: TimeControlSpec,
    /// Start a game without `POST /game`. Default false.
    #[serde(default)]
    pub autostart: bool,
    /// Black's name.
    #[serde(default)]
    pub black: String,
    /// White's name.
    #[serde(default)]
    pub white: String,
    /// Which clock button is Black's: `"L"` (default: the clock sits on White's right) or `"R"`.
    #[serde(default = "default_black_button")]
    pub black_button: ButtonSide,
    /// Overrides `[referee] settle_time`.
    #[serde(default)]
    pub settle_time: Option<Span>,
    /// Overrides `[referee] auto_sanction`.
    #[serde(default)]
    pub auto_sanction: Option<Vec<InfractionKind>>,
    /// The tournament table number this board stands on (`[tournament.tables]` may map it instead).
    #[serde(default)]
    pub table: Option<u32>,
}

/// A clock button as wire-protocol.md names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum ButtonSide {
    /// Left, as the arbiter faces the display.
    L,
    /// Right.
    R,
}

fn default_baud() -> u32 {
    115_200
}

fn default_ruleset() -> Ruleset {
    Ruleset::Cn2002
}

fn default_black_button() -> ButtonSide {
    ButtonSide::L
}

impl BoardConfig {
    /// The clock's port: its own, or the board's when they share one.
    pub fn clock_port(&self) -> &PathBuf {
        self.clock_port.as_ref().unwrap_or(&self.board_port)
    }

    /// Komi as configured or the ruleset's usual one.
    pub fn komi(&self) -> f64 {
        self.komi.unwrap_or_else(|| self.ruleset.default_komi())
    }

    /// Settle time for this board.
    pub fn settle_time(&self, defaults: &RefereeDefaults) -> Span {
        self.settle_time.unwrap_or(defaults.settle_time)
    }

    /// Automatically sanctioned kinds for this board.
    pub fn auto_sanction<'a>(&'a self, defaults: &'a RefereeDefaults) -> &'a [InfractionKind] {
        self.auto_sanction
            .as_deref()
            .unwrap_or(&defaults.auto_sanction)
    }
}
