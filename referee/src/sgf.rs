//! The live game record as SGF FF[4], through the rules core's writer: per-move BL/WL and infractions as comments.

use goban_rules::GameResult;
use goban_rules::sgf::{GameInfo, MoveAnnotation, write_sgf};

use crate::referee::Referee;

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
        let info = GameInfo {
            black: Some(m.black.clone()),
            white: Some(m.white.clone()),
            date: m.started_at.to_rfc3339().get(..10).map(str::to_owned),
            event: m.event.clone(),
            // RE in points, as every SGF tool reads it; the rules' own wording (stones
            // under CN2002) goes in the root comment.
            result: rules_result.map(|r| r.to_sgf()),
            rules: None,
            comment: Some(match rules_result {
                Some(r) => format!("{} on {}; result {r}", m.id, self.config.board),
                None => format!("{} on {}", m.id, self.config.board),
            }),
        };
        let annotations: Vec<MoveAnnotation> = m
            .moves
            .iter()
            .map(|record| {
                let alerts: Vec<String> = m
                    .infractions
                    .iter()
                    .filter(|i| i.move_number == record.number)
                    .map(|i| format!("{} ({}) by {}: {:?}", i.kind, i.article, i.player, i.status))
                    .collect();
                MoveAnnotation {
                    time_left: record.time_left_ms.map(|ms| ms as f64 / 1000.0),
                    periods_left: record.periods_left,
                    comment: (!alerts.is_empty()).then(|| alerts.join("; ")),
                }
            })
            .collect();
        write_sgf(&m.game, &info, &annotations)
    }
}
