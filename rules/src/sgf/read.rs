//! Reading SGF records with `sgf-parse`, smoothing the quirks of real archives.
//!
//! Handled: komi stored x100 (`KM[750]`), `tt` passes on boards up to 19x19, setup stones
//! after the root (kept as [`SgfEvent::Setup`]), all-lower-case property names (`b[pd]`),
//! FF\[3\] mixed-case names (`AddBlack`), missing `SZ` (19), a byte-order mark or prose before
//! the first `(`, truncated files (read leniently, flagged [`SgfGame::recovered`]). Consecutive same-colour moves
//! are kept as recorded; [`SgfGame::replay`] reads them as an implied pass.

use sgf_parse::go::{Move as SgfMoveValue, Prop};
use sgf_parse::{ParseOptions, SgfNode};

use super::GameInfo;
use crate::{BoardSize, Color, GameSetup, HandicapPlacement, Move, Point, RulesError, Ruleset};

/// One move of a record with its annotations.
#[derive(Clone, Debug, PartialEq)]
pub struct SgfMove {
    /// The colour that moved.
    pub color: Color,
    /// The move.
    pub mv: Move,
    /// `C` of the move's node.
    pub comment: Option<String>,
    /// `BL`/`WL`: the mover's time left, seconds.
    pub time_left: Option<f64>,
    /// `OB`/`OW`: byo-yomi periods or stones left.
    pub periods_left: Option<i64>,
}

/// What a node of the main line does.
#[derive(Clone, Debug, PartialEq)]
pub enum SgfEvent {
    /// A move.
    Move(SgfMove),
    /// Setup stones added or cleared after the root (`AB`/`AW`/`AE`).
    Setup {
        /// Stones added.
        add: Vec<(Point, Color)>,
        /// Points cleared.
        clear: Vec<Point>,
        /// `PL` on the node: who moves next (a block of moves whose order is unknown ends
        /// with it); `None` keeps the turn as it was.
        to_move: Option<Color>,
    },
}

/// One game of an SGF collection: main line only.
#[derive(Clone, Debug, PartialEq)]
pub struct SgfGame {
    /// Size, ruleset (from `RU`; CN2002 when `RU` is absent or unknown), komi (`KM`; when
    /// absent, 0 with a handicap, else the ruleset's default komi), handicap.
    pub setup: GameSetup,
    /// Names, date, event, result, rules text.
    pub info: GameInfo,
    /// Stones of the starting position (root `AB`/`AW`, and setup nodes before any move).
    pub setup_stones: Vec<(Point, Color)>,
    /// `PL` at the root, if given.
    pub player_to_move: Option<Color>,
    /// The main line after the root.
    pub events: Vec<SgfEvent>,
    /// The text had a syntax error and was read leniently up to it (truncated archives).
    pub recovered: bool,
}

/// Reads every game of an SGF collection.
///
/// # Errors
/// [`RulesError::SgfSyntax`] when `sgf-parse` rejects the text; [`RulesError::SgfContent`]
/// for non-Go games, non-square or unsupported sizes, or points off the board.
pub fn read_sgf(text: &str) -> Result<Vec<SgfGame>, RulesError> {
    // Archives put a byte-order mark or a paragraph of prose before the first `(`: skip it.
    let text = text.find('(').map_or(text, |start| &text[start..]);
    let text = upper_case_lower_case_identifiers(text);
    let strict = ParseOptions {
        convert_mixed_case_identifiers: true,
        lenient: false,
    };
    let (trees, recovered) = match sgf_parse::parse_with_options(&text, &strict) {
        Ok(trees) => (trees, false),
        Err(e) => {
            // Truncated or damaged archives: keep what parses, flagged, or report the error.
            let lenient = ParseOptions {
                convert_mixed_case_identifiers: true,
                lenient: true,
            };
            match sgf_parse::parse_with_options(&text, &lenient) {
                Ok(trees) if trees.iter().any(has_content) => (trees, true),
                _ => return Err(RulesError::SgfSyntax(e.to_string())),
            }
        }
    };
    trees
        .into_iter()
        .map(|tree| {
            let root = tree
                .into_go_node()
                .map_err(|e| RulesError::SgfContent(e.to_string()))?;
            let mut game = read_game(&root)?;
            game.recovered = recovered;
            Ok(game)
        })
        .collect()
}

