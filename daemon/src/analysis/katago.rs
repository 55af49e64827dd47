//! KataGo's JSON analysis engine protocol, pure: one query line per position out, result, warning and error lines in (KataGo's `docs/Analysis_Engine.md`).

use goban_rules::{Color, Ruleset};
use serde::{Deserialize, Serialize};

use super::config::Perspective;
use super::position::{Position, letter};
use super::report::{Candidate, Verdict, for_black, vertex_name, winrate_for_black};

/// One query: a position given by its stones (`initialStones`) and the side to move.
///
/// The stones, not the move list: a query costs the same on move 300 as on move 3. The price
/// is that KataGo does not know a ko that is forbidden right now.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Query {
    /// `<board>#<seq>`: the answer names the position it is about.
    pub id: String,
    /// Stones on the board, `[["B","D4"], ...]`.
    pub initial_stones: Vec<[String; 2]>,
    /// The side to move.
    pub initial_player: &'static str,
    /// No history (see above).
    pub moves: Vec<[String; 2]>,
    /// KataGo's name of the nearest rules.
    pub rules: &'static str,
    /// Komi in points, rounded to a half point as KataGo requires.
    pub komi: f64,
    /// Board width.
    pub board_x_size: u8,
    /// Board height.
    pub board_y_size: u8,
    /// The visit budget.
    pub max_visits: u32,
    /// The time budget (`maxTime`, seconds).
    pub override_settings: Overrides,
}

/// Settings a query overrides in KataGo's config.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Overrides {
    /// Seconds per position.
    pub max_time: f64,
}

impl Query {
    /// The query for `position` with a budget of `max_visits` visits and `max_time` seconds.
    pub fn of(position: &Position, max_visits: u32, max_time: f64) -> Self {
        let size = position.size().lines();
        Self {
            id: query_id(&position.board, position.seq()),
            initial_stones: position
                .stones()
                .map(|(color, point)| [letter(color).to_owned(), point])
                .collect(),
            initial_player: letter(position.to_move()),
            moves: Vec::new(),
            rules: rules_name(position.view.state.ruleset),
            komi: (position.komi() * 2.0).round() / 2.0,
            board_x_size: size,
            board_y_size: size,
            max_visits,
            override_settings: Overrides { max_time },
        }
    }

    /// The query as the single line KataGo reads.
    pub fn line(&self) -> String {
        // Plain strings and numbers: serialization cannot fail.
        let mut line = serde_json::to_string(self).unwrap_or_default();
        line.push('\n');
        line
    }
}

/// The id of the query about `board` at `seq`.
pub fn query_id(board: &str, seq: u64) -> String {
    format!("{board}#{seq}")
}

/// The board and seq a query id names.
pub fn parse_query_id(id: &str) -> Option<(&str, u64)> {
    let (board, seq) = id.rsplit_once('#')?;
    Some((board, seq.parse().ok()?))
}

/// KataGo's rules shorthand nearest to ours.
fn rules_name(ruleset: Ruleset) -> &'static str {
    match ruleset {
        Ruleset::Cn2002 | Ruleset::Historical => "chinese",
        Ruleset::Jk => "japanese",
        // Area counting with suicide allowed, as Ing's rules.
        Ruleset::Ing => "new-zealand",
    }
}

