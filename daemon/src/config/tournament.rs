//! `[tournament]` of goban-bridge.toml as plain values: the pairing system, how seated boards start, where results go; the desk interprets them.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use goban_tournament::standings::System;
use serde::Deserialize;

use super::{BoardId, Span};

/// `[tournament]`. Every field is optional; without the section the desk
/// still loads uploaded rounds and serves standings.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TournamentConfig {
    /// `"swiss"` (default; CN2002 27 method B) or `"round_robin"`.
    pub system: System,
    /// `"arbiter"` (default): a seated board waits for `POST /tournament/start`;
    /// `"clock"`: the game is set up at once and its time runs from the
    /// moment the players start the physical clock.
    pub start: StartMode,
    /// An OpenGotha tournament file: rounds load from it and confirmed
    /// results are written into it.
    pub opengotha_file: Option<PathBuf>,
    /// `[tournament.pairgoth]`: a Pairgoth server to load rounds from and push results to.
    pub pairgoth: Option<PairgothConfig>,
    /// `[tournament.tables]`: `"12" = "table-12"`, table number to board id;
    /// wins over `table = 12` on a `[[board]]`.
    pub tables: BTreeMap<TableKey, BoardId>,
    /// Event name written in each game's SGF `EV` (also of a `POST /game` without one and of an
    /// `autostart` game).
    pub event: Option<String>,
    /// Where the event is played, written in each game's SGF `PC`.
    pub place: Option<String>,
    /// Wait between two attempts to push a result to a target that was away. Default `"5s"`.
    pub retry: Span,
}

impl Default for TournamentConfig {
    fn default() -> Self {
        Self {
            system: System::Swiss,
            start: StartMode::Arbiter,
            opengotha_file: None,
            pairgoth: None,
            tables: BTreeMap::new(),
            event: None,
            place: None,
            retry: Span(Duration::from_secs(5)),
        }
    }
}

/// How a seated board's game starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StartMode {
    /// On the arbiter's `POST /tournament/start`.
    #[default]
    Arbiter,
    /// At once; the clock runs when the players start it.
    Clock,
}

/// `[tournament.pairgoth]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairgothConfig {
    /// API root, e.g. `"http://127.0.0.1:8080/api"`.
    pub url: String,
    /// Pairgoth tournament id.
    pub tournament: u64,
    /// `"none"` (default, Pairgoth's `auth = none`) or `"token"`: Pairgoth's
    /// challenge at `tour/token` with its shared secret (any other `auth` of Pairgoth).
    #[serde(default)]
    pub auth: PairgothAuthMode,
    /// Pairgoth's `auth.shared_secret` (16 ASCII characters), for `auth = "token"`.
    #[serde(default)]
    pub shared_secret: Option<SharedSecret>,
    /// The e-mail the token is asked for (Pairgoth records it with the access key).
    #[serde(default = "default_email")]
    pub email: String,
    /// A fixed `Authorization` value, for a proxy in front of Pairgoth (`auth = "none"` only).
    #[serde(default)]
    pub authorization: Option<String>,
    /// Per-request timeout. Default `"10s"`.
    #[serde(default = "default_timeout")]
    pub timeout: Span,
}

/// How the daemon authenticates to Pairgoth's API.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PairgothAuthMode {
    /// No authentication (Pairgoth's `auth = none`), or a fixed header.
    #[default]
    None,
    /// Pairgoth's token flow with the shared secret.
    Token,
}

/// Pairgoth's shared secret: `sharedSecret` (`pairgoth-common/.../web/Shared.kt`)
/// must be 16 ASCII characters. Read from the config as text, checked there; the
/// tournament desk signs with it (`tournament/pairgoth_auth.rs`).
#[derive(Clone, Deserialize)]
#[serde(try_from = "String")]
pub struct SharedSecret(pub(crate) [u8; 16]);

impl TryFrom<String> for SharedSecret {
    type Error = String;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        Self::new(&text)
    }
}

impl std::fmt::Debug for SharedSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SharedSecret(..)")
    }
}

impl SharedSecret {
    /// The secret of Pairgoth's `auth.shared_secret`.
    ///
    /// # Errors
    /// The reason, when it is not 16 ASCII characters (Pairgoth refuses to start then).
    pub fn new(text: &str) -> Result<Self, String> {
        let bytes: [u8; 16] = text
            .as_bytes()
            .try_into()
            .ok()
            .filter(|_| text.is_ascii())
            .ok_or_else(|| {
                format!(
                    "shared_secret must be 16 ASCII characters, as Pairgoth's auth.shared_secret (got {})",
                    text.len()
                )
            })?;
        Ok(Self(bytes))
    }
}

fn default_email() -> String {
    "goban-bridge".into()
}

fn default_timeout() -> Span {
    Span(Duration::from_secs(10))
}

/// A table number written as a TOML key (`"12"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(try_from = "String")]
pub struct TableKey(pub u32);

impl TryFrom<String> for TableKey {
    type Error = String;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        match text.trim().parse::<u32>() {
            Ok(n) if n > 0 => Ok(Self(n)),
            _ => Err(format!("table {text:?} is not a table number (1, 2, ...)")),
        }
    }
}

#[cfg(test)]
mod pairgoth_tests {
    use super::*;

    #[test]
    fn the_shared_secret_is_checked_when_the_config_is_read() {
        let read = |secret: &str| {
            toml::from_str::<PairgothConfig>(&format!(
                "url = \"http://pg:8085/api\"\ntournament = 1\nauth = \"token\"\nshared_secret = \"{secret}\"\n"
            ))
        };
        let short = read("short").map(|_| ()).unwrap_err().to_string();
        assert!(short.contains("16 ASCII characters"), "{short}");
        let config = read("0123456789abcdef").expect("a 16-character secret");
        assert_eq!(config.auth, PairgothAuthMode::Token);
        assert_eq!(config.email, "goban-bridge");
    }
}
