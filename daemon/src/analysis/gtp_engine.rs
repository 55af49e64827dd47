//! A GTP engine driven over its pipes: set up a position from its stones, then ask GNU Go's `estimate_score`/`top_moves_*`, or read `lz-analyze`/`kata-analyze` for the time budget.

use std::time::Duration;

use super::config::{GtpStyle, Priority};
use super::gtp::{self, Answer, Decoder, GtpError};
use super::lz_analyze;
use super::position::{Position, letter};
use super::process::{EngineError, EngineProcess};
use super::report::Verdict;

/// One GTP engine process.
pub struct GtpEngine {
    process: EngineProcess,
    decoder: Decoder,
    style: GtpStyle,
    /// `name` and `version` as the engine gives them.
    pub name: String,
}

impl GtpEngine {
    /// Starts the engine and asks its name.
    pub async fn start(
        command: &[String],
        style: GtpStyle,
        priority: Priority,
    ) -> Result<Self, EngineError> {
        let process = EngineProcess::spawn(command, priority)?;
        let mut engine = Self {
            process,
            decoder: Decoder::default(),
            style,
            name: String::new(),
        };
        let name = engine.ask("name").await?;
        let version = engine.ask("version").await.unwrap_or_default();
        engine.name = format!("{name} {version}").trim().to_owned();
        Ok(engine)
    }

    /// Sends one command and waits for its answer's text.
    pub async fn ask(&mut self, command: &str) -> Result<String, EngineError> {
        self.process.send(&gtp::encode(command)).await?;
        let answer = self.answer().await?;
        if answer.ok {
            Ok(answer.text)
        } else {
            Err(GtpError::Refused {
                command: command.to_owned(),
                reason: answer.text,
            }
            .into())
        }
    }

    async fn answer(&mut self) -> Result<Answer, EngineError> {
        loop {
            let line = self.process.next_line().await?;
            if let Some(answer) = self.decoder.push_line(&line) {
                return Ok(answer);
            }
        }
    }

    /// The engine's view of `position` within `budget`, keeping `keep` candidate moves.
    pub async fn analyse(
        &mut self,
        position: &Position,
        budget: Duration,
        keep: usize,
    ) -> Result<Verdict, EngineError> {
        self.load(position).await?;
        match self.style {
            GtpStyle::Gnugo => self.ask_gnugo(position, keep).await,
            style => self.read_analyze(position, style, budget, keep).await,
        }
    }

    /// Puts the position's stones on a cleared board: any order of the stones of a legal
    /// position captures nothing, so no history is needed and the cost is bounded by the board.
    async fn load(&mut self, position: &Position) -> Result<(), EngineError> {
        self.ask(&format!("boardsize {}", position.size().lines()))
            .await?;
        self.ask("clear_board").await?;
        self.ask(&format!("komi {}", position.komi())).await?;
        let stones: Vec<(goban_rules::Color, String)> = position.stones().collect();
        for (color, point) in stones {
            self.ask(&format!("play {} {point}", letter(color))).await?;
        }
        Ok(())
    }

    async fn ask_gnugo(
        &mut self,
        position: &Position,
        keep: usize,
    ) -> Result<Verdict, EngineError> {
        let score = self.ask("estimate_score").await?;
        let moves = self.ask(gtp::top_moves_command(position.to_move())).await?;
        Ok(Verdict {
            score_lead: Some(gtp::parse_estimate_score(&score)?),
            winrate: None,
            candidates: gtp::parse_top_moves(&moves, keep)?,
        })
    }

    /// Starts `lz-analyze`/`kata-analyze`, keeps the last report seen within `budget`, then
    /// stops it with another command and reads up to that command's answer.
    async fn read_analyze(
        &mut self,
        position: &Position,
        style: GtpStyle,
        budget: Duration,
        keep: usize,
    ) -> Result<Verdict, EngineError> {
        let side = position.to_move();
        let command = lz_analyze::analyze_command(style, side, 50);
        self.process.send(&gtp::encode(&command)).await?;
        let mut last = None;
        let deadline = tokio::time::Instant::now() + budget;
        while let Ok(line) = tokio::time::timeout_at(deadline, self.process.next_line()).await {
            let line = line?;
            if line.starts_with('?') {
                return Err(GtpError::Refused {
                    command,
                    reason: line,
                }
                .into());
            }
            if let Some(verdict) = lz_analyze::parse_line(&line, style, side) {
                last = Some(verdict);
            }
        }
        // Any command ends the analysis; its answer is the last thing to read.
        self.process.send(&gtp::encode("protocol_version")).await?;
        loop {
            let line = self.process.next_line().await?;
            if let Some(verdict) = lz_analyze::parse_line(&line, style, side) {
                last = Some(verdict);
            }
            if line.trim() == "= 2" {
                break;
            }
        }
        let _blank = self.process.next_line().await?;
        let mut verdict = last.unwrap_or_default();
        verdict.candidates.truncate(keep);
        Ok(verdict)
    }
}
