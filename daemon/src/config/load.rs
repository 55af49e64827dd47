//! Reads goban-bridge.toml section by section, collecting every error with its line and field.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::ops::Range;
use std::path::PathBuf;

use serde::de::DeserializeOwned;
use toml::Spanned;
use toml::de::{DeTable, DeValue, ValueDeserializer};

use super::model::{BoardConfig, Config};

/// One problem in a config file, located.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigIssue {
    /// 1-based line, 0 when the whole file is concerned.
    pub line: usize,
    /// Dotted path of the field, e.g. `board[2].komi`.
    pub field: String,
    /// What is wrong and what would be right.
    pub message: String,
}

impl fmt::Display for ConfigIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.field, self.message)
        } else {
            write!(
                f,
                "line {}, field {}: {}",
                self.line, self.field, self.message
            )
        }
    }
}

/// Every problem found in a config file.
#[derive(Clone, Debug, thiserror::Error)]
#[error("{}", render(.0))]
pub struct ConfigErrors(pub Vec<ConfigIssue>);

fn render(issues: &[ConfigIssue]) -> String {
    issues
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Parse a whole config text; every error is reported, not just the first.
pub fn parse(text: &str) -> Result<Config, ConfigErrors> {
    let root =
        DeTable::parse(text).map_err(|err| ConfigErrors(vec![issue(text, "(syntax)", &err)]))?;
    let mut reader = Reader {
        text,
        issues: Vec::new(),
    };
    let mut table = root.into_inner();
    for (key, _) in table.iter() {
        let name = key.get_ref().as_ref();
        if ![
            "server",
            "journal",
            "mqtt",
            "referee",
            "log",
            "board",
            "tournament",
            "analysis",
        ]
        .contains(&name)
        {
            reader.push(
                key.span(),
                name,
                "unknown section; expected server, journal, mqtt, referee, log, tournament, analysis or [[board]]",
            );
        }
    }
    let server = reader.section(table.remove("server"), "server");
    let journal = reader.section(table.remove("journal"), "journal");
    let mqtt = reader.section(table.remove("mqtt"), "mqtt");
    let referee = reader.section(table.remove("referee"), "referee");
    let log = reader.section(table.remove("log"), "log");
    let boards = reader.boards(table.remove("board"));
    let tournament = reader.section(table.remove("tournament"), "tournament");
    let analysis = reader.section(table.remove("analysis"), "analysis");
    match (
        (server, journal, mqtt),
        (referee, log, tournament, analysis),
        reader.issues.is_empty(),
    ) {
        (
            (Some(server), Some(journal), Some(mqtt)),
            (Some(referee), Some(log), Some(tournament), Some(analysis)),
            true,
        ) => Ok(Config {
            server,
            journal,
            mqtt,
            referee,
            log,
            boards,
            tournament,
            analysis,
        }),
        _ => Err(ConfigErrors(reader.issues)),
    }
}

struct Reader<'t> {
    text: &'t str,
    issues: Vec<ConfigIssue>,
}

