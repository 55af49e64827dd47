//! The corpus games the suite plays: real 19x19 games, and handicap games for the next-game scenarios.

use goban_hardware::sim::SimGame;
use std::path::{Path, PathBuf};

/// A game and its komi.
#[derive(Clone)]
pub(crate) struct CorpusGame {
    pub(crate) game: SimGame,
    pub(crate) komi: f64,
}

/// The corpus directory, or `None` (printing that the suite skipped) when unset outside CI.
pub(crate) fn corpus_dir() -> Option<PathBuf> {
    match std::env::var("GOBAN_CORPUS") {
        Ok(dir) => Some(PathBuf::from(dir)),
        Err(_) if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("GOBAN_CORPUS is not set: CI must point it at the shared corpus")
        }
        Err(_) => {
            eprintln!("skipped: GOBAN_CORPUS is not set (export GOBAN_CORPUS=../shared/corpus)");
            None
        }
    }
}

/// The `.sgf` files under `dir`, recursively, sorted.
fn sgf_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
            if path.is_dir() {
                todo.push(path);
            } else if path
                .extension()
                .is_some_and(|x| x.eq_ignore_ascii_case("sgf"))
            {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Up to `limit` playable 19x19 games of at least 50 moves from `dir`, in file order, keeping
/// those `keep` accepts (given the SGF text).
fn load(dir: &Path, limit: usize, keep: impl Fn(&str) -> bool) -> Vec<CorpusGame> {
    let mut out = Vec::new();
    for file in sgf_files(dir) {
        if out.len() >= limit {
            break;
        }
        let Ok(bytes) = std::fs::read(&file) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes).into_owned();
        if !keep(&text) {
            continue;
        }
        let name = file
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let Ok(games) = SimGame::from_sgf(&text, &name) else {
            continue;
        };
        let komi = goban_rules::sgf::read_sgf(&text)
            .ok()
            .and_then(|g| g.first().map(|g| g.setup.komi))
            .unwrap_or(7.5);
        out.extend(
            games
                .into_iter()
                .filter(|g| g.size == 19 && g.moves.len() >= 50 && g.final_board().is_ok())
                .map(|game| CorpusGame { game, komi }),
        );
    }
    out.truncate(limit);
    out
}

/// Even games by AlphaGo (`ai-19x19`).
pub(crate) fn even_games(corpus: &Path, limit: usize) -> Vec<CorpusGame> {
    let games = load(&corpus.join("ai-19x19"), limit, |_| true);
    assert!(
        !games.is_empty(),
        "no ai-19x19 game read from {}",
        corpus.display()
    );
    games
}

/// Handicap games (2 to 9 stones) of GNU Go's regression suite.
pub(crate) fn handicap_games(corpus: &Path, limit: usize) -> Vec<CorpusGame> {
    let dir = corpus.join("gnugo-regression").join("games");
    let games = load(&dir, limit, |text| {
        (2..=9).any(|n| text.contains(&format!("HA[{n}]")))
    });
    let games: Vec<CorpusGame> = games
        .into_iter()
        .filter(|g| !g.game.setup.is_empty())
        .collect();
    assert!(
        !games.is_empty(),
        "no handicap game read from {}",
        dir.display()
    );
    games
}