/// Records read from bytes, with what the decoding had to say.
#[derive(Clone, Debug, PartialEq)]
pub struct SgfBytes {
    /// The games.
    pub games: Vec<SgfGame>,
    /// The encoding the bytes were decoded with (`encoding_rs`'s name, e.g. `GBK`).
    pub encoding: &'static str,
    /// Decoding problems: an unknown `CA`, bytes that are not valid in the encoding
    /// (replaced by U+FFFD). Empty when the text decoded cleanly.
    pub warnings: Vec<String>,
}

/// Reads every game of an SGF collection from bytes, decoded by the root's `CA`
/// (GB2312, GBK, Big5, Shift_JIS, EUC-KR, Latin-1... any WHATWG label), UTF-8 when `CA` is
/// absent. An unknown `CA` or bytes invalid in the encoding are decoded as UTF-8 (invalid
/// bytes become U+FFFD) and reported in [`SgfBytes::warnings`].
///
/// ```
/// use goban_rules::sgf::read_sgf_bytes;
/// // "PB[聂卫平]" in GB2312.
/// let mut bytes = b"(;CA[gb2312]SZ[19]PB[".to_vec();
/// bytes.extend([0xC4, 0xF4, 0xCE, 0xC0, 0xC6, 0xBD]);
/// bytes.extend(b"];B[pd])");
/// let read = read_sgf_bytes(&bytes)?;
/// assert_eq!(read.games[0].info.black.as_deref(), Some("聂卫平"));
/// assert!(read.warnings.is_empty());
/// # Ok::<(), goban_rules::RulesError>(())
/// ```
///
/// # Errors
/// As [`read_sgf`].
pub fn read_sgf_bytes(bytes: &[u8]) -> Result<SgfBytes, RulesError> {
    let mut warnings = Vec::new();
    let label = charset_label(bytes);
    let encoding = match label.as_deref() {
        None => encoding_rs::UTF_8,
        Some(l) => encoding_rs::Encoding::for_label(l.as_bytes()).unwrap_or_else(|| {
            warnings.push(format!("unknown CA[{l}]: read as UTF-8"));
            encoding_rs::UTF_8
        }),
    };
    let (text, used, had_errors) = encoding.decode(bytes);
    if had_errors {
        warnings.push(format!(
            "bytes invalid in {}: replaced by U+FFFD",
            used.name()
        ));
    }
    Ok(SgfBytes {
        games: read_sgf(&text)?,
        encoding: used.name(),
        warnings,
    })
}

/// The value of the first `CA[...]` in the bytes. Every encoding SGF files use keeps ASCII
/// bytes for ASCII, and `CA`'s value is ASCII, so it is found before decoding.
fn charset_label(bytes: &[u8]) -> Option<String> {
    let at = bytes
        .windows(3)
        .position(|w| w.eq_ignore_ascii_case(b"CA["))?;
    let value = &bytes[at + 3..];
    let end = value.iter().position(|&b| b == b']')?;
    let label = std::str::from_utf8(&value[..end]).ok()?.trim();
    (!label.is_empty()).then(|| label.to_owned())
}

/// Whether a leniently parsed tree holds anything (an empty file parses as one empty node).
fn has_content(tree: &sgf_parse::GameTree) -> bool {
    tree.as_go_node()
        .is_ok_and(|n| n.properties().next().is_some() || n.children().next().is_some())
}

/// Old files write whole identifiers in lower case (`b[pd]`); sgf-parse would drop lower-case
/// letters (its FF\[3\] mixed-case rule), so such identifiers are upper-cased first. Values
/// (inside brackets, with `\` escapes) are left untouched.
fn upper_case_lower_case_identifiers(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut ident = String::new();
    let (mut in_value, mut escaped) = (false, false);
    for ch in text.chars() {
        if in_value {
            out.push(ch);
            match (escaped, ch) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, ']') => in_value = false,
                _ => {}
            }
            continue;
        }
        if ch.is_ascii_alphabetic() {
            ident.push(ch);
            continue;
        }
        if ident.chars().all(|c| c.is_ascii_lowercase()) {
            ident.make_ascii_uppercase();
        }
        out.push_str(&ident);
        ident.clear();
        in_value = ch == '[';
        out.push(ch);
    }
    out.push_str(&ident);
    out
}

