//! The live game record as SGF FF[4], through the rules core's writer: the event, round, place
//! and time system at the root, per-move BL/WL, infractions and the arbiter's actions as
//! comments in words on their node, moves of unknown order as a setup node, and the count's
//! TB/TW at the end.

use goban_rules::score::{DeadStones, Territory};
use goban_rules::sgf::{GameInfo, MoveAnnotation, write_sgf, write_sgf_counted};
use goban_rules::{BoardSize, Color, Game, GameResult, Move, Point, Ruleset};

use crate::audit::AuditEntry;
use crate::clock::{Millis, TimeControl};
use crate::infraction::{Infraction, InfractionStatus};
use crate::referee::Referee;
use crate::replay;
use crate::sgf_header::SgfHeader;
use crate::state::{BoardState, Phase};

/// Seconds as SGF writes a real number: `30`, `1.5`.
fn seconds(ms: Millis) -> String {
    let ms = ms.as_ms();
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        format!("{}", ms as f64 / 1000.0)
    }
}

/// `TM` (each side's main time, seconds) and `OT` (the overtime in the usual SGF
/// wording: `5x30 byo-yomi`, `15/600 Canadian`) of a time control; nothing without a clock.
pub(crate) fn time_system(control: Option<TimeControl>) -> (Option<f64>, Option<String>) {
    let Some(control) = control.filter(|c| *c != TimeControl::None) else {
        return (None, None);
    };
    let main = Some(control.main().as_ms() as f64 / 1000.0);
    let overtime = match control {
        TimeControl::None | TimeControl::Absolute { .. } => None,
        TimeControl::ByoyomiCn {
            reserve, period, ..
        } => Some(format!(
            "{reserve}x{} byo-yomi (Chinese, CN2002 12.3)",
            seconds(period)
        )),
        TimeControl::ByoyomiJp {
            periods, period, ..
        } => Some(format!("{periods}x{} byo-yomi", seconds(period))),
        TimeControl::Canadian { moves, block, .. } => {
            Some(format!("{moves}/{} Canadian", seconds(block)))
        }
        TimeControl::Fischer { increment, max, .. } => Some(match max {
            Some(cap) => format!(
                "Fischer +{}s per move, at most {}s",
                seconds(increment),
                seconds(cap)
            ),
            None => format!("Fischer +{}s per move", seconds(increment)),
        }),
    };
    (main, overtime)
}

fn player_word(color: Option<Color>) -> &'static str {
    match color {
        Some(Color::Black) => "Black",
        Some(Color::White) => "White",
        None => "no player",
    }
}

/// Where an alert stands, in words.
fn status_words(status: InfractionStatus) -> &'static str {
    match status {
        InfractionStatus::Open => "open, waiting for the arbiter",
        InfractionStatus::Confirmed => "confirmed by the arbiter",
        InfractionStatus::Sanctioned => "sanctioned",
        InfractionStatus::Dismissed => "dismissed by the arbiter",
        InfractionStatus::Converted => "converted into a pass (CN2002 22.5)",
    }
}

/// An alert as an SGF comment line: "Captured stones not removed (CN2002 18.2, 22.6) by
/// White at D4: sanctioned, warning (art. 24)".
fn infraction_line(ruleset: Ruleset, i: &Infraction) -> String {
    let words = i.kind.words();
    let mut kind = words[..1].to_uppercase();
    kind.push_str(&words[1..]);
    // A warning in effect names its article, automatic or ruled (CN2002 24).
    let warned = i.sanction_applied && i.kind.sanction_warns(ruleset);
    let warning = if warned { ", warning (art. 24)" } else { "" };
    // The points too: a voided ko or forbidden stone is a pass in the
    // record, and its comment is where its point stays (issue 15).
    let at = if i.points.is_empty() {
        String::new()
    } else {
        format!(" at {}", i.points.join(" "))
    };
    format!(
        "{kind} ({}) by {}{at}: {}{warning}",
        i.article,
        player_word(i.player),
        status_words(i.status)
    )
}

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
fn audit_lines(audit: &[AuditEntry], move_number: u32) -> impl Iterator<Item = String> + '_ {
    audit
        .iter()
        .filter(move |e| e.move_number == move_number)
        .map(audit_line)
}

fn joined(lines: Vec<String>) -> Option<String> {
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// What a caller adds to a move's node besides the referee's own record: an engine's
/// analysis as a comment and properties such as Sabaki's `SBKV` (the daemon's `?analysis=1`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoveNotes {
    /// A line appended to the node's comment.
    pub comment: Option<String>,
    /// Properties written on the node, `("SBKV", "61.50")`.
    pub properties: Vec<(String, String)>,
}

/// A board state whose moves do not play again from its header's opening: the two come from
/// different games, or one of them was changed by hand.
#[derive(Debug, thiserror::Error)]
#[error("the game record does not play again: {0}")]
pub struct SgfError(String);

impl BoardState {
    /// The game of this state as SGF FF[4], through the rules core's writer (an empty string
    /// before a game). `header` is the same game's [`Referee::sgf_header`]. The moves are
    /// played again from the header's opening, so the SGF costs nothing until it is asked for.
    pub fn sgf(&self, header: &SgfHeader) -> Result<String, SgfError> {
        self.sgf_with_notes(header, &std::collections::BTreeMap::new())
    }

