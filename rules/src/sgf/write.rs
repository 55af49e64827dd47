//! Writing a game as SGF FF\[4\]: SZ KM RU HA/AB PB PW DT EV RO PC TM OT RE, BL/WL OB/OW, comments, setup blocks (AB/AW/AE) and the count's TB/TW.

use std::fmt::Write as _;

use super::GameInfo;
use crate::score::Territory;
use crate::{Color, Game, Point, SetupBlock};

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

/// A setup block (moves `first`.. whose order is unknown) as one setup node: `AB`/`AW` for
/// the stones it put on, `AE` for the points it emptied, `PL` for who moves next, and a
/// comment that names the moves by colour, by point (not in a guessed order), with the
/// comments of `annotations` (those of the block's moves).
fn push_block(
    out: &mut String,
    game: &Game,
    block: &SetupBlock,
    first: usize,
    annotations: &[MoveAnnotation],
) {
    let size = game.setup().size;
    out.push_str("\n;");
    let of = |c: Color| {
        block
            .added()
            .iter()
            .filter(|s| s.1 == c)
            .map(|s| s.0)
            .collect::<Vec<_>>()
    };
    push_points(out, "AB", &of(Color::Black), game);
    push_points(out, "AW", &of(Color::White), game);
    push_points(out, "AE", block.removed(), game);
    let _ = write!(out, "PL[{}]", block.to_move().sgf_letter());
    let last = first + block.len() - 1;
    let mut lines = vec![format!(
        "moves {first}-{last}: order unknown (played while the board could not see; \
         nothing guessed)"
    )];
    for color in Color::BOTH {
        let names: Vec<String> = block
            .moves()
            .iter()
            .filter(|(c, _)| *c == color)
            .map(|(_, mv)| mv.display(size).to_string())
            .collect();
        if !names.is_empty() {
            let player = match color {
                Color::Black => "Black",
                Color::White => "White",
            };
            lines.push(format!("{player}: {}", names.join(" ")));
        }
        let unseen = block.unseen().iter().filter(|&&c| c == color).count();
        if unseen > 0 {
            let player = match color {
                Color::Black => "Black",
                Color::White => "White",
            };
            lines.push(format!(
                "{player}: {unseen} move(s) nobody saw (a pass, or a stone taken off within the block)"
            ));
        }
    }
    let comments = annotations.iter().take(block.len());
    lines.extend(comments.filter_map(|a| a.comment.clone()));
    push_text(out, "C", Some(&lines.join("\n")));
}

/// Writes `game` as one FF\[4\] game tree. `annotations[i]` goes on move `i + 1`; the moves of
/// a setup block are one setup node (`AB`/`AW`/`AE`, `PL`, and a comment "moves N-M: order
/// unknown"). The result is the game's own once it has one, else `info.result`.
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
    let mut block_end = 0;
    for (i, m) in game.moves().iter().enumerate() {
        if i < block_end {
            continue;
        }
        if let Some(block) = game.setup_block_at(i + 1).filter(|_| !m.order_known) {
            block_end = i + block.len();
            push_block(
                &mut out,
                game,
                block,
                i + 1,
                &annotations[i.min(annotations.len())..],
            );
            continue;
        }
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
