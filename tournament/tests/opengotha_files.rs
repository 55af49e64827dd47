//! Every real OpenGotha file with games loads, except those OpenGotha's own import refuses, each with its reason.
//!
//! The files are not in the repository (they belong to their authors):
//! `GOBAN_OPENGOTHA_FILES` names a directory searched recursively for
//! `*.xml` (for instance OpenGotha's `remote/` and `tournamentfiles/` and
//! Pairgoth's `api-webapp/src/test/resources/opengotha/`). Without it the
//! test prints `skipped: ...` and passes, also under `CI=true`: CI has no
//! copy of those files to give it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use goban_tournament::TournamentError;
use goban_tournament::opengotha::{OpenGothaTournament, write_results};

fn xml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            xml_files(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("xml"))
        {
            out.push(path);
        }
    }
}

/// Whether OpenGotha's import (`ExternalDocument.importTournamentFromXMLFile`) fails on
/// this file too: a document its parser refuses, a number `Integer.parseInt` refuses,
/// or a player its `Player` constructor refuses (empty name or first name).
fn opengotha_refuses_too(error: &TournamentError) -> bool {
    match error {
        TournamentError::Xml(_) => true,
        TournamentError::BadField { field, .. } => *field == "Player",
        _ => false,
    }
}

#[test]
fn every_real_opengotha_file_with_games_loads() {
    let Some(dir) = std::env::var_os("GOBAN_OPENGOTHA_FILES") else {
        println!("skipped: GOBAN_OPENGOTHA_FILES is not set (a directory of real OpenGotha files)");
        return;
    };
    let mut files = Vec::new();
    xml_files(Path::new(&dir), &mut files);
    files.sort();
    let (mut with_games, mut loaded, mut games, mut left_out) = (0, 0, 0, 0);
    let mut refused: Vec<(PathBuf, String)> = Vec::new();
    let mut wrong: Vec<(PathBuf, String)> = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).expect("read");
        let text = String::from_utf8_lossy(&bytes);
        if !text.contains("<Game ") {
            continue;
        }
        with_games += 1;
        match OpenGothaTournament::parse(&text) {
            Ok(t) => {
                loaded += 1;
                games += t.games().len();
                left_out += t.skipped().len();
                if let Some(first) = t.skipped().first() {
                    println!(
                        "  {}: {} left out, first: round {}: {}",
                        path.display(),
                        t.skipped().len(),
                        first.round,
                        first.reason
                    );
                }
                check_rounds_and_write_back(&t, &text, path);
            }
            Err(e) if opengotha_refuses_too(&e) => refused.push((path.clone(), e.to_string())),
            Err(e) => wrong.push((path.clone(), e.to_string())),
        }
    }
    println!(
        "{} xml files, {with_games} with games: {loaded} loaded ({games} games, {left_out} games/byes/players left out as OpenGotha leaves them), {} refused as OpenGotha refuses them, {} refused wrongly",
        files.len(),
        refused.len(),
        wrong.len()
    );
    for (path, why) in refused.iter().chain(&wrong) {
        println!("  refused {}: {why}", path.display());
    }
    assert!(with_games > 0, "no file with games under {dir:?}");
    assert!(
        wrong.is_empty(),
        "refused although OpenGotha imports them: {wrong:#?}"
    );
}

/// Each round of a loaded file can be read as a round or says why not, and
/// writing its results back changes only `result` attributes.
fn check_rounds_and_write_back(t: &OpenGothaTournament, text: &str, path: &Path) {
    let mut last: BTreeMap<u32, u32> = BTreeMap::new();
    for g in t.games() {
        last.insert(g.round, g.pairing.table.0);
    }
    let Some((&round, &table)) = last.iter().next_back() else {
        return;
    };
    let wanted = BTreeMap::from([(
        (round, goban_tournament::TableNo(table)),
        goban_tournament::Decision::played(goban_tournament::Outcome::Draw),
    )]);
    let written = write_results(text, &wanted)
        .unwrap_or_else(|e| panic!("{}: results not written: {e}", path.display()));
    let again = OpenGothaTournament::parse(&written)
        .unwrap_or_else(|e| panic!("{}: written file unreadable: {e}", path.display()));
    assert_eq!(again.games().len(), t.games().len(), "{}", path.display());
}
