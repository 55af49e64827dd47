//! An engine as a separate child process at low CPU priority (`SCHED_IDLE` or `nice`), its stdin and stdout lines for the drivers.

use std::process::Stdio;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

use super::config::Priority;

/// Why an engine could not be used.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The command line is empty.
    #[error("the engine's command is empty")]
    NoCommand,
    /// The process could not be started.
    #[error("cannot start {program}: {source}")]
    Spawn {
        /// The program.
        program: String,
        /// The OS error.
        source: std::io::Error,
    },
    /// Reading or writing its pipes failed.
    #[error("engine pipe: {0}")]
    Pipe(#[from] std::io::Error),
    /// It closed its output (it exited or crashed).
    #[error("the engine exited")]
    Exited,
    /// It did not answer within the budget.
    #[error("the engine did not answer within {0:?}")]
    TooSlow(std::time::Duration),
    /// It answered something the driver cannot use.
    #[error(transparent)]
    Gtp(#[from] super::gtp::GtpError),
    /// KataGo said no.
    #[error("KataGo: {0}")]
    Katago(String),
}

/// A running engine process; killed when dropped.
pub struct EngineProcess {
    /// Kept so the process dies with the driver (`kill_on_drop`).
    child: Child,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
}

impl EngineProcess {
    /// Starts `command` (program first) at `priority` (see [`launcher`]), with stderr
    /// discarded (engines chat there).
    pub fn spawn(command: &[String], priority: Priority) -> Result<Self, EngineError> {
        let (program, args) = command.split_first().ok_or(EngineError::NoCommand)?;
        let launch = launcher(priority, installed);
        let mut builder = match launch.split_first() {
            Some((wrapper, wrapper_args)) => {
                let mut wrapped = Command::new(wrapper);
                wrapped.args(wrapper_args).arg(program);
                wrapped
            }
            None => Command::new(program),
        };
        builder
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true);
        let mut child = builder.spawn().map_err(|source| EngineError::Spawn {
            program: program.clone(),
            source,
        })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(EngineError::Exited);
        };
        Ok(Self {
            child,
            stdin,
            lines: BufReader::new(stdout).lines(),
        })
    }

    /// Writes `text` (already ended by a newline) and flushes.
    pub async fn send(&mut self, text: &str) -> Result<(), EngineError> {
        self.stdin.write_all(text.as_bytes()).await?;
        self.stdin.flush().await?;
        Ok(())
    }

    /// The next line of output; [`EngineError::Exited`] at its end.
    pub async fn next_line(&mut self) -> Result<String, EngineError> {
        self.lines.next_line().await?.ok_or(EngineError::Exited)
    }

    /// Splits the process into its writer and its reader (KataGo answers in any order).
    pub fn split(self) -> (Child, ChildStdin, Lines<BufReader<ChildStdout>>) {
        (self.child, self.stdin, self.lines)
    }
}

/// The words put before the engine's command line for `priority`: `chrt --idle 0` (Linux's
/// `SCHED_IDLE`, util-linux) when asked and installed, else `nice -n <nice>` (coreutils) when
/// asked and installed, else nothing. The workspace forbids `unsafe`, so the policy is set by
/// these programs rather than by a `pre_exec` hook.
pub(crate) fn launcher(priority: Priority, found: impl Fn(&str) -> bool) -> Vec<String> {
    if priority.idle && found("chrt") {
        return ["chrt", "--idle", "0"].map(String::from).to_vec();
    }
    if priority.nice > 0 && found("nice") {
        return vec!["nice".into(), "-n".into(), priority.nice.to_string()];
    }
    Vec::new()
}

/// Whether `program` is on `PATH` (read at each engine start, which is rare).
fn installed(program: &str) -> bool {
    std::env::var("PATH")
        .unwrap_or_default()
        .split(':')
        .any(|dir| std::path::Path::new(dir).join(program).is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    const IDLE: Priority = Priority {
        idle: true,
        nice: 19,
    };
    const NICE: Priority = Priority {
        idle: false,
        nice: 19,
    };

    #[test]
    fn idle_goes_first_then_nice_then_nothing() {
        assert_eq!(launcher(IDLE, |_| true), ["chrt", "--idle", "0"]);
        assert_eq!(launcher(IDLE, |p| p == "nice"), ["nice", "-n", "19"]);
        assert_eq!(launcher(NICE, |_| true), ["nice", "-n", "19"]);
        assert!(
            launcher(
                Priority {
                    idle: false,
                    nice: 0
                },
                |_| true
            )
            .is_empty()
        );
        assert!(launcher(IDLE, |_| false).is_empty());
    }

    /// The real `chrt` on this machine puts a real child under `SCHED_IDLE`.
    #[tokio::test]
    async fn a_child_under_chrt_runs_at_idle_policy() {
        if !installed("chrt") {
            eprintln!("skipped: chrt (util-linux) is not installed");
            return;
        }
        let command = ["sh", "-c", "cat /proc/self/sched; sleep 5"].map(String::from);
        let mut process = EngineProcess::spawn(&command, IDLE).expect("spawns");
        let mut policy = None;
        while let Ok(line) = process.next_line().await {
            if line.starts_with("policy") {
                policy = line.rsplit(':').next().map(|v| v.trim().to_owned());
                break;
            }
        }
        // SCHED_IDLE is policy 5 in Linux's sched.h.
        assert_eq!(policy.as_deref(), Some("5"));
    }
}