fn read_game(root: &SgfNode<Prop>) -> Result<SgfGame, RulesError> {
    let size = read_size(root)?;
    let mut game = SgfGame {
        setup: GameSetup::new(size, Ruleset::Cn2002),
        info: GameInfo::default(),
        setup_stones: Vec::new(),
        player_to_move: None,
        events: Vec::new(),
        recovered: false,
    };
    read_root(root, &mut game)?;
    let mut moved = false;
    for node in root.main_variation().skip(1) {
        let (add, clear, to_move) = read_setup(node, size)?;
        if !moved && clear.is_empty() {
            game.setup_stones.extend(add);
        } else if !add.is_empty() || !clear.is_empty() {
            game.events.push(SgfEvent::Setup {
                add,
                clear,
                to_move,
            });
        }
        if let Some(m) = read_move(node, size)? {
            moved = true;
            game.events.push(SgfEvent::Move(m));
        }
    }
    Ok(game)
}

fn read_size(root: &SgfNode<Prop>) -> Result<BoardSize, RulesError> {
    match root.get_property("SZ") {
        Some(Prop::SZ((w, h))) if w == h => BoardSize::new(*w),
        Some(Prop::SZ((w, h))) => Err(RulesError::SgfContent(format!("non-square board {w}x{h}"))),
        Some(other) => Err(RulesError::SgfContent(format!("bad size {other}"))),
        None => Ok(BoardSize::NINETEEN),
    }
}

/// Real files store komi x100 (`KM[750]`): a komi too large for any board is scaled down.
fn normalise_komi(km: f64) -> f64 {
    if km.abs() >= 100.0 { km / 100.0 } else { km }
}

fn read_root(root: &SgfNode<Prop>, game: &mut SgfGame) -> Result<(), RulesError> {
    let size = game.setup.size;
    let mut handicap = 0u8;
    for prop in root.properties() {
        match prop {
            Prop::RU(t) => {
                let text = t.to_string();
                if let Some(r) = Ruleset::from_sgf_name(&text) {
                    game.setup = GameSetup::new(size, r);
                }
                game.info.rules = Some(text);
            }
            Prop::HA(n) => handicap = u8::try_from(*n).unwrap_or(0),
            Prop::PB(t) => game.info.black = Some(t.to_string()),
            Prop::PW(t) => game.info.white = Some(t.to_string()),
            Prop::DT(t) => game.info.date = Some(t.to_string()),
            Prop::EV(t) => game.info.event = Some(t.to_string()),
            Prop::RO(t) => game.info.round = Some(t.to_string()),
            Prop::PC(t) => game.info.place = Some(t.to_string()),
            Prop::TM(t) => game.info.time_limit = Some(*t),
            Prop::OT(t) => game.info.overtime = Some(t.to_string()),
            Prop::RE(t) => game.info.result = Some(t.to_string()),
            Prop::C(t) => game.info.comment = Some(t.to_string()),
            Prop::PL(c) => game.player_to_move = Some(color(*c)),
            _ => {}
        }
    }
    // One rule for komi (docs/rules.md): `KM` when given; else 0 with a handicap; else the
    // default komi of the ruleset the record is read under, which is `RU`'s, or CN2002's
    // when `RU` is absent or unknown (7.5 points).
    game.setup.komi = match root.get_property("KM") {
        Some(Prop::KM(k)) => normalise_komi(*k),
        _ if handicap >= 2 => 0.0,
        _ => game.setup.ruleset.default_komi(),
    };
    let (add, _, _) = read_setup(root, size)?;
    game.setup_stones = add;
    if handicap >= 2 {
        let komi = game.setup.komi;
        game.setup = game
            .setup
            .with_handicap(handicap, HandicapPlacement::Free)
            .with_komi(komi);
    }
    Ok(())
}

fn color(c: sgf_parse::Color) -> Color {
    match c {
        sgf_parse::Color::Black => Color::Black,
        sgf_parse::Color::White => Color::White,
    }
}

fn to_point(p: sgf_parse::go::Point, size: BoardSize) -> Result<Point, RulesError> {
    Point::from_row_col(p.y, p.x, size).ok_or_else(|| {
        RulesError::SgfContent(format!("point ({}, {}) off a {size} board", p.x, p.y))
    })
}

fn sorted_points(
    set: &std::collections::HashSet<sgf_parse::go::Point>,
    size: BoardSize,
) -> Result<Vec<Point>, RulesError> {
    let mut pts = set
        .iter()
        .map(|&p| to_point(p, size))
        .collect::<Result<Vec<_>, _>>()?;
    pts.sort_unstable();
    Ok(pts)
}

