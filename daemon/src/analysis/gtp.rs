//! The Go Text Protocol (GTP 2) codec, pure: commands out, answers in (`=`/`?`, ended by a blank line), and GNU Go's `estimate_score` and `top_moves` answers read.

use goban_rules::Color;

use super::report::{Candidate, vertex_name};

/// One GTP answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// `=` (success) or `?` (failure).
    pub ok: bool,
    /// The answer's text without the `=`/`?` and id, lines joined by `\n`, trimmed.
    pub text: String,
}

/// Why an answer could not be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum GtpError {
    /// The engine failed the command (`? ...`).
    #[error("the engine refused {command:?}: {reason}")]
    Refused {
        /// The command.
        command: String,
        /// The engine's words.
        reason: String,
    },
    /// An answer was not in the form the command gives.
    #[error("cannot read the answer {0:?}")]
    Unreadable(String),
}

/// A command line; GTP forbids control characters other than tab and newline in it.
pub fn encode(command: &str) -> String {
    let clean: String = command
        .chars()
        .filter(|c| !c.is_control() || *c == '\t')
        .collect();
    format!("{clean}\n")
}

/// Collects answer lines until the blank line that ends an answer.
#[derive(Debug, Default)]
pub struct Decoder {
    lines: Vec<String>,
}

impl Decoder {
    /// Takes one line of the engine's output (without its newline); `Some` when it ends an answer.
    pub fn push_line(&mut self, line: &str) -> Option<Answer> {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() {
            if self.lines.is_empty() {
                // Blank lines between answers carry nothing.
                return None;
            }
            return Some(self.finish());
        }
        // GTP 2: everything before the first `=` or `?` line is not part of an answer
        // (some engines print banners on stdout).
        if self.lines.is_empty() && !(line.starts_with('=') || line.starts_with('?')) {
            return None;
        }
        self.lines.push(line.to_owned());
        None
    }

    fn finish(&mut self) -> Answer {
        let text = self.lines.join("\n");
        self.lines.clear();
        let ok = text.starts_with('=');
        // Drop `=`/`?` and an optional numeric id.
        let body = text[1..].trim_start_matches(|c: char| c.is_ascii_digit());
        Answer {
            ok,
            text: body.trim().to_owned(),
        }
    }
}

/// GNU Go's `estimate_score`, e.g. `"W+3.5 (upper bound: ...)"`: Black's lead in points.
pub fn parse_estimate_score(text: &str) -> Result<f64, GtpError> {
    let bad = || GtpError::Unreadable(text.to_owned());
    let head = text.split_whitespace().next().ok_or_else(bad)?;
    if head == "0" || head.eq_ignore_ascii_case("jigo") {
        return Ok(0.0);
    }
    let (side, margin) = head.split_once('+').ok_or_else(bad)?;
    let margin: f64 = margin.parse().map_err(|_| bad())?;
    match side {
        "B" | "b" => Ok(margin),
        "W" | "w" => Ok(-margin),
        _ => Err(bad()),
    }
}

/// GNU Go's `top_moves_black`/`top_moves_white`: `"D16 75.01 R10 74.04 ..."`, best first.
pub fn parse_top_moves(text: &str, keep: usize) -> Result<Vec<Candidate>, GtpError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if !words.len().is_multiple_of(2) {
        return Err(GtpError::Unreadable(text.to_owned()));
    }
    words
        .chunks(2)
        .take(keep)
        .map(|pair| {
            let value: f64 = pair[1]
                .parse()
                .map_err(|_| GtpError::Unreadable(text.to_owned()))?;
            Ok(Candidate {
                point: vertex_name(pair[0]),
                visits: None,
                winrate: None,
                score_lead: None,
                value: Some(value),
                pv: vec![vertex_name(pair[0])],
            })
        })
        .collect()
}

/// The `top_moves_*` command for the side to move.
pub fn top_moves_command(side: Color) -> &'static str {
    match side {
        Color::Black => "top_moves_black",
        Color::White => "top_moves_white",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build_answers(text: &str) -> Vec<Answer> {
        let mut decoder = Decoder::default();
        text.lines().filter_map(|l| decoder.push_line(l)).collect()
    }

    #[test]
    fn answers_end_at_blank_lines_and_banners_are_skipped() {
        let answers = build_answers(
            "GNU Go banner\n= \n\n=12 GNU Go\n\n? unknown command\n\n= a\nb\n\n= half",
        );
        assert_eq!(
            answers,
            vec![
                Answer {
                    ok: true,
                    text: String::new()
                },
                Answer {
                    ok: true,
                    text: "GNU Go".into()
                },
                Answer {
                    ok: false,
                    text: "unknown command".into()
                },
                Answer {
                    ok: true,
                    text: "a\nb".into()
                },
            ],
            "the unfinished last answer is not reported"
        );
    }

    #[test]
    fn estimate_score_is_black_positive() {
        assert_eq!(
            parse_estimate_score("B+2.0 (upper bound: -2.0, lower: -2.0)"),
            Ok(2.0)
        );
        assert_eq!(
            parse_estimate_score("W+13.5 (upper bound: 14.5, lower: 12.5)"),
            Ok(-13.5)
        );
        assert_eq!(parse_estimate_score("0"), Ok(0.0));
        assert!(parse_estimate_score("nonsense").is_err());
        assert!(parse_estimate_score("").is_err());
    }

    #[test]
    fn top_moves_keep_the_best_first() {
        let moves = parse_top_moves("D16 75.01 R10 74.04 O3 74.04", 2).unwrap();
        assert_eq!(moves.len(), 2);
        assert_eq!(moves[0].point, "D16");
        assert_eq!(moves[0].value, Some(75.01));
        assert_eq!(moves[1].point, "R10");
        assert!(parse_top_moves("", 5).unwrap().is_empty());
        assert!(parse_top_moves("D16", 5).is_err());
        assert!(parse_top_moves("D16 x", 5).is_err());
    }

    #[test]
    fn commands_lose_control_characters() {
        assert_eq!(encode("play B D4\r\u{1b}"), "play B D4\n");
    }
}
