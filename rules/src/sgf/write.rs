//! Writing a game as SGF FF\[4\]: SZ KM RU HA/AB PB PW DT EV RO PC TM OT RE, BL/WL OB/OW, comments and the count's TB/TW.

use std::fmt::Write as _;

use super::GameInfo;
use crate::score::Territory;
use crate::{Color, Game, Point};

/// Per-move extras written on the move's node.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoveAnnotation {
    /// The mover's time left after the move, seconds (`BL`/`WL`).
    pub time_left: Option<f64>,
    /// Byo-yomi periods or stones left (`OB`/`OW`).
    pub periods_left: Option<u32>,
    /// A comment (`C`), e.g. an infraction with its article.
    pub comment: Option<String>,
    /// Other properties of the node, written after the comment as `ID[value]` (value escaped),
    /// e.g. Sabaki's win rate `SBKV`. The identifier must be upper-case letters.
    pub properties: Vec<(String, String)>,
}

/// Seconds with at most millisecond precision and no trailing zeros: `600`, `12.5`.
fn seconds(t: f64) -> String {
    let s = format!("{t:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// Escapes an SGF text value (`]` and `\`).
fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

fn push_text(out: &mut String, ident: &str, value: Option<&str>) {
    if let Some(v) = value {
        // Writing to a String cannot fail.
        let _ = write!(out, "{ident}[{}]", escape(v));
    }
}

fn push_points(out: &mut String, ident: &str, points: &[Point], game: &Game) {
    if points.is_empty() {
        return;
    }
    out.push_str(ident);
    for p in points {
        let _ = write!(out, "[{}]", p.to_sgf(game.setup().size));
    }
}

/// Writes `game` as one FF\[4\] game tree. `annotations[i]` goes on move `i + 1`; the result
/// is the game's own once it has one, else `info.result`.
#[must_use]
pub fn write_sgf(game: &Game, info: &GameInfo, annotations: &[MoveAnnotation]) -> String {
    write_game(game, info, annotations, None)
}

/// As [`write_sgf`], with the count's owned points as `TB`/`TW` on the last node (the
/// dead stones' points are in the owner's list, as SGF marks them).
#[must_use]
pub fn write_sgf_counted(
    game: &Game,
    info: &GameInfo,
    annotations: &[MoveAnnotation],
    territory: &Territory,
) -> String {
    write_game(game, info, annotations, Some(territory))
}

fn write_game(
    game: &Game,
    info: &GameInfo,
    annotations: &[MoveAnnotation],
    territory: Option<&Territory>,
) -> String {
    let setup = game.setup();
    let size = setup.size;
    let mut out = String::from("(;FF[4]GM[1]CA[UTF-8]AP[goban-bridge:0.1]");
    let _ = write!(
        out,
        "SZ[{}]RU[{}]KM[{}]",
        size.lines(),
        setup.ruleset.sgf_name(),
        setup.komi
    );
    if setup.has_handicap() {
        let _ = write!(out, "HA[{}]", setup.handicap);
    }
    let stones: Vec<(Point, Color)> = game.initial_board().stones().collect();
    let of = |c: Color| {
        stones
            .iter()
            .filter(|s| s.1 == c)
            .map(|s| s.0)
            .collect::<Vec<_>>()
    };
    push_points(&mut out, "AB", &of(Color::Black), game);
    push_points(&mut out, "AW", &of(Color::White), game);
    if !stones.is_empty() || game.first_to_move() != Color::Black {
        let _ = write!(out, "PL[{}]", game.first_to_move().sgf_letter());
    }
    push_text(&mut out, "PB", info.black.as_deref());
    push_text(&mut out, "PW", info.white.as_deref());
    push_text(&mut out, "DT", info.date.as_deref());
    push_text(&mut out, "EV", info.event.as_deref());
    push_text(&mut out, "RO", info.round.as_deref());
    push_text(&mut out, "PC", info.place.as_deref());
    if let Some(t) = info.time_limit {
        let _ = write!(out, "TM[{}]", seconds(t));
    }
    push_text(&mut out, "OT", info.overtime.as_deref());
    let result = game
        .result()
        .map(|r| r.to_sgf())
        .or_else(|| info.result.clone());
    push_text(&mut out, "RE", result.as_deref());
    push_text(&mut out, "C", info.comment.as_deref());
    for (i, m) in game.moves().iter().enumerate() {
        let _ = write!(out, "\n;{}[{}]", m.color.sgf_letter(), m.mv.to_sgf(size));
        let Some(a) = annotations.get(i) else {
            continue;
        };
        let letter = m.color.sgf_letter();
        if let Some(t) = a.time_left {
            let _ = write!(out, "{letter}L[{}]", seconds(t));
        }
        if let Some(n) = a.periods_left {
            let _ = write!(out, "O{letter}[{n}]");
        }
        push_text(&mut out, "C", a.comment.as_deref());
        for (ident, value) in &a.properties {
            if !ident.is_empty() && ident.bytes().all(|b| b.is_ascii_uppercase()) {
                push_text(&mut out, ident, Some(value));
            }
        }
    }
    if let Some(t) = territory {
        push_points(&mut out, "TB", &t.black, game);
        push_points(&mut out, "TW", &t.white, game);
    }
    out.push_str(")\n");
    out
}
