//! The typed configuration: every section of goban-bridge.toml, with defaults and units documented.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;

use serde::Deserialize;

use super::mqtt_url::MqttUrl;
use goban_referee::clock::TimeControl;
use goban_referee::{Button, InfractionKind};
use goban_rules::{BoardSize, Ruleset};

use super::types::{BoardId, Retention, Span};

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
    pub tournament: super::TournamentConfig,
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
    /// Arbiters whose token carries their name (`[[server.arbiters]]` with `name` and
    /// `token`): the audit trail, rulings and acknowledged alerts show the name instead
    /// of `arbiter#N`. Default none.
    pub arbiters: Vec<NamedArbiter>,
    /// Public state, SSE and MQTT lag live play by this much (anti-cheating). Default `"0s"`.
    pub broadcast_delay: Span,
    /// Largest accepted request body in bytes. Default 65536.
    pub body_limit: usize,
    /// The whole request head must arrive within this, counted from the connection's
    /// opening or from the previous response (so it also bounds a silent kept-alive
    /// connection). Default `"10s"`.
    pub header_timeout: Span,
    /// The whole request body must arrive within this after its head. Default `"30s"`.
    pub body_timeout: Span,
    /// A connection on which no byte moved either way for this long is closed (SSE
    /// streams send a comment every 15 s, so a reader that stopped reading is closed).
    /// Default `"60s"`.
    pub idle_timeout: Span,
    /// Connections served at once (SSE streams included); more wait in the listen
    /// backlog. Default 4096.
    pub max_connections: usize,
    /// Who may frame the overlay pages: a CSP `frame-ancestors` source list such as
    /// `"'self' https://studio.example"`. Default `"*"` (any production tool). The
    /// console, the hall, the viewer and /api/docs may never be framed.
    pub overlay_frame_ancestors: String,
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            arbiter_tokens: Vec::new(),
            arbiters: Vec::new(),
            broadcast_delay: Span::default(),
            body_limit: 64 * 1024,
            header_timeout: Span(std::time::Duration::from_secs(10)),
            body_timeout: Span(std::time::Duration::from_secs(30)),
            idle_timeout: Span(std::time::Duration::from_secs(60)),
            max_connections: 4096,
            overlay_frame_ancestors: "*".into(),
        }
    }
}

/// `[[server.arbiters]]`: a bearer token that carries its arbiter's name.
#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NamedArbiter {
    /// How the audit trail names them: 1 to 60 printable characters, unique.
    pub name: String,
    /// Their bearer token (no whitespace).
    pub token: String,
}

impl std::fmt::Debug for NamedArbiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The token is a secret: only the name.
        write!(f, "NamedArbiter({:?})", self.name)
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
    /// Client id stem: the daemon connects as `<client_id>-<16 random hex digits>`, new at each
    /// start, so that no other client can take its session by choosing its id. Default `goban-bridge`.
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
    /// Whether clients without a user name may subscribe to the embedded broker. Default true.
    /// Nobody but the daemon ever publishes under `prefix`.
    pub embedded_anonymous_read: bool,
    /// Named clients of the embedded broker (`[[mqtt.embedded_users]]`). Default none.
    pub embedded_users: Vec<EmbeddedUser>,
}

/// One `[[mqtt.embedded_users]]`: a client that logs in to the embedded broker.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EmbeddedUser {
    /// User name.
    pub username: String,
    /// Its password.
    pub password: String,
    /// Topic filters it may publish to (`+` and `#` allowed), never under `prefix`. Default none: it reads only.
    #[serde(default)]
    pub publish: Vec<String>,
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
            embedded_anonymous_read: true,
            embedded_users: Vec::new(),
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
    #[serde(deserialize_with = "super::types::parsed_list")]
    pub auto_sanction: Vec<InfractionKind>,
    /// The resignation signal (two own stones at one's lower-right corner, CN2002 终局):
    /// `{ enabled = true, reach = 1 }` by default; `reach` is how many lines from the corner
    /// point the stones may lie (0: the corner point only).
    pub resignation_signal: goban_referee::end_signals::ResignationSignal,
    /// Where the players lodge, which sets how late a player may start (CN2002 22.1-22.2):
    /// `"same_site"` (15 minutes, the default) or `"separate"` (1 hour).
    pub venue: goban_referee::clock::Venue,
    /// A late-start limit of the tournament's own, replacing the venue's figure, e.g. `"30m"`.
    pub late_limit: Option<Span>,
}

impl RefereeDefaults {
    /// The referee's venue: the tournament's own limit when set, else the venue's.
    pub fn late_venue(&self) -> goban_referee::clock::Venue {
        match self.late_limit {
            Some(limit) => goban_referee::clock::Venue::Limit(limit.as_ms()),
            None => self.venue,
        }
    }
}

impl Default for RefereeDefaults {
    fn default() -> Self {
        Self {
            settle_time: Span(std::time::Duration::from_millis(300)),
            port_skew: Span(std::time::Duration::ZERO),
            auto_sanction: Vec::new(),
            resignation_signal: goban_referee::end_signals::ResignationSignal::default(),
            venue: goban_referee::clock::Venue::SameSite,
            late_limit: None,
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
    #[serde(
        default = "super::types::default_board_size",
        deserialize_with = "super::types::board_size"
    )]
    pub size: BoardSize,
    /// Default `cn2002`.
    #[serde(default)]
    pub ruleset: Ruleset,
    /// Points; omitted: the ruleset's usual komi (cn2002 7.5).
    #[serde(default)]
    pub komi: Option<f64>,
    /// Handicap stones, 0 or 2..=9. Default 0.
    #[serde(default)]
    pub handicap: u8,
    /// api.md time-control grammar. Default `none`.
    #[serde(
        default = "no_time_control",
        deserialize_with = "super::time_control::deserialize"
    )]
    pub time_control: TimeControl,
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
    pub black_button: Button,
    /// Overrides `[referee] settle_time`.
    #[serde(default)]
    pub settle_time: Option<Span>,
    /// Overrides `[referee] auto_sanction`.
    #[serde(default, deserialize_with = "super::types::parsed_optional_list")]
    pub auto_sanction: Option<Vec<InfractionKind>>,
    /// The tournament table number this board stands on (`[tournament.tables]` may map it instead).
    #[serde(default)]
    pub table: Option<u32>,
}

fn default_baud() -> u32 {
    115_200
}

fn no_time_control() -> TimeControl {
    TimeControl::None
}

/// `"L"`: the clock sits on White's right (CN2002 12.1).
fn default_black_button() -> Button {
    Button::L
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
