//! Replays the corpus: every ai-19x19 game and the 9/13/19 game files of GNU Go's suite.
mod common;

use std::path::Path;

use goban_rules::sgf::read_sgf;
use goban_rules::{KoRule, RulesError};

/// Records that are themselves broken and cannot be replayed: each must still fail.
/// (`nightmare.sgf` is an empty file.) No record of the corpus holds an illegal move.
const BROKEN: &[&str] = &["gnugo-regression/games/pending/nightmare.sgf"];

/// Damaged records (truncated, a trailing empty node, a stray `]`) that `sgf-parse` reads
/// only leniently, up to the damage; their moves up to there must be legal.
const RECOVERED: &[&str] = &[
    "gnugo-regression/games/gunnar/rbm-bobk-200303111815.sgf",
    "gnugo-regression/games/nngs/gnugo-3.1.18-Rufus-200201051408.sgf",
    "gnugo-regression/games/owl42.sgf",
];

/// What replaying one file gave.
struct Outcome {
    /// Moves replayed, `None` when the file holds no 9/13/19 game.
    moves: Option<usize>,
    /// Whether the text was read leniently.
    recovered: bool,
}

/// Replays one file under `ko_rule`.
fn replay_file(path: &Path, ko_rule: KoRule) -> Result<Outcome, RulesError> {
    let text = std::fs::read(path).map_err(|e| RulesError::SgfContent(e.to_string()))?;
    let text = String::from_utf8_lossy(&text);
    let games = read_sgf(&text)?;
    let mut out = Outcome {
        moves: None,
        recovered: false,
    };
    for g in games {
        if !matches!(g.setup.size.lines(), 9 | 13 | 19) {
            continue;
        }
        out.recovered |= g.recovered;
        let r = g.replay_with(ko_rule)?;
        *out.moves.get_or_insert(0) += r.game.move_number();
    }
    Ok(out)
}

fn check_dir(root: &Path, sub: &str, min_files: usize, ko_rule: KoRule) {
    let files = common::sgf_files::sgf_files(&[&root.join(sub)]);
    assert!(
        files.len() >= min_files,
        "{sub}: only {} files",
        files.len()
    );
    let (mut games, mut moves, mut failures) = (0, 0, Vec::new());
    for f in &files {
        let name = f.strip_prefix(root).unwrap().display().to_string();
        match (replay_file(f, ko_rule), BROKEN.contains(&name.as_str())) {
            (Ok(o), false) => {
                if o.recovered != RECOVERED.contains(&name.as_str()) {
                    failures.push(format!(
                        "{name}: recovered = {}, not as listed",
                        o.recovered
                    ));
                }
                games += usize::from(o.moves.is_some());
                moves += o.moves.unwrap_or(0);
            }
            (Ok(_), true) => failures.push(format!("{name}: listed broken but replays")),
            (Err(e), false) => failures.push(format!("{name}: {e}")),
            (Err(_), true) => {}
        }
    }
    eprintln!("{sub}: {games} games, {moves} moves replayed");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn ai_19x19_games_are_legal_under_simple_ko() {
    let Some(root) = common::corpus_dir("ai_19x19_games_are_legal_under_simple_ko") else {
        return;
    };
    check_dir(&root, "ai-19x19", 200, KoRule::Simple);
}

#[test]
fn ai_19x19_games_are_legal_under_situational_superko() {
    let Some(root) = common::corpus_dir("ai_19x19_games_are_legal_under_situational_superko")
    else {
        return;
    };
    // AlphaGo played under Chinese rules with superko: no record may break it.
    check_dir(&root, "ai-19x19", 200, KoRule::Situational);
}

#[test]
fn gnugo_regression_games_are_legal_under_simple_ko() {
    let Some(root) = common::corpus_dir("gnugo_regression_games_are_legal_under_simple_ko") else {
        return;
    };
    check_dir(&root, "gnugo-regression/games", 400, KoRule::Simple);
}
