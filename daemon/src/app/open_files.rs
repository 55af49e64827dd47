//! The process's limit of open files, raised at start to all the system allows.
//!
//! A hall holds about three descriptors a board (the board's and the clock's serial ports, the
//! board's alarm) besides the journal, the broker and every HTTP client. A service manager
//! usually starts a service with a soft limit of 1,024 (systemd's default, under a hard limit
//! of 524,288): a 512-board hall needs about 1,570, and its ports past the limit would fail to
//! open with "too many open files". The soft limit is the process's own to raise up to the hard
//! one, as Go's runtime does for every program since Go 1.19.

use std::sync::OnceLock;

/// Descriptors a hall of `boards` needs besides its HTTP clients: three a board, and the
/// journal's files, the broker's and the listeners' sockets.
pub(crate) fn needed(boards: usize) -> u64 {
    u64::try_from(boards)
        .unwrap_or(u64::MAX)
        .saturating_mul(3)
        .saturating_add(64)
}

/// What [`raise`] did, kept until the log is set up ([`report`]).
static RAISED: OnceLock<Result<Limits, String>> = OnceLock::new();

/// Raise the soft limit to the hard one, once per process: the first thing the daemon does,
/// before it reads its config or opens anything. What it did (or why it could not).
pub fn raise() -> &'static Result<Limits, String> {
    RAISED.get_or_init(|| raise_soft_limit().map_err(|err| err.to_string()))
}

/// Say in the log what [`raise`] did (raising it now if it was not), and warn when even the
/// hard limit is below what a hall of `boards` needs.
pub(crate) fn report(boards: usize) {
    match raise() {
        Ok(Limits { before, now }) => {
            if now > before {
                tracing::info!(from = before, to = now, "raised the limit of open files");
            }
            warn_if_short(*now, needed(boards));
        }
        Err(err) => {
            tracing::warn!(cause = %err, "could not read or raise the limit of open files");
        }
    }
}

fn warn_if_short(limit: u64, need: u64) {
    if limit < need {
        tracing::warn!(
            limit,
            need,
            "the limit of open files is below what these boards need: ports past it will not \
             open (raise LimitNOFILE in the service, or `ulimit -n` in the shell)"
        );
    }
}

/// The soft limit of open files before and after [`raise`].
#[derive(Debug)]
pub struct Limits {
    /// As the process was started with.
    pub before: u64,
    /// Now.
    pub now: u64,
}

fn raise_soft_limit() -> nix::Result<Limits> {
    use nix::sys::resource::{Resource, getrlimit, setrlimit};
    let (before, maximum) = getrlimit(Resource::RLIMIT_NOFILE)?;
    if before >= maximum {
        return Ok(Limits {
            before,
            now: before,
        });
    }
    setrlimit(Resource::RLIMIT_NOFILE, maximum, maximum)?;
    let (now, _) = getrlimit(Resource::RLIMIT_NOFILE)?;
    Ok(Limits { before, now })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hall_of_512_boards_needs_more_than_a_service_managers_usual_1024() {
        assert!(needed(512) > 1_024);
        assert_eq!(needed(0), 64);
    }
}
