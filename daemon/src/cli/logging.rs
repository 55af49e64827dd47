//! Log set-up: tracing to stderr, human-readable or JSON lines, filtered by `RUST_LOG` or the config.

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

use crate::config::LogFormat;

/// Install the global subscriber once. The embedded broker's per-connection
/// chatter (rumqttd logs every ordinary disconnect as an error) is silenced
/// unless `RUST_LOG` asks for it by name.
pub(super) fn init(format: LogFormat, filter: &str) {
    let from_env = std::env::var("RUST_LOG")
        .ok()
        .filter(|v| !v.trim().is_empty());
    let mut directives = from_env.clone().unwrap_or_else(|| filter.to_owned());
    if !directives.contains("rumqttd") {
        directives.push_str(",rumqttd=off");
    }
    let filter =
        EnvFilter::try_new(&directives).unwrap_or_else(|_| EnvFilter::new("info,rumqttd=off"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(colour_wanted(
            std::io::stderr().is_terminal(),
            std::env::var_os("NO_COLOR").as_deref(),
        ))
        .with_writer(std::io::stderr);
    // A second init (tests) keeps the first subscriber.
    let _ = match format {
        LogFormat::Json => builder
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .try_init(),
        LogFormat::Text => builder.try_init(),
    };
}

/// Colour codes only for a person at a terminal: never into a file, a pipe or journald,
/// and never when `NO_COLOR` is set to anything but the empty string (no-color.org).
fn colour_wanted(terminal: bool, no_color: Option<&std::ffi::OsStr>) -> bool {
    terminal && no_color.is_none_or(|v| v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_needs_a_terminal_and_no_no_color() {
        let set = Some(std::ffi::OsStr::new("1"));
        let empty = Some(std::ffi::OsStr::new(""));
        assert!(colour_wanted(true, None));
        assert!(colour_wanted(true, empty));
        assert!(!colour_wanted(true, set));
        assert!(!colour_wanted(false, None));
    }
}
