//! The analysis the public was shown, as notes on the SGF's move nodes: a comment in words with the game's unit, and Sabaki's `SBKV` win rate when the engine gives one.

use std::collections::BTreeMap;

use goban_referee::MoveNotes;
use goban_rules::ScoreUnit;

use super::report::EngineInfo;
use super::store::LeadPoint;

/// One note per analysed position, on the node of the move that reached it.
pub fn notes(
    history: &[LeadPoint],
    engine: Option<&EngineInfo>,
    unit: ScoreUnit,
) -> BTreeMap<u32, MoveNotes> {
    history
        .iter()
        .filter(|p| p.move_number > 0)
        .map(|p| (p.move_number, note(p, engine, unit)))
        .collect()
}

fn note(point: &LeadPoint, engine: Option<&EngineInfo>, unit: ScoreUnit) -> MoveNotes {
    let who = engine.map_or_else(
        || "engine".to_owned(),
        |e| format!("{} ({})", e.name, e.budget),
    );
    let mut words = vec![format!("{who}: {}", lead_words(point.score_lead, unit))];
    if let Some(winrate) = point.winrate {
        words.push(format!("Black wins {:.1}%", winrate * 100.0));
    }
    if let Some(best) = &point.best {
        words.push(format!("its move: {best}"));
    }
    // Sabaki's win rate graph: Black's win rate in percent on the node.
    let properties = point
        .winrate
        .map(|w| vec![("SBKV".to_owned(), format!("{:.2}", w * 100.0))])
        .unwrap_or_default();
    MoveNotes {
        comment: Some(words.join("; ")),
        properties,
    }
}

/// Black's lead in points, in the game's unit: "Black leads by 1.75 stones (3.5 points)".
fn lead_words(points: Option<f64>, unit: ScoreUnit) -> String {
    let Some(points) = points else {
        return "no score".to_owned();
    };
    let side = if points >= 0.0 { "Black" } else { "White" };
    let points = points.abs();
    match unit {
        ScoreUnit::Stones => format!("{side} leads by {} stones ({points} points)", points / 2.0),
        ScoreUnit::Points => format!("{side} leads by {points} points"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build_point(move_number: u32, lead: f64, winrate: Option<f64>) -> LeadPoint {
        LeadPoint {
            move_number,
            position_seq: u64::from(move_number) + 1,
            score_lead: Some(lead),
            winrate,
            best: Some("D4".into()),
        }
    }

    #[test]
    fn notes_speak_the_games_unit_and_give_sabaki_its_win_rate() {
        let engine = EngineInfo {
            name: "KataGo 1.15".into(),
            budget: "200 visits, 5s per position".into(),
        };
        let history = [build_point(1, 3.5, Some(0.615)), build_point(2, -1.0, None)];
        let notes = notes(&history, Some(&engine), ScoreUnit::Stones);
        let first = &notes[&1];
        assert_eq!(
            first.comment.as_deref(),
            Some(
                "KataGo 1.15 (200 visits, 5s per position): Black leads by 1.75 stones (3.5 points); Black wins 61.5%; its move: D4"
            )
        );
        assert_eq!(first.properties, [("SBKV".to_owned(), "61.50".to_owned())]);
        assert!(notes[&2].properties.is_empty(), "no win rate, no SBKV");
        assert!(
            notes[&2]
                .comment
                .as_deref()
                .unwrap()
                .contains("White leads by 0.5 stones")
        );
        let points = super::notes(&history, None, ScoreUnit::Points);
        assert!(
            points[&1]
                .comment
                .as_deref()
                .unwrap()
                .starts_with("engine: Black leads by 3.5 points")
        );
    }
}
