//! The `info move ...` lines of GTP `lz-analyze` (Leela Zero) and `kata-analyze` (KataGo), read into candidate moves from Black's side.

use goban_rules::Color;

use super::config::GtpStyle;
use super::report::{Candidate, Verdict, for_black, vertex_name, winrate_for_black};

/// Words after `pv` that end a principal variation (KataGo's optional extras).
const AFTER_PV: [&str; 5] = [
    "pvVisits",
    "pvEdgeVisits",
    "ownership",
    "ownershipStdev",
    "movesOwnership",
];

/// One `info move ...` line (or several on one line, as both engines print them), as the
/// side to move `side` sees it; `None` when the line holds no move.
pub fn parse_line(line: &str, style: GtpStyle, side: Color) -> Option<Verdict> {
    let mut candidates: Vec<(u32, Candidate)> = Vec::new();
    let mut words = line.split_whitespace().peekable();
    while let Some(word) = words.next() {
        if word != "info" {
            continue;
        }
        let mut candidate = Candidate {
            point: String::new(),
            visits: None,
            winrate: None,
            score_lead: None,
            value: None,
            pv: Vec::new(),
        };
        let mut order = u32::MAX;
        while let Some(key) = words.next_if(|w| *w != "info") {
            if key == "pv" {
                while let Some(step) = words.next_if(|w| *w != "info" && !AFTER_PV.contains(w)) {
                    candidate.pv.push(vertex_name(step));
                }
                continue;
            }
            if AFTER_PV.contains(&key) {
                // Numbers per point: skip to the next `info`.
                while words.next_if(|w| *w != "info").is_some() {}
                break;
            }
            let Some(value) = words.next_if(|w| *w != "info") else {
                break;
            };
            read_field(&mut candidate, &mut order, key, value, style, side);
        }
        if !candidate.point.is_empty() {
            candidates.push((order, candidate));
        }
    }
    if candidates.is_empty() {
        return None;
    }
    candidates.sort_by_key(|(order, _)| *order);
    let best = &candidates[0].1;
    Some(Verdict {
        score_lead: best.score_lead,
        winrate: best.winrate,
        candidates: candidates.into_iter().map(|(_, c)| c).collect(),
    })
}

fn read_field(
    candidate: &mut Candidate,
    order: &mut u32,
    key: &str,
    value: &str,
    style: GtpStyle,
    side: Color,
) {
    match key {
        "move" => candidate.point = vertex_name(value),
        "visits" => candidate.visits = value.parse().ok(),
        "order" => *order = value.parse().unwrap_or(u32::MAX),
        "winrate" => {
            let raw: Option<f64> = value.parse().ok();
            // Leela Zero gives hundredths of a percent (0..10000), KataGo a fraction.
            let fraction = match style {
                GtpStyle::LzAnalyze => raw.map(|w| w / 10_000.0),
                _ => raw,
            };
            candidate.winrate = fraction.map(|w| winrate_for_black(w, side));
        }
        "scoreLead" => {
            candidate.score_lead = value.parse().ok().map(|s| for_black(s, side));
        }
        _ => {}
    }
}

/// The command that starts the analysis, reporting every `interval_cs` hundredths of a second.
pub fn analyze_command(style: GtpStyle, side: Color, interval_cs: u32) -> String {
    let verb = match style {
        GtpStyle::KataAnalyze => "kata-analyze",
        _ => "lz-analyze",
    };
    format!("{verb} {} {interval_cs}", super::position::letter(side))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leela_zero_lines_read_as_blacks_fractions() {
        let line = "info move D4 visits 120 winrate 4000 prior 1234 lcb 3900 order 1 pv D4 Q16 \
                    info move Q16 visits 300 winrate 5500 prior 2000 lcb 5400 order 0 pv Q16 D4 C3";
        let verdict = parse_line(line, GtpStyle::LzAnalyze, Color::White).unwrap();
        assert_eq!(verdict.candidates.len(), 2);
        assert_eq!(verdict.candidates[0].point, "Q16", "order 0 first");
        assert_eq!(verdict.candidates[0].pv, ["Q16", "D4", "C3"]);
        assert_eq!(verdict.candidates[0].visits, Some(300));
        let black = verdict.winrate.unwrap();
        assert!(
            (black - 0.45).abs() < 1e-9,
            "White's 55% is Black's 45%: {black}"
        );
        assert_eq!(verdict.score_lead, None, "Leela Zero gives no score");
    }

    #[test]
    fn katago_lines_with_extras_read_scores() {
        let line = "info move C3 visits 10 utility 0.1 winrate 0.7 scoreMean 3.0 scoreStdev 20 \
                    scoreLead 2.5 prior 0.1 lcb 0.6 utilityLcb 0.1 order 0 pv C3 D4 pvVisits 10 5 \
                    info move pass visits 1 winrate 0.2 scoreLead -4 order 1 pv pass ownership 0.1 0.2";
        let verdict = parse_line(line, GtpStyle::KataAnalyze, Color::Black).unwrap();
        assert_eq!(verdict.score_lead, Some(2.5));
        assert_eq!(verdict.winrate, Some(0.7));
        assert_eq!(
            verdict.candidates[0].pv,
            ["C3", "D4"],
            "pvVisits ends the pv"
        );
        assert_eq!(verdict.candidates[1].point, "pass");
        assert_eq!(verdict.candidates[1].score_lead, Some(-4.0));
    }

    #[test]
    fn lines_without_moves_are_nothing() {
        assert_eq!(parse_line("= ", GtpStyle::KataAnalyze, Color::Black), None);
        assert_eq!(
            parse_line("info visits 3", GtpStyle::KataAnalyze, Color::Black),
            None
        );
    }

    #[test]
    fn commands_name_the_side() {
        assert_eq!(
            analyze_command(GtpStyle::KataAnalyze, Color::White, 50),
            "kata-analyze W 50"
        );
        assert_eq!(
            analyze_command(GtpStyle::LzAnalyze, Color::Black, 50),
            "lz-analyze B 50"
        );
    }
}
