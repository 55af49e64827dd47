//! Game records from `$GOBAN_CORPUS`, read with sgf-parse, checked by replaying them through the rules core.

use std::path::{Path, PathBuf};

use goban_rules::{BoardSize, Color, Game, GameSetup, Move, Point, Ruleset};
use sgf_parse::go::{Move as SgfMove, Prop};

/// A game as a list of moves.
#[derive(Clone, Debug)]
pub struct Record {
    pub name: String,
    pub size: u8,
    pub moves: Vec<(Color, Move)>,
}

/// The corpus directory, or `None` (printing that the test skipped) when unset outside CI.
pub fn corpus_dir() -> Option<PathBuf> {
    match std::env::var("GOBAN_CORPUS") {
        Ok(dir) => Some(PathBuf::from(dir)),
        Err(_) if std::env::var("CI").as_deref() == Ok("true") => {
            panic!(
                "GOBAN_CORPUS is not set: CI must point it at the shared corpus (../shared/corpus)"
            )
        }
        Err(_) => {
            eprintln!("skipped: GOBAN_CORPUS is not set");
            None
        }
    }
}

/// Every legal, setup-free game record of `ai-19x19`, in file-name order.
pub fn ai_games(dir: &Path) -> Vec<Record> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("ai-19x19"))
        .expect("corpus ai-19x19 readable")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("sgf")))
        .collect();
    files.sort();
    files.iter().filter_map(|f| read_record(f)).collect()
}

/// One record, `None` when it has setup stones, is not Go, or is illegal under simple ko.
pub fn read_record(path: &Path) -> Option<Record> {
    let text = std::fs::read_to_string(path).ok()?;
    let roots = sgf_parse::go::parse(&text).ok()?;
    let root = roots.first()?;
    let mut size = 19u8;
    let mut moves = Vec::new();
    for node in root.main_variation() {
        for prop in node.properties() {
            match prop {
                Prop::SZ((w, h)) if w == h => size = *w,
                Prop::AB(_) | Prop::AW(_) | Prop::HA(_) => return None,
                Prop::B(m) => moves.push((Color::Black, to_move(m, size)?)),
                Prop::W(m) => moves.push((Color::White, to_move(m, size)?)),
                _ => {}
            }
        }
    }
    let record = Record {
        name: path.file_name()?.to_string_lossy().into_owned(),
        size,
        moves,
    };
    is_legal(&record).then_some(record)
}

fn to_move(m: &SgfMove, size: u8) -> Option<Move> {
    match m {
        SgfMove::Pass => Some(Move::Pass),
        SgfMove::Move(p) if p.x >= size || p.y >= size => Some(Move::Pass),
        SgfMove::Move(p) => Some(Move::Play(Point(
            u16::from(p.y) * u16::from(size) + u16::from(p.x),
        ))),
    }
}

/// Replays strictly alternating, legal under simple ko, not ending early.
fn is_legal(record: &Record) -> bool {
    let Ok(mut game) = new_game(record.size) else {
        return false;
    };
    record.moves.iter().all(|&(c, mv)| game.play(c, mv).is_ok())
}

/// A fresh game of the shadow referee: simple ko, as the records were played.
pub fn new_game(size: u8) -> Result<Game, goban_rules::RulesError> {
    let mut setup = GameSetup::new(BoardSize::new(size)?, Ruleset::Cn2002);
    setup.ko_rule = goban_rules::KoRule::Simple;
    Game::new(setup)
}

/// Legal, setup-free 9x9 and 13x13 games of at least 20 moves from `gnugo-regression/games`, path order.
pub fn small_board_games(dir: &Path, limit: usize) -> Vec<Record> {
    let mut files = Vec::new();
    collect_sgf(&dir.join("gnugo-regression").join("games"), &mut files);
    files.sort();
    files
        .iter()
        .filter_map(|f| read_record(f))
        .filter(|r| (r.size == 9 || r.size == 13) && r.moves.len() >= 20)
        .take(limit)
        .collect()
}

fn collect_sgf(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_sgf(&path, out);
        } else if path
            .extension()
            .is_some_and(|x| x.eq_ignore_ascii_case("sgf"))
        {
            out.push(path);
        }
    }
}