impl Reader<'_> {
    fn push(&mut self, span: Range<usize>, field: &str, message: &str) {
        self.issues.push(ConfigIssue {
            line: line_of(self.text, span.start),
            field: field.to_owned(),
            message: message.to_owned(),
        });
    }

    /// A missing section takes its defaults.
    fn section<T: DeserializeOwned + Default>(
        &mut self,
        value: Option<Spanned<DeValue<'_>>>,
        name: &str,
    ) -> Option<T> {
        let Some(value) = value else {
            return Some(T::default());
        };
        self.value(value, name)
    }

    /// Deserialize a table; on an error, drop the offending key and try again,
    /// so every bad field of the table is reported, not just the first.
    fn value<T: DeserializeOwned>(
        &mut self,
        mut value: Spanned<DeValue<'_>>,
        name: &str,
    ) -> Option<T> {
        let span = value.span();
        let mut removed: Vec<String> = Vec::new();
        for _ in 0..64 {
            let err = match T::deserialize(ValueDeserializer::from(value.clone())) {
                Ok(parsed) => return removed.is_empty().then_some(parsed),
                Err(err) => err,
            };
            // Only "missing field `k`" follows from removing `k`; an "unknown
            // field" message lists every expected key, removed ones included.
            if removed
                .iter()
                .any(|key| err.message().contains(&format!("missing field `{key}`")))
            {
                return None; // only the consequence of a key already reported
            }
            let mut found = issue(self.text, name, &err);
            if err.span().is_none() {
                found.line = line_of(self.text, span.start);
            }
            self.issues.push(found);
            let key = err.span().and_then(|s| key_on_line(self.text, s.start));
            let (Some(key), DeValue::Table(table)) = (key, value.get_mut()) else {
                return None;
            };
            table.remove(key.as_str())?;
            removed.push(key);
        }
        None
    }

    fn boards(&mut self, value: Option<Spanned<DeValue<'_>>>) -> Vec<BoardConfig> {
        let Some(value) = value else {
            self.issues.push(ConfigIssue {
                line: 0,
                field: "board".into(),
                message: "no [[board]] configured; add at least one".into(),
            });
            return Vec::new();
        };
        let span = value.span();
        let DeValue::Array(items) = value.into_inner() else {
            self.push(span, "board", "write each board as a [[board]] table");
            return Vec::new();
        };
        let mut boards = Vec::new();
        let mut ids = BTreeSet::new();
        let mut ports = PortOwners::default();
        for (index, item) in items.into_iter().enumerate() {
            let item_span = item.span();
            let field = format!("board[{}]", index + 1);
            if let Some(board) = self.value::<BoardConfig>(item, &field) {
                if !ids.insert(board.id.clone()) {
                    self.push(
                        item_span.clone(),
                        &format!("{field}.id"),
                        &format!("board id {:?} is used twice", board.id.as_str()),
                    );
                }
                if let Some(clash) = ports.claim(&board) {
                    self.push(
                        item_span.clone(),
                        &format!("{field}.{}", clash.field),
                        &clash.message,
                    );
                }
                if board.handicap == 1 || board.handicap > 9 {
                    self.push(
                        item_span,
                        &format!("{field}.handicap"),
                        "handicap is 0 or 2 to 9 stones",
                    );
                }
                boards.push(board);
            }
        }
        boards
    }
}

/// Which board holds each serial port: one port belongs to one board (its board and
/// clock may share it). Paths are compared after resolving links when they exist, so
/// `/dev/serial/by-id/...` and the `/dev/ttyACM0` it points to are the same port.
#[derive(Default)]
struct PortOwners {
    owners: BTreeMap<PathBuf, (String, &'static str)>,
}

/// A port claimed twice: the field of the second claim and the explanation.
struct PortClash {
    field: &'static str,
    message: String,
}

impl PortOwners {
    fn claim(&mut self, board: &BoardConfig) -> Option<PortClash> {
        let mut clash = None;
        let ports = [
            ("board_port", &board.board_port),
            ("clock_port", board.clock_port()),
        ];
        for (field, path) in ports {
            let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
            match self.owners.get(&key) {
                Some((owner, owner_field)) if owner != board.id.as_str() => {
                    clash.get_or_insert(PortClash {
                        field,
                        message: format!(
                            "serial port {} is already the {owner_field} of board {owner:?}; \
                             two boards cannot share a port (a board and its own clock can)",
                            path.display()
                        ),
                    });
                }
                Some(_) => {}
                None => {
                    self.owners
                        .insert(key, (board.id.as_str().to_owned(), field));
                }
            }
        }
        clash
    }
}

/// An issue from a toml error: its span gives the line, the key on that line names the field.
fn issue(text: &str, section: &str, err: &toml::de::Error) -> ConfigIssue {
    let (line, key) = match err.span() {
        Some(span) => (line_of(text, span.start), key_on_line(text, span.start)),
        None => (0, None),
    };
    let field = match key {
        Some(key) if section != "(syntax)" => format!("{section}.{key}"),
        _ => section.to_owned(),
    };
    ConfigIssue {
        line,
        field,
        message: err.message().trim().to_owned(),
    }
}

fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()
        .iter()
        .take(offset)
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

fn key_on_line(text: &str, offset: usize) -> Option<String> {
    let start = text[..offset.min(text.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let line = text[start..].lines().next()?;
    let (key, _) = line.split_once('=')?;
    let key = key.trim();
    (!key.is_empty() && !key.starts_with('[')).then(|| key.trim_matches('"').to_owned())
}