/// One line KataGo writes.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct Line {
    id: Option<String>,
    error: Option<String>,
    warning: Option<String>,
    field: Option<String>,
    is_during_search: bool,
    move_infos: Vec<MoveInfo>,
    root_info: Option<RootInfo>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct MoveInfo {
    #[serde(rename = "move")]
    point: String,
    visits: Option<u32>,
    winrate: Option<f64>,
    score_lead: Option<f64>,
    order: Option<u32>,
    pv: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct RootInfo {
    winrate: Option<f64>,
    score_lead: Option<f64>,
}

/// What a line from KataGo says.
#[derive(Debug, PartialEq)]
pub enum Reply {
    /// The final analysis of the query `id`.
    Result {
        /// The query id.
        id: String,
        /// Its analysis, from Black's side.
        verdict: Verdict,
    },
    /// A query failed (`id` absent: KataGo could not even read it).
    Failed {
        /// The query id, when KataGo could tell.
        id: Option<String>,
        /// KataGo's words, with the field at fault.
        error: String,
    },
    /// A warning; the query still runs.
    Warning(String),
    /// A partial report during the search, or a line of no interest.
    Other,
}

/// Reads one line: `side` is the side to move of the query it answers (for KataGo configs that
/// report from the side to move), found by the caller from the id with [`peek_id`].
pub fn decode(line: &str, perspective: Perspective, side: Color, keep: usize) -> Reply {
    let parsed: Line = match serde_json::from_str(line) {
        Ok(parsed) => parsed,
        Err(err) => {
            return Reply::Failed {
                id: None,
                error: format!("unreadable line from KataGo ({err}): {line:.120}"),
            };
        }
    };
    let field = parsed
        .field
        .map(|f| format!(" (field {f})"))
        .unwrap_or_default();
    if let Some(error) = parsed.error {
        return Reply::Failed {
            id: parsed.id,
            error: format!("{error}{field}"),
        };
    }
    if let Some(warning) = parsed.warning {
        return Reply::Warning(format!("{warning}{field}"));
    }
    match (parsed.id, parsed.root_info, parsed.is_during_search) {
        (Some(id), Some(root), false) => {
            let seen_as = match perspective {
                Perspective::Black => Color::Black,
                Perspective::White => Color::White,
                Perspective::SideToMove => side,
            };
            let verdict = verdict(root, parsed.move_infos, seen_as, keep);
            Reply::Result { id, verdict }
        }
        _ => Reply::Other,
    }
}

/// The `id` of a line, to find the query it answers before decoding it.
pub fn peek_id(line: &str) -> Option<String> {
    #[derive(Deserialize)]
    struct Id {
        id: Option<String>,
    }
    serde_json::from_str::<Id>(line).ok()?.id
}

fn verdict(root: RootInfo, mut infos: Vec<MoveInfo>, seen_as: Color, keep: usize) -> Verdict {
    infos.sort_by_key(|info| info.order.unwrap_or(u32::MAX));
    let candidates = infos
        .into_iter()
        .take(keep)
        .map(|info| Candidate {
            point: vertex_name(&info.point),
            visits: info.visits,
            winrate: info.winrate.map(|w| winrate_for_black(w, seen_as)),
            score_lead: info.score_lead.map(|s| for_black(s, seen_as)),
            value: None,
            pv: info.pv.iter().map(|p| vertex_name(p)).collect(),
        })
        .collect();
    Verdict {
        score_lead: root.score_lead.map(|s| for_black(s, seen_as)),
        winrate: root.winrate.map(|w| winrate_for_black(w, seen_as)),
        candidates,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example response of KataGo's `docs/Analysis_Engine.md`, shortened to two moves.
    const DOCUMENTED: &str = r#"{"id":"foo","isDuringSearch":false,"moveInfos":[{"lcb":0.87,"move":"Q5","order":0,"prior":0.89,"pv":["Q5","R5","Q6"],"scoreLead":8.18535151076558,"scoreMean":8.18,"scoreSelfplay":10.4,"scoreStdev":23.9,"utility":0.75,"utilityLcb":0.77,"visits":495,"winrate":0.8666727883983563},{"lcb":1.93,"move":"D4","order":1,"prior":0.02,"pv":["D4","Q5"],"scoreLead":12.3,"scoreMean":12.3,"scoreSelfplay":15.3,"scoreStdev":24.6,"utility":0.92,"utilityLcb":2.8,"visits":2,"winrate":0.93}],"rootInfo":{"lcb":0.86,"scoreLead":8.219540952281882,"scoreSelfplay":10.45,"scoreStdev":23.99,"symHash":"1D25","thisHash":"F8FA","utility":0.75,"visits":500,"winrate":0.8672585456293346},"turnNumber":2}"#;

    #[test]
    fn the_documented_response_reads_from_blacks_side() {
        let Reply::Result { id, verdict } = decode(DOCUMENTED, Perspective::Black, Color::White, 5)
        else {
            panic!("a final result");
        };
        assert_eq!(id, "foo");
        assert_eq!(verdict.score_lead, Some(8.219540952281882));
        assert_eq!(verdict.candidates[0].point, "Q5");
        assert_eq!(verdict.candidates[0].pv, ["Q5", "R5", "Q6"]);
        assert_eq!(verdict.candidates[0].visits, Some(495));
        assert_eq!(verdict.candidates.len(), 2);
    }

    #[test]
    fn side_to_move_reports_are_turned_to_black() {
        let Reply::Result { verdict, .. } =
            decode(DOCUMENTED, Perspective::SideToMove, Color::White, 1)
        else {
            panic!("a final result");
        };
        assert_eq!(verdict.score_lead, Some(-8.219540952281882));
        let winrate = verdict.winrate.unwrap();
        assert!((winrate - (1.0 - 0.8672585456293346)).abs() < 1e-12);
        assert_eq!(verdict.candidates.len(), 1, "kept to the budget");
    }

    #[test]
    fn errors_warnings_and_partials_are_told_apart() {
        let error = r#"{"error":"Could not parse","field":"komi","id":"t#3"}"#;
        assert_eq!(
            decode(error, Perspective::Black, Color::Black, 5),
            Reply::Failed {
                id: Some("t#3".into()),
                error: "Could not parse (field komi)".into()
            }
        );
        let warning = r#"{"warning":"unused field","field":"x","id":"t#3"}"#;
        assert!(matches!(
            decode(warning, Perspective::Black, Color::Black, 5),
            Reply::Warning(_)
        ));
        let partial = DOCUMENTED.replace("\"isDuringSearch\":false", "\"isDuringSearch\":true");
        assert_eq!(
            decode(&partial, Perspective::Black, Color::Black, 5),
            Reply::Other
        );
        assert!(matches!(
            decode("not json", Perspective::Black, Color::Black, 5),
            Reply::Failed { id: None, .. }
        ));
    }

    #[test]
    fn ids_name_board_and_seq() {
        assert_eq!(
            parse_query_id(&query_id("table-1", 42)),
            Some(("table-1", 42))
        );
        assert_eq!(parse_query_id("x"), None);
        assert_eq!(peek_id(DOCUMENTED), Some("foo".into()));
    }
}
