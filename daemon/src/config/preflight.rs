//! What parsing cannot see and both `check-config` and `run` verify before anything starts: tokens, the journal's directory, serial paths, the embedded broker's users, the HTTP edge.

use std::path::Path;

use super::model::Config;

/// The verdict on a parsed config: errors stop `run` (and fail `check-config`), warnings are said.
#[derive(Debug, Default)]
pub struct Preflight {
    /// What makes the config unusable, one line each, naming the field.
    pub errors: Vec<String>,
    /// What may still be fine when the daemon runs (a board not plugged in yet).
    pub warnings: Vec<String>,
}

/// Checks `config` against the machine it will run on; opens and changes nothing.
pub fn preflight(config: &Config) -> Preflight {
    let mut verdict = Preflight::default();
    check_server(config, &mut verdict);
    check_journal(&config.journal.path, &mut verdict);
    check_serial(config, &mut verdict);
    check_embedded_users(config, &mut verdict);
    verdict
}

fn check_server(config: &Config, verdict: &mut Preflight) {
    let server = &config.server;
    if let Err(err) = crate::http::ArbiterTokens::new(server.arbiter_tokens.clone()) {
        verdict.errors.push(format!("server.arbiter_tokens: {err}"));
    }
    for (name, span) in [
        ("header_timeout", server.header_timeout),
        ("body_timeout", server.body_timeout),
        ("idle_timeout", server.idle_timeout),
    ] {
        if span.0.is_zero() {
            verdict
                .errors
                .push(format!("server.{name}: must be longer than zero"));
        }
    }
    if server.idle_timeout.0 <= crate::http::sse::KEEP_ALIVE {
        verdict.errors.push(format!(
            "server.idle_timeout: must be longer than the {:?} between SSE keep-alive comments",
            crate::http::sse::KEEP_ALIVE
        ));
    }
    if server.max_connections == 0 {
        verdict
            .errors
            .push("server.max_connections: must be at least 1".into());
    }
    let ancestors = &server.overlay_frame_ancestors;
    let usable = !ancestors.trim().is_empty()
        && !ancestors.contains([';', ','])
        && axum::http::HeaderValue::from_str(ancestors).is_ok();
    if !usable {
        verdict.errors.push(format!(
            "server.overlay_frame_ancestors: {ancestors:?} is not a CSP source list \
             (e.g. \"*\" or \"'self' https://studio.example\")"
        ));
    }
}

/// The journal's directory must exist and take a new file (SQLite adds `-wal` and `-shm` beside it).
fn check_journal(path: &Path, verdict: &mut Preflight) {
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        verdict.errors.push(format!(
            "journal.path: the directory {} does not exist",
            dir.display()
        ));
        return;
    }
    if let Err(err) = tempfile::Builder::new()
        .prefix(".goban-bridge-check-")
        .tempfile_in(dir)
    {
        verdict.errors.push(format!(
            "journal.path: cannot write in {}: {err}",
            dir.display()
        ));
    }
}

/// A missing serial path is a warning: the board runtime waits for the device to appear.
fn check_serial(config: &Config, verdict: &mut Preflight) {
    for board in &config.boards {
        let mut ports = vec![("board_port", &board.board_port)];
        if board.clock_port() != &board.board_port {
            ports.push(("clock_port", board.clock_port()));
        }
        for (field, port) in ports {
            if !port.exists() {
                verdict.warnings.push(format!(
                    "board {}: {field} {} does not exist (yet); the board waits for it",
                    board.id,
                    port.display()
                ));
            }
        }
    }
}

fn check_embedded_users(config: &Config, verdict: &mut Preflight) {
    let mqtt = &config.mqtt;
    let mut seen = std::collections::HashSet::new();
    for (index, user) in mqtt.embedded_users.iter().enumerate() {
        let at = format!("mqtt.embedded_users[{index}]");
        if user.username.is_empty() || user.password.is_empty() {
            verdict
                .errors
                .push(format!("{at}: username and password must not be empty"));
        }
        if !seen.insert(user.username.as_str()) {
            verdict
                .errors
                .push(format!("{at}: user {:?} is listed twice", user.username));
        }
        for filter in &user.publish {
            if let Err(why) = crate::broker::check_publish_grant(filter, &mqtt.prefix) {
                verdict
                    .errors
                    .push(format!("{at}.publish {filter:?}: {why}"));
            }
        }
    }
    if mqtt.url.is_some() && (!mqtt.embedded_users.is_empty() || !mqtt.embedded_anonymous_read) {
        verdict.warnings.push(
            "mqtt.embedded_users and embedded_anonymous_read apply to the embedded broker only; \
             with mqtt.url set, the broker's own configuration decides (deploy/mosquitto.conf)"
                .into(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build_config(extra: &str) -> Config {
        let mut text = format!("{extra}\n");
        if !extra.contains("[[board]]") {
            text.push_str("[[board]]\nid = \"t1\"\nboard_port = \"/dev/null\"\n");
        }
        super::super::parse(&text).expect("a valid config")
    }

    #[test]
    fn a_token_with_whitespace_is_an_error() {
        let config = build_config("[server]\narbiter_tokens = [\"ok\", \"a b\"]");
        let verdict = preflight(&config);
        assert!(
            verdict.errors.iter().any(|e| e.contains("arbiter_tokens")),
            "{verdict:?}"
        );
    }

    #[test]
    fn a_missing_journal_directory_is_an_error_and_a_missing_port_a_warning() {
        let config = build_config(
            "[journal]\npath = \"/nonexistent-goban-dir/j.sqlite\"\n\
             [[board]]\nid = \"t1\"\nboard_port = \"/dev/nonexistent-goban-port\"",
        );
        let verdict = preflight(&config);
        assert!(
            verdict.errors.iter().any(|e| e.contains("journal.path")),
            "{verdict:?}"
        );
        assert!(
            verdict.warnings.iter().any(|w| w.contains("board_port")),
            "{verdict:?}"
        );
    }

    #[test]
    fn a_grant_under_the_prefix_is_an_error() {
        let config = build_config(
            "[mqtt]\nembedded_users = [{ username = \"u\", password = \"p\", publish = [\"#\"] }]",
        );
        let verdict = preflight(&config);
        assert!(
            verdict.errors.iter().any(|e| e.contains("publish")),
            "{verdict:?}"
        );
    }
}
