//! `[analysis]`: which engine analyses the games for the broadcast, how it is started, and its budget.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::config::{BoardId, Span};

/// Which engine analyses positions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EngineKind {
    /// GNU Go over GTP when `gnugo` is installed (on `PATH` or in Debian's `/usr/games`), else off.
    #[default]
    Auto,
    /// No analysis.
    Off,
    /// A GTP engine (GNU Go by default); how it is asked is [`AnalysisConfig::gtp_analyze`].
    Gtp,
    /// KataGo's JSON analysis engine (`katago analysis -config ... -model ...`).
    Katago,
}

/// How a GTP engine is asked for its view of a position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GtpStyle {
    /// GNU Go: `estimate_score` and `top_moves_black`/`top_moves_white`.
    #[default]
    Gnugo,
    /// Leela Zero: `lz-analyze`, win rates in hundredths of a percent.
    LzAnalyze,
    /// KataGo in GTP mode: `kata-analyze`, win rates and score leads.
    KataAnalyze,
}

/// Whose side KataGo's JSON analysis engine reports from (`reportAnalysisWinratesAs` of its config).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Perspective {
    /// Black's (`reportAnalysisWinratesAs = BLACK`, as in KataGo's `analysis_example.cfg`).
    #[default]
    Black,
    /// White's.
    White,
    /// The side to move's (`SIDETOMOVE`).
    SideToMove,
}

/// `[analysis]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AnalysisConfig {
    /// `"auto"` (default), `"off"`, `"gtp"` or `"katago"`.
    pub engine: EngineKind,
    /// The engine's command line, program first. Default for `gtp`/`auto`:
    /// `["gnugo", "--mode", "gtp", "--chinese-rules", "--level", "8"]`; `katago` has no default.
    pub command: Vec<String>,
    /// For `gtp`: `"gnugo"` (default), `"lz-analyze"` or `"kata-analyze"`.
    pub gtp_analyze: GtpStyle,
    /// For `katago`: whose side its config reports from. Default `"black"`.
    pub report_as: Perspective,
    /// Time the engine may spend on one position. Default `"5s"`; a GTP engine that has not
    /// answered by twice this is restarted and the position skipped.
    pub time_per_position: Span,
    /// Visits per position for KataGo (`maxVisits`). Default 200.
    pub max_visits: u32,
    /// Positions analysed at once, at most (GTP: engine processes; KataGo: queries in
    /// flight). Default 1.
    pub max_boards: usize,
    /// Boards whose positions go before any other's. Default none.
    pub featured: Vec<BoardId>,
    /// Candidate moves kept per position. Default 5.
    pub candidates: usize,
    /// The engine's CPU priority, as `nice` takes it (0 normal .. 19 lowest). Default 19.
    pub nice: u8,
    /// Run the engine under Linux's `SCHED_IDLE` (`chrt --idle 0`, util-linux) when `chrt`
    /// is installed: it then runs only on a core nothing else wants, so the boards' tasks
    /// never wait for it. Default true; `nice` applies when this is off or `chrt` is missing.
    pub idle: bool,
}

/// How low the engine's process runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Priority {
    /// Under `SCHED_IDLE` when `chrt` is installed.
    pub idle: bool,
    /// `nice` level otherwise (0: as the daemon).
    pub nice: u8,
}

impl Default for AnalysisConfig {
    fn default() -> Self {
        Self {
            engine: EngineKind::Auto,
            command: Vec::new(),
            gtp_analyze: GtpStyle::Gnugo,
            report_as: Perspective::Black,
            time_per_position: Span(Duration::from_secs(5)),
            max_visits: 200,
            max_boards: 1,
            featured: Vec::new(),
            candidates: 5,
            nice: 19,
            idle: true,
        }
    }
}

impl AnalysisConfig {
    /// The engine process's priority.
    pub fn priority(&self) -> Priority {
        Priority {
            idle: self.idle,
            nice: self.nice,
        }
    }
}

/// The engine to run, decided from the config and what is installed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolved {
    /// No analysis; the words say why (for the log and the demo's banner).
    Off(String),
    /// A GTP engine started with this command line.
    Gtp(Vec<String>, GtpStyle),
    /// KataGo's analysis engine started with this command line.
    Katago(Vec<String>),
}

