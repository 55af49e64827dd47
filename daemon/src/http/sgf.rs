//! SGF rebuilt from a board-state JSON, for the public under a broadcast delay (the runtime's SGF is live).

use std::fmt::Write as _;

use serde_json::Value;

/// Column letters of the letters-and-numbers notation: A..Z without I.
const COLUMNS: &str = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// An SGF FF[4] record of the moves in `state` (api.md board state), with game info and remaining times.
pub(crate) fn from_state(state: &Value) -> String {
    let size = state["size"]
        .as_u64()
        .filter(|s| (2..=25).contains(s))
        .unwrap_or(19);
    let mut out = format!("(;FF[4]GM[1]CA[UTF-8]AP[goban-bridge]SZ[{size}]");
    if let Some(komi) = state["komi"].as_f64() {
        let _ = write!(out, "KM[{komi}]");
    }
    if let Some(ruleset) = state["ruleset"].as_str() {
        let _ = write!(out, "RU[{}]", escape(ruleset_name(ruleset)));
    }
    for (tag, value) in [
        ("GN", &state["game"]),
        ("PB", player(state, "black")),
        ("PW", player(state, "white")),
        ("RE", &state["result"]),
    ] {
        if let Some(text) = value.as_str() {
            let _ = write!(out, "{tag}[{}]", escape(text));
        }
    }
    if let Some(handicap) = state["handicap"].as_u64().filter(|h| *h > 0) {
        let _ = write!(out, "HA[{handicap}]");
    }
    for record in state["moves"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
    {
        write_move(&mut out, record, size);
    }
    out.push_str(")\n");
    out
}

fn player<'a>(state: &'a Value, color: &str) -> &'a Value {
    match &state["players"][color] {
        Value::Null => &state[color],
        name => name,
    }
}

fn ruleset_name(ruleset: &str) -> &str {
    match ruleset {
        "cn2002" => "Chinese",
        "jk" => "Japanese",
        "ing" => "GOE",
        other => other,
    }
}

fn write_move(out: &mut String, record: &Value, size: u64) {
    let tag = match record["color"].as_str() {
        Some("black") => "B",
        Some("white") => "W",
        _ => return,
    };
    let Some(point) = record["point"].as_str().map(|p| sgf_point(p, size)) else {
        return;
    };
    let _ = write!(out, ";{tag}[{point}]");
    if let Some(left) = record["time_left_ms"].as_u64() {
        // BL/WL are seconds with decimals (SGF FF[4]).
        let _ = write!(out, "{tag}L[{:.3}]", left as f64 / 1000.0);
    }
}

/// `Q16` on 19x19 to `pd`; `pass` (or anything unreadable) to the FF[4] pass `""`.
fn sgf_point(point: &str, size: u64) -> String {
    let mut chars = point.chars();
    let column = chars
        .next()
        .and_then(|c| COLUMNS.find(c.to_ascii_uppercase()));
    let row: Option<u64> = chars.as_str().parse().ok();
    match (column, row) {
        (Some(column), Some(row)) if (column as u64) < size && (1..=size).contains(&row) => {
            let x = char::from(b'a' + column as u8);
            let y = char::from(b'a' + (size - row) as u8);
            format!("{x}{y}")
        }
        _ => String::new(),
    }
}

/// SGF text escaping: `]` and `\` get a backslash.
fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn points_map_to_sgf_coordinates() {
        assert_eq!(sgf_point("Q16", 19), "pd");
        assert_eq!(sgf_point("D4", 19), "dp");
        assert_eq!(sgf_point("A1", 19), "as");
        assert_eq!(sgf_point("T19", 19), "sa");
        assert_eq!(
            sgf_point("J9", 9),
            "ia",
            "J is the ninth column: I is skipped"
        );
        assert_eq!(sgf_point("pass", 19), "");
        assert_eq!(sgf_point("Z9", 9), "");
    }

    #[test]
    fn record_has_info_moves_and_times() {
        let state = json!({
            "size": 19, "komi": 7.5, "ruleset": "cn2002", "game": "g-1", "result": "B+R",
            "players": {"black": "Ke]Jie", "white": "Shin"},
            "moves": [
                {"number": 1, "color": "black", "point": "Q16", "time_left_ms": 3590000},
                {"number": 2, "color": "white", "point": "pass"},
            ]
        });
        let sgf = from_state(&state);
        assert!(sgf.starts_with("(;FF[4]GM[1]"), "{sgf}");
        for part in [
            "SZ[19]",
            "KM[7.5]",
            "RU[Chinese]",
            "GN[g-1]",
            "PB[Ke\\]Jie]",
            "PW[Shin]",
            "RE[B+R]",
        ] {
            assert!(sgf.contains(part), "{part} missing in {sgf}");
        }
        assert!(sgf.contains(";B[pd]BL[3590.000];W[])"), "{sgf}");
    }

    #[test]
    fn empty_state_still_gives_a_record() {
        assert_eq!(
            from_state(&json!({})),
            "(;FF[4]GM[1]CA[UTF-8]AP[goban-bridge]SZ[19])\n"
        );
    }
}
