//! The `export` and `backup` subcommands: which journal to read (a file, or the one a config names), and what to tell the operator.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

/// Which journal to read.
#[derive(Debug, Args)]
#[group(required = true, multiple = false)]
pub struct JournalSource {
    /// The journal file (SQLite).
    #[arg(long)]
    pub journal: Option<PathBuf>,
    /// A daemon config; its `[journal] path` is used, relative to the working directory as for `run`.
    #[arg(long)]
    pub config: Option<PathBuf>,
}

impl JournalSource {
    fn resolve(&self) -> Result<PathBuf, String> {
        match (&self.journal, &self.config) {
            (Some(path), _) => Ok(path.clone()),
            (None, Some(config)) => crate::config::load(config)
                .map(|c| c.journal.path)
                .map_err(|err| err.to_string()),
            (None, None) => Err("name --journal or --config".into()),
        }
    }
}

fn journal_exists(path: &Path) -> Result<(), String> {
    if path.is_file() {
        Ok(())
    } else {
        Err(format!("no journal at {}", path.display()))
    }
}

fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("goban-bridge: {message}");
    ExitCode::FAILURE
}

/// `goban-bridge export --out DIR`.
pub fn run_export(source: &JournalSource, out: &Path) -> ExitCode {
    let journal = match source
        .resolve()
        .and_then(|p| journal_exists(&p).map(|()| p))
    {
        Ok(journal) => journal,
        Err(message) => return fail(message),
    };
    match super::export_journal(&journal, out) {
        Ok(report) => {
            println!(
                "{} finished game(s) written to {} (index: {})",
                report.games,
                out.display(),
                report
                    .index
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            ExitCode::SUCCESS
        }
        Err(err) => fail(err),
    }
}

/// `goban-bridge backup --out FILE`.
pub fn run_backup(source: &JournalSource, out: &Path) -> ExitCode {
    let journal = match source
        .resolve()
        .and_then(|p| journal_exists(&p).map(|()| p))
    {
        Ok(journal) => journal,
        Err(message) => return fail(message),
    };
    match super::backup(&journal, out) {
        Ok(bytes) => {
            println!(
                "journal {} copied to {} ({bytes} bytes)",
                journal.display(),
                out.display()
            );
            ExitCode::SUCCESS
        }
        Err(err) => fail(err),
    }
}