    /// As [`BoardState::sgf`], with `notes` added on the node of each move number they name.
    pub fn sgf_with_notes(
        &self,
        header: &SgfHeader,
        notes: &std::collections::BTreeMap<u32, MoveNotes>,
    ) -> Result<String, SgfError> {
        let Some(id) = &self.game else {
            return Ok(String::new());
        };
        let size = header.setup.size;
        let mut game = replay::opening(header.setup, &header.initial, header.handicap_pending)
            .map_err(SgfError)?;
        let mut block = replay::BlockMoves::default();
        for record in self.moves.iter() {
            if !record.order_known {
                // A setup block's moves come together: played at once after the last one.
                if record.point.is_unseen() {
                    block.add_unseen(record.number, record.color);
                } else if let Move::Play(p) = parse_move(&record.point, size)? {
                    block.add_stone(record.number, p, record.color);
                }
                continue;
            }
            let mv = parse_move(&record.point, size)?;
            block.play_again(&mut game).map_err(SgfError)?;
            replay::play_again(&mut game, record.number, record.color, mv).map_err(SgfError)?;
        }
        block.play_again(&mut game).map_err(SgfError)?;
        let unit = header.setup.ruleset.score_unit();
        let rules_result = self
            .result
            .as_deref()
            .and_then(|t| GameResult::parse_in(t, unit).ok());
        let mut root = vec![match rules_result {
            Some(r) => format!("{id} on {}; result {r}", self.board),
            None => format!("{id} on {}", self.board),
        }];
        root.extend(audit_lines(&self.audit, 0));
        let (time_limit, overtime) = time_system(header.time_control);
        let info = GameInfo {
            black: Some(self.black.clone()),
            white: Some(self.white.clone()),
            date: header.date.clone(),
            event: header.event.clone(),
            round: header.round.clone(),
            place: header.place.clone(),
            time_limit,
            overtime,
            // RE in points, as every SGF tool reads it; the rules' own wording (stones
            // under CN2002) goes in the root comment.
            result: rules_result.map(|r| r.to_sgf()),
            rules: None,
            comment: joined(root),
        };
        let annotations: Vec<MoveAnnotation> = self
            .moves
            .iter()
            .map(|record| {
                let mut lines: Vec<String> = self
                    .infractions
                    .iter()
                    .filter(|i| i.move_number == record.number)
                    .map(|i| infraction_line(self.ruleset, i))
                    .collect();
                lines.extend(audit_lines(&self.audit, record.number));
                let extra = notes.get(&record.number);
                lines.extend(extra.and_then(|n| n.comment.clone()));
                MoveAnnotation {
                    time_left: record.time_left_ms.map(|ms| ms as f64 / 1000.0),
                    periods_left: record.periods_left,
                    comment: joined(lines),
                    properties: extra.map(|n| n.properties.clone()).unwrap_or_default(),
                }
            })
            .collect();
        Ok(match self.counted_territory(&game)? {
            Some(territory) => write_sgf_counted(&game, &info, &annotations, &territory),
            None => write_sgf(&game, &info, &annotations),
        })
    }

    /// The owned points of a game counted or being counted, with its dead stones (SGF TB/TW).
    fn counted_territory(&self, game: &Game) -> Result<Option<Territory>, SgfError> {
        let counted = match self.phase {
            Phase::Counting => true,
            Phase::Finished => self.count.is_some() || !self.dead_stones.is_empty(),
            _ => false,
        };
        if !counted {
            return Ok(None);
        }
        let size = game.setup().size;
        let dead = self
            .dead_stones
            .iter()
            .map(|name| Point::parse_human(name, size).map_err(|err| SgfError(err.to_string())))
            .collect::<Result<Vec<Point>, SgfError>>()?;
        let dead = DeadStones::from_points(dead);
        Ok(Some(Territory::of(game.board(), &dead)))
    }
}

/// A move record's "D4" or "pass" as the rules core's move.
fn parse_move(name: &str, size: BoardSize) -> Result<Move, SgfError> {
    if name == "pass" {
        return Ok(Move::Pass);
    }
    Point::parse_human(name, size)
        .map(Move::Play)
        .map_err(|err| SgfError(err.to_string()))
}

impl Referee {
    /// The SGF header of the game in progress; `None` before a game.
    pub fn sgf_header(&self) -> Option<SgfHeader> {
        self.game
            .as_ref()
            .map(crate::match_state::Match::sgf_header)
    }

    /// The game so far as SGF (empty string before a game starts): [`BoardState::sgf`] of
    /// [`Referee::state`].
    ///
    /// # Errors
    /// Never in practice: the state and the header both come from this referee's game.
    pub fn sgf(&self) -> Result<String, SgfError> {
        match self.sgf_header() {
            Some(header) => self.state().sgf(&header),
            None => Ok(String::new()),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::*;

    fn system(text: &str) -> (Option<f64>, Option<String>) {
        time_system(Some(TimeControl::from_str(text).expect(text)))
    }

    #[test]
    fn time_systems_in_sgf_words() {
        assert_eq!(
            system("byoyomi-jp:main=10m,periods=3,period=30s"),
            (Some(600.0), Some("3x30 byo-yomi".into()))
        );
        assert_eq!(
            system("byoyomi-cn:main=60m,reserve=5"),
            (
                Some(3600.0),
                Some("5x60 byo-yomi (Chinese, CN2002 12.3)".into())
            )
        );
        assert_eq!(
            system("canadian:main=60m,moves=15,block=10m"),
            (Some(3600.0), Some("15/600 Canadian".into()))
        );
        assert_eq!(
            system("fischer:main=30m,increment=1500ms"),
            (Some(1800.0), Some("Fischer +1.5s per move".into()))
        );
        assert_eq!(system("absolute:main=90m"), (Some(5400.0), None));
        assert_eq!(system("none"), (None, None));
        assert_eq!(time_system(None), (None, None));
    }
}