/// Where Debian installs GNU Go, which is not on a default `PATH` for non-login shells.
const DEBIAN_GAMES: &str = "/usr/games";

impl AnalysisConfig {
    /// The engine to run: `auto` finds `gnugo` on `path_env` (`PATH`) or in `/usr/games`.
    pub fn resolve(&self, path_env: Option<&str>) -> Resolved {
        match self.engine {
            EngineKind::Off => Resolved::Off("[analysis] engine = \"off\"".into()),
            EngineKind::Katago if self.command.is_empty() => Resolved::Off(
                "[analysis] engine = \"katago\" needs command = [\"katago\", \"analysis\", \"-config\", ..., \"-model\", ...]".into(),
            ),
            EngineKind::Katago => Resolved::Katago(self.command.clone()),
            EngineKind::Gtp if !self.command.is_empty() => {
                Resolved::Gtp(self.command.clone(), self.gtp_analyze)
            }
            EngineKind::Gtp | EngineKind::Auto => match find_gnugo(path_env) {
                Some(program) => Resolved::Gtp(gnugo_command(program), GtpStyle::Gnugo),
                None => Resolved::Off(
                    "GNU Go not found; install it (Debian: apt-get install gnugo) or set [analysis] command".into(),
                ),
            },
        }
    }

    /// The budget as people read it, shown beside the analysis: `"5s per position"`.
    pub fn budget_words(&self, katago: bool) -> String {
        if katago {
            format!(
                "{} visits, {} per position",
                self.max_visits, self.time_per_position
            )
        } else {
            format!("{} per position", self.time_per_position)
        }
    }
}

fn gnugo_command(program: PathBuf) -> Vec<String> {
    [
        program.display().to_string(),
        "--mode".into(),
        "gtp".into(),
        "--chinese-rules".into(),
        "--level".into(),
        "8".into(),
    ]
    .to_vec()
}

/// `gnugo` on `PATH`, else in `/usr/games`.
fn find_gnugo(path_env: Option<&str>) -> Option<PathBuf> {
    let dirs = path_env
        .unwrap_or_default()
        .split(':')
        .filter(|d| !d.is_empty());
    dirs.chain([DEBIAN_GAMES])
        .map(|dir| Path::new(dir).join("gnugo"))
        .find(|candidate| candidate.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_and_katago_without_command_say_why() {
        let off = AnalysisConfig {
            engine: EngineKind::Off,
            ..AnalysisConfig::default()
        };
        assert!(matches!(off.resolve(None), Resolved::Off(_)));
        let katago = AnalysisConfig {
            engine: EngineKind::Katago,
            ..AnalysisConfig::default()
        };
        let Resolved::Off(why) = katago.resolve(None) else {
            panic!("katago without a command cannot run");
        };
        assert!(why.contains("command"), "{why}");
    }

    #[test]
    fn gtp_with_a_command_runs_it_as_given() {
        let config = AnalysisConfig {
            engine: EngineKind::Gtp,
            command: vec!["leelaz".into(), "--gtp".into()],
            gtp_analyze: GtpStyle::LzAnalyze,
            ..AnalysisConfig::default()
        };
        assert_eq!(
            config.resolve(Some("")),
            Resolved::Gtp(vec!["leelaz".into(), "--gtp".into()], GtpStyle::LzAnalyze)
        );
    }

    #[test]
    fn auto_finds_gnugo_on_path() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("gnugo"), "").unwrap();
        let path = dir.path().display().to_string();
        let Resolved::Gtp(command, GtpStyle::Gnugo) =
            AnalysisConfig::default().resolve(Some(&path))
        else {
            panic!("gnugo on PATH is used");
        };
        assert_eq!(command[0], dir.path().join("gnugo").display().to_string());
        assert!(command.contains(&"gtp".to_owned()));
    }

    #[test]
    fn budget_reads_with_units() {
        let config = AnalysisConfig::default();
        assert_eq!(config.budget_words(false), "5s per position");
        assert_eq!(config.budget_words(true), "200 visits, 5s per position");
    }
}
