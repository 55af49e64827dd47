//! The live game record as SGF FF[4], through the rules core's writer: per-move BL/WL, infractions
//! and the arbiter's actions as comments on their node, and the count's TB/TW at the end.

use goban_rules::GameResult;
use goban_rules::score::{DeadStones, Territory};
use goban_rules::sgf::{GameInfo, MoveAnnotation, write_sgf, write_sgf_counted};

use crate::audit::AuditEntry;
use crate::go;
use crate::match_state::Match;
use crate::referee::Referee;
use crate::state::Phase;

/// One audit entry as an SGF comment line: "arbiter#1, 10:04:05: 1 min added to Black's clock (…). Note: …".
fn audit_line(entry: &AuditEntry) -> String {
    let time = entry.at.get(11..19).unwrap_or(&entry.at);
    let mut line = format!("{} {time}: {}", entry.by, entry.what);
    if let Some(note) = &entry.note {
        line.push_str(&format!(". Note: {note}"));
    }
    line
}

/// The comment lines of the audit entries made at `move_number`.
fn audit_lines(m: &Match, move_number: u32) -> impl Iterator<Item = String> + '_ {
    m.audit
        .iter()
        .filter(move |e| e.move_number == move_number)
        .map(audit_line)
}

fn joined(lines: Vec<String>) -> Option<String> {
    (!lines.is_empty()).then(|| lines.join("\n"))
}

impl Referee {
    /// The game so far as SGF (empty string before a game starts).
    pub fn sgf(&self) -> String {
        let Some(m) = &self.game else {
            return String::new();
        };
        let unit = m.game.setup().ruleset.score_unit();
        let rules_result = m
            .result
            .as_deref()
            .and_then(|t| GameResult::parse_in(t, unit).ok());
        let mut root = vec![match rules_result {
            Some(r) => format!("{} on {}; result {r}", m.id, self.config.board),
            None => format!("{} on {}", m.id, self.config.board),
        }];
        root.extend(audit_lines(m, 0));
        let info = GameInfo {
            black: Some(m.black.clone()),
            white: Some(m.white.clone()),
            date: m.started_at.to_rfc3339().get(..10).map(str::to_owned),
            event: m.event.clone(),
            // RE in points, as every SGF tool reads it; the rules' own wording (stones
            // under CN2002) goes in the root comment.
            result: rules_result.map(|r| r.to_sgf()),
            rules: None,
            comment: joined(root),
        };
        let annotations: Vec<MoveAnnotation> = m
            .moves
            .iter()
            .map(|record| {
                let mut lines: Vec<String> = m
                    .infractions
                    .iter()
                    .filter(|i| i.move_number == record.number)
                    .map(|i| {
                        // A warning in effect names its article, automatic or ruled (CN2002 24).
                        let warned = i.sanction_applied && i.kind.sanction_warns(m.ruleset);
                        let warning = if warned { ", warning (art. 24)" } else { "" };
                        // The points too: a voided ko or forbidden stone is a pass in the
                        // record, and its comment is where its point stays (issue 15).
                        let at = if i.points.is_empty() {
                            String::new()
                        } else {
                            format!(" at {}", i.points.join(" "))
                        };
                        format!(
                            "{} ({}) by {}{at}: {}{warning}",
                            i.kind,
                            i.article,
                            i.player.map_or("no player".to_owned(), |c| c.to_string()),
                            i.status
                        )
                    })
                    .collect();
                lines.extend(audit_lines(m, record.number));
                MoveAnnotation {
                    time_left: record.time_left_ms.map(|ms| ms as f64 / 1000.0),
                    periods_left: record.periods_left,
                    comment: joined(lines),
                }
            })
            .collect();
        match self.counted_territory(m) {
            Some(territory) => write_sgf_counted(&m.game, &info, &annotations, &territory),
            None => write_sgf(&m.game, &info, &annotations),
        }
    }

    /// The owned points of a game counted or being counted, with its dead stones (SGF TB/TW).
    fn counted_territory(&self, m: &Match) -> Option<Territory> {
        let dead = match m.phase {
            Phase::Counting => self.dead_points(),
            Phase::Finished if m.count.is_some() || !m.dead_at_end.is_empty() => {
                m.dead_at_end.clone()
            }
            _ => return None,
        };
        let dead = DeadStones::from_points(dead.into_iter().map(go::point));
        Some(Territory::of(m.game.board(), &dead))
    }
}
