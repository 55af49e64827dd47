//! A game for the simulator to replay: board size, setup stones and the move list.

use crate::error::HardwareError;
use goban_rules::sgf::{SgfEvent, SgfGame, read_sgf};
use goban_rules::{
    Board, BoardSize, Color, Game, GameSetup, Illegal, IllegalReason, Move, Point, Ruleset,
    handicap,
};
use std::path::{Path, PathBuf};

/// A recorded game: what the players at a simulated table will play.
#[derive(Debug, Clone, PartialEq)]
pub struct SimGame {
    /// A label for logs (file name).
    pub name: String,
    /// Board size in lines (9, 13 or 19 for wire protocol v1).
    pub size: u8,
    /// Stones on the board before the first move (handicap, SGF `AB`/`AW`).
    pub setup: Vec<(Point, Color)>,
    /// The moves in order.
    pub moves: Vec<(Color, Move)>,
    /// The colour that resigned after the last move (SGF `RE[B+R]` means White resigned).
    pub resigned: Option<Color>,
}

impl SimGame {
    /// A game from a plain move list on an empty board.
    pub fn from_moves(name: impl Into<String>, size: u8, moves: Vec<(Color, Move)>) -> Self {
        Self {
            name: name.into(),
            size,
            setup: Vec::new(),
            moves,
            resigned: None,
        }
    }

    /// The games of an SGF text (main lines), named after `name`. A record stops at its first
    /// setup node after the start (stones cannot appear on a physical board); where one colour
    /// moves twice, the other's pass is made explicit, as players at a table would press.
    pub fn from_sgf(text: &str, name: &str) -> Result<Vec<Self>, HardwareError> {
        let games = read_sgf(text).map_err(|e| HardwareError::Game {
            origin: name.to_owned(),
            detail: e.to_string(),
        })?;
        let count = games.len();
        games
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let label = if count == 1 {
                    name.to_owned()
                } else {
                    format!("{name}#{}", i + 1)
                };
                Self::from_record(g, label)
            })
            .collect()
    }

    fn from_record(record: &SgfGame, name: String) -> Result<Self, HardwareError> {
        let size = record.setup.size;
        let mut setup = record.setup_stones.clone();
        if setup.is_empty() && record.setup.has_handicap() {
            let points =
                handicap::fixed_handicap_points(size, record.setup.handicap).map_err(|e| {
                    HardwareError::Game {
                        origin: name.clone(),
                        detail: e.to_string(),
                    }
                })?;
            setup = points.into_iter().map(|p| (p, Color::Black)).collect();
        }
        let mut moves: Vec<(Color, Move)> = Vec::new();
        for event in &record.events {
            let SgfEvent::Move(m) = event else { break };
            if let Some(&(last, _)) = moves.last()
                && last == m.color
            {
                moves.push((m.color.opponent(), Move::Pass));
            }
            moves.push((m.color, m.mv));
        }
        let resigned = record.info.result.as_deref().and_then(resigner);
        Ok(Self {
            name,
            size: size.lines(),
            setup,
            moves,
            resigned,
        })
    }

    /// Loads every game from an SGF file, or from the `.sgf` files of a directory (sorted,
    /// not recursive). Records that cannot be read are skipped with a warning; no game at
    /// all is an error.
    pub fn load(path: &Path) -> Result<Vec<Self>, HardwareError> {
        let read_err = |source| HardwareError::Read {
            path: path.to_path_buf(),
            source,
        };
        let files = sgf_files(path).map_err(read_err)?;
        let mut games = Vec::new();
        for file in &files {
            let text = std::fs::read(file).map_err(|source| HardwareError::Read {
                path: file.clone(),
                source,
            })?;
            let name = file.file_name().map_or_else(
                || file.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            match Self::from_sgf(&String::from_utf8_lossy(&text), &name) {
                Ok(found) => {
                    games.extend(found.into_iter().filter(|g| matches!(g.size, 9 | 13 | 19)))
                }
                Err(err) => tracing::warn!(cause = %err, "game skipped"),
            }
        }
        if games.is_empty() {
            return Err(HardwareError::Game {
                origin: path.display().to_string(),
                detail: "no playable 9x9, 13x13 or 19x19 game".into(),
            });
        }
        Ok(games)
    }

    /// The rules' game at the start (setup stones placed), CN2002 rules.
    pub(crate) fn start(&self) -> Result<Game, HardwareError> {
        let size = BoardSize::new(self.size).map_err(|e| self.error(e.to_string()))?;
        let mut board = Board::new(size);
        for &(p, c) in &self.setup {
            board.put_setup_stone(p, c);
        }
        let first = self.moves.first().map_or(Color::Black, |(c, _)| *c);
        Ok(Game::from_position(
            GameSetup::new(size, Ruleset::Cn2002),
            board,
            first,
            goban_rules::FreeHandicap::Placed,
        ))
    }

    /// The position after every move, by the rules (captures applied).
    pub fn final_board(&self) -> Result<Board, HardwareError> {
        let mut game = self.start()?;
        for (i, &(color, mv)) in self.moves.iter().enumerate() {
            play_record(&mut game, color, mv)
                .map_err(|e| self.error(format!("move {} is illegal: {e}", i + 1)))?;
        }
        Ok(game.board().clone())
    }

    pub(crate) fn error(&self, detail: String) -> HardwareError {
        HardwareError::Game {
            origin: self.name.clone(),
            detail,
        }
    }
}

/// Plays a recorded move; a record that goes on after two passes (CN2002 7 ends the game
/// there) resumes play first, as players who disagree about the end would (CN2002 21.1).
pub(crate) fn play_record(game: &mut Game, color: Color, mv: Move) -> Result<Vec<Point>, Illegal> {
    match game.play_as(color, mv) {
        Err(Illegal {
            reason: IllegalReason::GameOver,
            ..
        }) if game.resume().is_ok() => game.play_as(color, mv),
        other => other,
    }
}

/// `path` itself, or the `.sgf` files of the directory `path`, sorted.
fn sgf_files(path: &Path) -> std::io::Result<Vec<PathBuf>> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf")))
        .collect();
    files.sort();
    Ok(files)
}

/// Who resigned, from an SGF result such as `W+R` or `B+Resign` (the loser resigned).
fn resigner(result: &str) -> Option<Color> {
    let (winner, how) = result.trim().split_once('+')?;
    if !how.to_ascii_uppercase().starts_with('R') {
        return None;
    }
    match winner.trim().to_ascii_uppercase().as_str() {
        "B" => Some(Color::White),
        "W" => Some(Color::Black),
        _ => None,
    }
}
