//! GNU Go's answers for one record under one ruleset, kept one line each in a results file
//! (tab-separated) as soon as they arrive: a run cut short keeps what it got, the next run
//! goes on from there, and our counts can be compared again (after a fix) without asking
//! GNU Go twice.
#![allow(unreachable_pub)]

use std::collections::HashMap;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;

use super::gtp::Gtp;

/// What GNU Go said about a finished record under one ruleset.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The record's path under the corpus.
    pub name: String,
    /// `--chinese-rules` or `--japanese-rules`.
    pub flag: String,
    /// The komi given to GNU Go (the record's).
    pub komi: f64,
    /// `final_score`, e.g. `B+3.5`.
    pub score: String,
    /// `final_status_list dead`, `seki` and `dame` (GTP vertices).
    pub dead: Vec<String>,
    pub seki: Vec<String>,
    pub dame: Vec<String>,
    /// How many points `final_status_list black_territory` / `white_territory` name.
    pub black_territory: usize,
    pub white_territory: usize,
    /// Those points, when kept (answers of the first runs kept the counts only).
    pub territory: Option<[Vec<String>; 2]>,
    /// GNU Go's CPU seconds for the record (`cputime`).
    pub cpu_seconds: f64,
}

impl Answer {
    /// Asks a fresh GNU Go process about the record at `path` (named `name`).
    pub fn ask(path: &Path, name: &str, flag: &str, komi: f64) -> Result<Self, String> {
        let mut gtp = Gtp::start(flag);
        gtp.ask(&format!("loadsgf {}", path.display()))?;
        gtp.ask(&format!("komi {komi}"))?;
        // `final_status_list` and `final_score` share one analysis: GNU Go plays the game
        // out once per position and caches the outcome (`finish_and_score_game`).
        let mut list = |status: &str| {
            gtp.ask(&format!("final_status_list {status}"))
                .map(|t| t.split_whitespace().map(str::to_owned).collect::<Vec<_>>())
        };
        let dead = list("dead")?;
        let seki = list("seki")?;
        let dame = list("dame")?;
        let territory = [list("black_territory")?, list("white_territory")?];
        let score = gtp.ask("final_score")?;
        let cpu_seconds = gtp.ask("cputime")?.parse().unwrap_or(f64::NAN);
        Ok(Self {
            name: name.to_owned(),
            flag: flag.to_owned(),
            komi,
            score,
            dead,
            seki,
            dame,
            black_territory: territory[0].len(),
            white_territory: territory[1].len(),
            territory: Some(territory),
            cpu_seconds,
        })
    }

    /// GNU Go's margin for Black in points, from `B+3.5` / `W+2.0` / `0`.
    pub fn margin(&self) -> f64 {
        match self.score.split_once('+') {
            Some(("B", m)) => m.parse().unwrap_or(f64::NAN),
            Some(("W", m)) => -m.parse::<f64>().unwrap_or(f64::NAN),
            _ => 0.0,
        }
    }

    fn to_line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{:.3}\n",
            self.name,
            self.flag,
            self.komi,
            self.score,
            self.dead.join(" "),
            self.seki.join(" "),
            self.dame.join(" "),
            self.territory
                .as_ref()
                .map_or_else(|| self.black_territory.to_string(), |t| t[0].join(" ")),
            self.territory
                .as_ref()
                .map_or_else(|| self.white_territory.to_string(), |t| t[1].join(" ")),
            self.cpu_seconds
        )
    }

    fn from_line(line: &str) -> Option<Self> {
        let f: Vec<&str> = line.split('\t').collect();
        let words = |s: &str| -> Vec<String> { s.split_whitespace().map(str::to_owned).collect() };
        if f.len() != 10 {
            return None;
        }
        // A territory field is the points, or (in the first runs' lines) their number.
        let territory = match (f[7].trim().parse::<usize>(), f[8].trim().parse::<usize>()) {
            (Ok(b), Ok(w)) if !(b == 0 && w == 0) => Err([b, w]),
            _ => Ok([words(f[7]), words(f[8])]),
        };
        Some(Self {
            name: f[0].to_owned(),
            flag: f[1].to_owned(),
            komi: f[2].parse().unwrap_or(f64::NAN),
            score: f[3].to_owned(),
            dead: words(f[4]),
            seki: words(f[5]),
            dame: words(f[6]),
            black_territory: territory.as_ref().map_or_else(|n| n[0], |t| t[0].len()),
            white_territory: territory.as_ref().map_or_else(|n| n[1], |t| t[1].len()),
            territory: territory.ok(),
            cpu_seconds: f[9].trim().parse().unwrap_or(f64::NAN),
        })
    }
}

/// The results file: answers by (record, ruleset flag); lines starting with `#` are comments.
pub struct Answers {
    file: Mutex<std::fs::File>,
    pub known: HashMap<(String, String), Answer>,
}

impl Answers {
    pub fn open(path: &Path) -> Self {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let known = text
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(Answer::from_line)
            .map(|a| ((a.name.clone(), a.flag.clone()), a))
            .collect();
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).unwrap();
        }
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if text.is_empty() {
            file.write_all(
                b"# GNU Go 3.8 answers for rules/tests/gnugo_cross_check.rs: record, rules, komi, \
final_score, dead, seki, dame, black/white territory (points, or their number), GNU Go CPU seconds\n",
            )
            .unwrap();
        }
        Self {
            file: Mutex::new(file),
            known,
        }
    }

    /// Appends one answer, whole line in one write, flushed at once.
    pub fn append(&self, answer: &Answer) {
        let mut file = self.file.lock().unwrap();
        file.write_all(answer.to_line().as_bytes()).unwrap();
        file.flush().unwrap();
    }
}