/// A node's stones added, points cleared and `PL`.
type SetupStones = (Vec<(Point, Color)>, Vec<Point>, Option<Color>);

fn read_setup(node: &SgfNode<Prop>, size: BoardSize) -> Result<SetupStones, RulesError> {
    let (mut add, mut clear, mut to_move) = (Vec::new(), Vec::new(), None);
    for prop in node.properties() {
        match prop {
            Prop::AB(set) => add.extend(
                sorted_points(set, size)?
                    .into_iter()
                    .map(|p| (p, Color::Black)),
            ),
            Prop::AW(set) => add.extend(
                sorted_points(set, size)?
                    .into_iter()
                    .map(|p| (p, Color::White)),
            ),
            Prop::AE(set) => clear.extend(sorted_points(set, size)?),
            Prop::PL(c) => to_move = Some(color(*c)),
            _ => {}
        }
    }
    Ok((add, clear, to_move))
}

fn read_move(node: &SgfNode<Prop>, size: BoardSize) -> Result<Option<SgfMove>, RulesError> {
    let (color, value) = match node.get_move() {
        Some(Prop::B(v)) => (Color::Black, v),
        Some(Prop::W(v)) => (Color::White, v),
        _ => return Ok(None),
    };
    let mv = match value {
        SgfMoveValue::Pass => Move::Pass,
        SgfMoveValue::Move(p) if p.x == 19 && p.y == 19 && size.lines() <= 19 => Move::Pass,
        SgfMoveValue::Move(p) => Move::Play(to_point(*p, size)?),
    };
    let mut m = SgfMove {
        color,
        mv,
        comment: None,
        time_left: None,
        periods_left: None,
    };
    for prop in node.properties() {
        match (prop, color) {
            (Prop::C(t), _) => m.comment = Some(t.to_string()),
            (Prop::BL(t), Color::Black) | (Prop::WL(t), Color::White) => m.time_left = Some(*t),
            (Prop::OB(n), Color::Black) | (Prop::OW(n), Color::White) => m.periods_left = Some(*n),
            _ => {}
        }
    }
    Ok(Some(m))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lower_case_identifiers_are_upper_cased_outside_values() {
        let t = upper_case_lower_case_identifiers("(;sz[9]C[b[x\\]y] AddBlack[aa];b[ee])");
        assert_eq!(t, "(;SZ[9]C[b[x\\]y] AddBlack[aa];B[ee])");
    }

    #[test]
    fn bytes_are_decoded_by_ca_with_warnings_for_the_unknown() {
        // "李" in Big5 (A7 F5) and Shift_JIS "碁" (8C E9).
        let big5 = read_sgf_bytes(b"(;CA[Big5]PW[\xA7\xF5];B[aa])").unwrap();
        assert_eq!(big5.games[0].info.white.as_deref(), Some("李"));
        assert_eq!(big5.encoding, "Big5");
        let sjis = read_sgf_bytes(b"(;CA[Shift_JIS]EV[\x8C\xE9];B[aa])").unwrap();
        assert_eq!(sjis.games[0].info.event.as_deref(), Some("碁"));
        let unknown = read_sgf_bytes(b"(;CA[klingon]PB[x];B[aa])").unwrap();
        assert_eq!(unknown.encoding, "UTF-8");
        assert_eq!(unknown.warnings.len(), 1);
        let bad = read_sgf_bytes(b"(;PB[\xFF];B[aa])").unwrap();
        assert_eq!(bad.games[0].info.black.as_deref(), Some("\u{FFFD}"));
        assert_eq!(bad.warnings.len(), 1);
    }

    #[test]
    fn empty_text_is_an_error() {
        assert!(matches!(read_sgf(""), Err(RulesError::SgfSyntax(_))));
        assert!(matches!(read_sgf("garbage"), Err(RulesError::SgfSyntax(_))));
    }

    #[test]
    fn truncated_text_is_recovered_and_flagged() {
        let games = read_sgf("(;SZ[9];B[ee];W[cc];").unwrap();
        assert!(games[0].recovered);
        assert_eq!(games[0].events.len(), 2);
    }

    #[test]
    fn komi_x100_is_scaled() {
        assert!((normalise_komi(750.0) - 7.5).abs() < 1e-9);
        assert!((normalise_komi(6.5) - 6.5).abs() < 1e-9);
        assert!((normalise_komi(-350.0) + 3.5).abs() < 1e-9);
    }
}
