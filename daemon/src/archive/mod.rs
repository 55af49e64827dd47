//! The event archive: every finished game of the journal as SGF with an index (`export`), and a copy of the journal that is safe to take while the daemon runs (`backup`).

mod backup;
pub mod command;
mod export;
mod game;
mod naming;

pub use backup::{BackupError, backup};
pub use export::{ExportError, ExportReport, export_journal, write_zip};
pub use game::{ArchivedGame, Seats, apply_seats, read_games, seated_games};
