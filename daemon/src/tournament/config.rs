//! `[tournament]` of goban-bridge.toml: the pairing system, how seated boards start, and where results go.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use goban_tournament::TableNo;
use goban_tournament::standings::System;
use serde::Deserialize;

use crate::config::{BoardConfig, BoardId, Span};

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
    pub shared_secret: Option<super::pairgoth_auth::SharedSecret>,
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

impl TournamentConfig {
    /// Table → board: `[tournament.tables]` first, then `table = N` on each
    /// `[[board]]`. Two boards claiming one table is an error naming both.
    pub fn table_map(&self, boards: &[BoardConfig]) -> Result<BTreeMap<TableNo, String>, String> {
        let mut map: BTreeMap<TableNo, String> = self
            .tables
            .iter()
            .map(|(k, b)| (TableNo(k.0), b.as_str().to_owned()))
            .collect();
        for board in boards {
            let Some(table) = board.table else { continue };
            let explicit = self.tables.contains_key(&TableKey(table));
            match map.get(&TableNo(table)) {
                Some(other) if !explicit && other != board.id.as_str() => {
                    return Err(format!(
                        "table {table} is claimed by boards {other} and {}",
                        board.id.as_str()
                    ));
                }
                Some(_) => {}
                None => {
                    map.insert(TableNo(table), board.id.as_str().to_owned());
                }
            }
        }
        let known: Vec<&str> = boards.iter().map(|b| b.id.as_str()).collect();
        if let Some((table, board)) = map.iter().find(|(_, b)| !known.contains(&b.as_str())) {
            return Err(format!(
                "[tournament.tables] maps table {table} to unknown board {board}"
            ));
        }
        Ok(map)
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
