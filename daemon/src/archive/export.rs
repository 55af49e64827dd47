//! `goban-bridge export`: the finished games as SGF files plus `index.csv` and `index.json`, into a directory or one zip.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::game::{ArchivedGame, read_games};
use super::naming::UniqueNames;

/// Why an export could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The journal could not be read.
    #[error("cannot read the journal {path}: {source}")]
    Journal {
        /// The journal file.
        path: PathBuf,
        /// SQLite's reason.
        source: rusqlite::Error,
    },
    /// A file could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The reason.
        source: std::io::Error,
    },
    /// The index could not be serialized.
    #[error("cannot write the index: {0}")]
    Index(String),
    /// The zip could not be assembled.
    #[error("cannot build the zip: {0}")]
    Zip(#[from] zip::result::ZipError),
}

/// One line of the index: a game and its file.
#[derive(Debug, Serialize)]
struct IndexRow<'a> {
    file: String,
    game: &'a str,
    board: &'a str,
    round: Option<u32>,
    table: Option<u32>,
    black: Option<&'a str>,
    white: Option<&'a str>,
    result: Option<&'a str>,
    moves: Option<u64>,
    alerts: usize,
    warnings_black: u32,
    warnings_white: u32,
    finished_at: Option<&'a str>,
}

/// What an export wrote.
#[derive(Debug, PartialEq, Eq)]
pub struct ExportReport {
    /// Games written.
    pub games: usize,
    /// The index files.
    pub index: Vec<PathBuf>,
}

/// Every file of an export, name and bytes, in order: the SGFs, then the two indexes.
fn export_files(games: &[ArchivedGame]) -> Result<Vec<(String, Vec<u8>)>, ExportError> {
    let mut names = UniqueNames::default();
    let mut files = Vec::with_capacity(games.len() + 2);
    let mut rows = Vec::with_capacity(games.len());
    for game in games {
        let file = format!("{}.sgf", names.next(&game.summary));
        files.push((file.clone(), game.sgf.clone().into_bytes()));
        let s = &game.summary;
        rows.push(IndexRow {
            file,
            game: &s.game,
            board: &s.board,
            round: s.round,
            table: s.table,
            black: s.black.as_deref(),
            white: s.white.as_deref(),
            result: s.result.as_deref(),
            moves: s.moves,
            alerts: game.alerts,
            warnings_black: game.warnings.black,
            warnings_white: game.warnings.white,
            finished_at: s.finished_at.as_deref(),
        });
    }
    let mut csv = csv::Writer::from_writer(Vec::new());
    for row in &rows {
        csv.serialize(row)
            .map_err(|e| ExportError::Index(e.to_string()))?;
    }
    let csv = csv
        .into_inner()
        .map_err(|e| ExportError::Index(e.to_string()))?;
    let json = serde_json::to_vec_pretty(&rows).map_err(|e| ExportError::Index(e.to_string()))?;
    files.push(("index.csv".into(), csv));
    files.push(("index.json".into(), json));
    Ok(files)
}

/// Writes every finished game of the journal at `journal` into `out` (created if needed).
pub fn export_journal(journal: &Path, out: &Path) -> Result<ExportReport, ExportError> {
    let games = read_games(journal).map_err(|source| ExportError::Journal {
        path: journal.to_path_buf(),
        source,
    })?;
    std::fs::create_dir_all(out).map_err(|source| ExportError::Write {
        path: out.to_path_buf(),
        source,
    })?;
    let files = export_files(&games)?;
    let mut index = Vec::new();
    for (name, bytes) in files {
        let path = out.join(&name);
        std::fs::write(&path, bytes).map_err(|source| ExportError::Write {
            path: path.clone(),
            source,
        })?;
        if name.starts_with("index.") {
            index.push(path);
        }
    }
    Ok(ExportReport {
        games: games.len(),
        index,
    })
}

/// The same export as one zip archive, for the arbiter's download.
pub fn write_zip(games: &[ArchivedGame]) -> Result<Vec<u8>, ExportError> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in export_files(games)? {
        zip.start_file(name, options)?;
        zip.write_all(&bytes).map_err(zip::result::ZipError::Io)?;
    }
    Ok(zip.finish()?.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::game::{GameSummary, Warnings};

    fn build_game(id: &str, round: Option<u32>, table: Option<u32>) -> ArchivedGame {
        ArchivedGame {
            summary: GameSummary {
                game: id.into(),
                board: "table-1".into(),
                black: Some("Ke, Jie".into()),
                white: Some("Shin".into()),
                result: Some("B+R".into()),
                moves: Some(211),
                finished_at: Some("2026-11-30T18:00:00.000Z".into()),
                round,
                table,
                ..GameSummary::default()
            },
            alerts: 2,
            warnings: Warnings { black: 1, white: 0 },
            sgf: format!("(;GM[1]FF[4]GN[{id}])"),
        }
    }

    #[test]
    fn files_are_the_games_then_a_csv_and_a_json_index() {
        let files = export_files(&[
            build_game("g1", Some(1), Some(4)),
            build_game("2026-11-30-table-1-2", None, None),
        ])
        .expect("export");
        let names: Vec<_> = files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "round-01-table-004.sgf",
                "2026-11-30-table-1-2.sgf",
                "index.csv",
                "index.json"
            ]
        );
        let csv = String::from_utf8(files[2].1.clone()).expect("utf-8");
        let mut lines = csv.lines();
        assert_eq!(
            lines.next(),
            Some(
                "file,game,board,round,table,black,white,result,moves,alerts,warnings_black,warnings_white,finished_at"
            )
        );
        // The comma in a name is quoted, not a new column.
        assert_eq!(
            lines.next(),
            Some(
                "round-01-table-004.sgf,g1,table-1,1,4,\"Ke, Jie\",Shin,B+R,211,2,1,0,2026-11-30T18:00:00.000Z"
            )
        );
        let json: serde_json::Value = serde_json::from_slice(&files[3].1).expect("json");
        assert_eq!(json[1]["file"], "2026-11-30-table-1-2.sgf");
        assert_eq!(json[1]["round"], serde_json::Value::Null);
    }

    #[test]
    fn the_zip_holds_every_file() {
        let bytes = write_zip(&[build_game("2026-11-30-table-1-1", None, None)]).expect("zip");
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("read zip");
        assert_eq!(zip.len(), 3, "two indexes and one game");
        assert!(zip.by_name("index.csv").is_ok() && zip.by_name("index.json").is_ok());
        let mut sgf = String::new();
        std::io::Read::read_to_string(
            &mut zip.by_name("2026-11-30-table-1-1.sgf").expect("sgf"),
            &mut sgf,
        )
        .expect("read");
        assert_eq!(sgf, "(;GM[1]FF[4]GN[2026-11-30-table-1-1])");
    }
}
