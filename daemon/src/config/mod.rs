//! The daemon configuration: loading goban-bridge.toml, the documented default, and arbiter tokens from the environment.

mod listen;
mod load;
mod model;
mod mqtt_url;
mod preflight;
mod time_control;
mod tournament;
mod types;

use std::path::Path;

pub use listen::parse as parse_listen;
pub use load::{ConfigErrors, ConfigIssue, parse};
pub use model::*;
pub use mqtt_url::MqttUrl;
pub use preflight::{Preflight, preflight};
pub use tournament::{
    PairgothAuthMode, PairgothConfig, SharedSecret, StartMode, TableKey, TournamentConfig,
};
pub use types::{BoardId, Retention, Span};

/// The documented default configuration, the same bytes as `deploy/goban-bridge.toml`.
pub const DEFAULT_CONFIG: &str = include_str!("../../../deploy/goban-bridge.toml");

/// Env var with extra arbiter tokens, comma separated (api.md "Configuration").
pub const TOKENS_ENV: &str = "GOBAN_ARBITER_TOKENS";

/// Why a config could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// The OS error.
        source: std::io::Error,
    },
    /// The file was read but is not a valid config.
    #[error("{path} is not a valid goban-bridge config:\n{errors}")]
    Invalid {
        /// The file.
        path: String,
        /// Every problem, with line and field.
        errors: ConfigErrors,
    },
}

/// Read and parse a config file, then add tokens from `GOBAN_ARBITER_TOKENS`.
pub fn load(path: &Path) -> Result<Config, LoadError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| LoadError::Read {
        path: shown.clone(),
        source,
    })?;
    let mut config = parse(&text).map_err(|errors| LoadError::Invalid {
        path: shown,
        errors,
    })?;
    add_env_tokens(&mut config, std::env::var(TOKENS_ENV).ok().as_deref());
    Ok(config)
}

/// Append the comma-separated tokens of `env` (blank entries ignored, no duplicates).
pub fn add_env_tokens(config: &mut Config, env: Option<&str>) {
    for token in env
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
    {
        if !config
            .server
            .arbiter_tokens
            .iter()
            .any(|known| known == token)
        {
            config.server.arbiter_tokens.push(token.to_owned());
        }
    }
}

#[cfg(test)]
mod tests;
