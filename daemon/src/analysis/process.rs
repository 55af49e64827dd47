//! An engine as a separate child process at low CPU priority (`nice`), its stdin and stdout lines for the drivers.

use std::process::Stdio;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

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
    /// Starts `command` (program first) under `nice -n <nice>` when `nice` is installed and
    /// `nice > 0`, with stderr discarded (engines chat there).
    pub fn spawn(command: &[String], nice: u8) -> Result<Self, EngineError> {
        let (program, args) = command.split_first().ok_or(EngineError::NoCommand)?;
        let mut builder = if nice > 0 && which_nice() {
            let mut niced = Command::new("nice");
            niced.arg("-n").arg(nice.to_string()).arg(program);
            niced
        } else {
            Command::new(program)
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

/// `nice` from coreutils, looked up once.
fn which_nice() -> bool {
    static FOUND: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FOUND.get_or_init(|| {
        std::env::var("PATH")
            .unwrap_or_default()
            .split(':')
            .any(|dir| std::path::Path::new(dir).join("nice").is_file())
    })
}
