//! SGF: the quirks of real archives, and write-read round trips.
mod common;

use goban_rules::sgf::{GameInfo, MoveAnnotation, SgfEvent, read_sgf, write_sgf};
use goban_rules::{
    BoardSize, Color, Game, GameResult, GameSetup, HandicapPlacement, KoRule, Move, Point, Ruleset,
};

#[test]
fn komi_x100_tt_pass_and_lower_case_properties() {
    let text = "(;gm[1]sz[19]km[750]ru[Chinese]pb[Ke Jie];b[pd];w[tt];b[dd];w[])";
    let g = &read_sgf(text).unwrap()[0];
    assert_eq!(g.setup.komi, 7.5);
    assert_eq!(g.setup.ruleset, Ruleset::Cn2002);
    assert_eq!(g.info.black.as_deref(), Some("Ke Jie"));
    let r = g.replay().unwrap();
    assert_eq!(r.game.moves()[1].mv, Move::Pass);
    assert_eq!(r.game.moves()[3].mv, Move::Pass);
    assert_eq!(r.game.board().stone_count(Color::Black), 2);
}

#[test]
fn consecutive_same_colour_moves_imply_a_pass() {
    let g = &read_sgf("(;SZ[9];B[ee];B[cc];W[gg])").unwrap()[0];
    let r = g.replay().unwrap();
    assert_eq!(r.implied_passes, 1);
    let colors: Vec<Color> = r.game.moves().iter().map(|m| m.color).collect();
    assert_eq!(
        colors,
        [Color::Black, Color::White, Color::Black, Color::White]
    );
    assert_eq!(r.game.moves()[1].mv, Move::Pass);
}

#[test]
fn setup_stones_after_the_root() {
    // Before any move: part of the start position. After a move: the position is rebased.
    let g = &read_sgf("(;SZ[9];AB[cc][gg]AW[cg];W[ee];AE[cc]AB[aa];W[gc])").unwrap()[0];
    assert_eq!(g.setup_stones.len(), 3);
    assert!(matches!(g.events[1], SgfEvent::Setup { .. }));
    let r = g.replay().unwrap();
    assert_eq!(r.rebased_after, [1]);
    let b = r.game.board();
    let size = BoardSize::NINE;
    assert_eq!(b.get(Point::parse_sgf("cc", size).unwrap()), None);
    assert_eq!(
        b.get(Point::parse_sgf("aa", size).unwrap()),
        Some(Color::Black)
    );
    assert_eq!(
        b.get(Point::parse_sgf("gc", size).unwrap()),
        Some(Color::White)
    );
}

#[test]
fn ff3_mixed_case_and_handicap_stones() {
    let g = &read_sgf("(;GaMe[1]SiZe[9]HA[2]AddBlack[gc][cg];W[ee])").unwrap()[0];
    assert_eq!(g.setup.handicap, 2);
    assert_eq!(g.setup.komi, 0.0);
    let r = g.replay().unwrap();
    assert_eq!(r.game.first_to_move(), Color::White);
    assert_eq!(r.game.board().stone_count(Color::Black), 2);
}

#[test]
fn illegal_record_names_the_move() {
    let g = &read_sgf("(;SZ[9];B[ee];W[ee])").unwrap()[0];
    let err = g.replay().unwrap_err();
    assert_eq!(
        err,
        goban_rules::RulesError::SgfIllegalMove {
            record_move: 2,
            color: Color::White,
            mv: goban_rules::Move::Play(
                goban_rules::Point::parse_human("E5", g.setup.size).unwrap()
            ),
            at: "E5".to_owned(),
            reason: goban_rules::IllegalReason::Occupied
        }
    );
    assert_eq!(
        err.to_string(),
        "SGF record move 2 (white E5) is illegal: the point is occupied (CN2002 2.3)"
    );
    assert!(read_sgf("(;SZ[9:13];B[aa])").is_err());
}

fn sample_game() -> (Game, GameInfo, Vec<MoveAnnotation>) {
    let setup = GameSetup::new(BoardSize::THIRTEEN, Ruleset::Cn2002)
        .with_handicap(3, HandicapPlacement::Fixed);
    let mut g = Game::new(setup).unwrap();
    let mut notes = Vec::new();
    for (i, name) in ["C3", "C4", "D3", "pass", "pass"].iter().enumerate() {
        let mv = if *name == "pass" {
            Move::Pass
        } else {
            Move::Play(Point::parse_human(name, setup.size).unwrap())
        };
        g.play(g.to_move(), mv).unwrap();
        notes.push(MoveAnnotation {
            time_left: Some(600.0 - i as f64),
            periods_left: (i == 2).then_some(3),
            comment: (i == 1).then(|| "missed_capture (CN2002 18.2, 22.6) [warning]".to_owned()),
            properties: if i == 2 {
                vec![
                    ("SBKV".into(), "61.50".into()),
                    ("bad id".into(), "x".into()),
                ]
            } else {
                Vec::new()
            },
        });
    }
    g.end_with(GameResult::parse_sgf("W+0.25").unwrap())
        .unwrap();
    let info = GameInfo {
        black: Some("Nie Weiping".into()),
        white: Some("Cho Hunhyun".into()),
        date: Some("2026-11-30".into()),
        event: Some("Hall cup".into()),
        round: Some("1".into()),
        place: Some("Beijing, Qiyuan hall".into()),
        time_limit: Some(600.0),
        overtime: Some("3x30 byo-yomi".into()),
        comment: Some("recorded by goban-bridge".into()),
        ..GameInfo::default()
    };
    (g, info, notes)
}

#[test]
fn written_sgf_reads_back_the_same_game() {
    let (g, info, notes) = sample_game();
    let text = write_sgf(&g, &info, &notes);
    assert!(text.starts_with("(;FF[4]GM[1]"), "{text}");
    for needle in [
        "SZ[13]",
        "RU[Chinese]",
        "KM[0]",
        "HA[3]",
        "AB[",
        "RE[W+0.25]",
        "DT[2026-11-30]",
        "OW[3]",
        "WL[600]",
        "EV[Hall cup]",
        "RO[1]",
        "PC[Beijing, Qiyuan hall]",
        "TM[600]",
        "OT[3x30 byo-yomi]",
        "SBKV[61.50]",
    ] {
        assert!(text.contains(needle), "{needle} missing in {text}");
    }
    assert!(
        !text.contains("bad id"),
        "a property id not of capitals is not written"
    );
    let back = &read_sgf(&text).unwrap()[0];
    assert_eq!(back.setup.size, g.setup().size);
    assert_eq!(back.setup.handicap, 3);
    assert_eq!(back.info.black, info.black);
    assert_eq!(back.info.event, info.event);
    assert_eq!(
        (&back.info.round, &back.info.place, &back.info.overtime),
        (&info.round, &info.place, &info.overtime)
    );
    assert_eq!(back.info.time_limit, Some(600.0));
    assert_eq!(back.info.result.as_deref(), Some("W+0.25"));
    let r = back.replay_with(KoRule::Situational).unwrap();
    assert_eq!(r.game.board(), g.board());
    let moves: Vec<(Color, Move)> = r.game.moves().iter().map(|m| (m.color, m.mv)).collect();
    let orig: Vec<(Color, Move)> = g.moves().iter().map(|m| (m.color, m.mv)).collect();
    assert_eq!(moves, orig);
    let SgfEvent::Move(second) = &back.events[1] else {
        panic!("a move")
    };
    assert_eq!(second.comment, notes[1].comment);
    assert_eq!(second.time_left, Some(599.0));
    // Writing the re-read game again gives the same text.
    let mut again = r.game.clone();
    again
        .end_with(GameResult::parse_sgf("W+0.25").unwrap())
        .unwrap();
    assert_eq!(write_sgf(&again, &back.info, &notes), text);
}

#[test]
fn corpus_games_round_trip() {
    let Some(root) = common::corpus_dir("corpus_games_round_trip") else {
        return;
    };
    let dir = root.join("ai-19x19");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap().flatten().take(40) {
        let text = std::fs::read_to_string(entry.path()).unwrap();
        let rec = &read_sgf(&text).unwrap()[0];
        let game = rec.replay().unwrap().game;
        let written = write_sgf(&game, &rec.info, &[]);
        let back = read_sgf(&written).unwrap()[0].replay().unwrap().game;
        assert_eq!(back.board(), game.board(), "{:?}", entry.path());
        assert_eq!(back.moves(), game.moves());
        n += 1;
    }
    assert!(n > 0);
}

#[test]
fn one_komi_rule_km_else_handicap_zero_else_the_rulesets_default() {
    let komi = |text: &str| read_sgf(text).unwrap()[0].setup.komi;
    // Neither KM nor RU: CN2002, its 7.5 points; an unknown RU reads the same.
    assert_eq!(komi("(;SZ[9];B[ee])"), 7.5);
    assert_eq!(komi("(;SZ[9]RU[Martian];B[ee])"), 7.5);
    // A known RU without KM: that ruleset's default.
    assert_eq!(komi("(;SZ[9]RU[Japanese];B[ee])"), 6.5);
    assert_eq!(komi("(;SZ[9]RU[GOE];B[ee])"), 8.0);
    // KM always wins, before or after RU; a handicap without KM has none.
    assert_eq!(komi("(;SZ[9]KM[0.5]RU[Japanese];B[ee])"), 0.5);
    assert_eq!(komi("(;SZ[9]RU[Japanese]KM[0];B[ee])"), 0.0);
    assert_eq!(komi("(;SZ[9]HA[2]AB[cc][gg];W[ee])"), 0.0);
}

#[test]
fn stepping_replay_goes_on_past_an_illegal_move_when_told_to() {
    use goban_rules::sgf::OnIllegal;
    // W[ee] is on an occupied point; B[cc] comes after it.
    let g = &read_sgf("(;SZ[9];B[ee];W[ee];W[gg];B[cc])").unwrap()[0];
    let stop: Vec<_> = g.steps(KoRule::Simple, OnIllegal::Stop).unwrap().collect();
    assert_eq!(stop.len(), 2);
    let mut steps = g.steps(KoRule::Simple, OnIllegal::Skip).unwrap();
    let outcomes: Vec<bool> = steps.by_ref().map(|s| s.outcome.is_ok()).collect();
    assert_eq!(outcomes, [true, false, true, true]);
    assert_eq!(steps.game().board().stone_count(Color::Black), 2);
    assert_eq!(steps.game().board().stone_count(Color::White), 1);
    // The position at any record move is one call.
    let at2 = g.position_at(2, KoRule::Simple).unwrap();
    assert_eq!(at2.board().stone_count(Color::Black), 1);
    assert_eq!(at2.board().stone_count(Color::White), 0);
}

#[test]
fn a_setup_block_is_written_as_a_setup_node_and_reads_back() {
    use goban_rules::SetupBlock;
    let size = BoardSize::NINE;
    let at = |name: &str| Point::parse_human(name, size).unwrap();
    let mut game = Game::new(GameSetup::new(size, Ruleset::Cn2002)).unwrap();
    game.play(Color::Black, Move::Play(at("E5"))).unwrap();
    game.play(Color::White, Move::Play(at("C3"))).unwrap();
    let stones = [
        (at("G7"), Color::Black),
        (at("C7"), Color::White),
        (at("G3"), Color::Black),
    ];
    game.play_setup_block(SetupBlock::of_stones(&stones, Color::White))
        .unwrap();
    game.play(Color::White, Move::Play(at("D4"))).unwrap();
    let text = write_sgf(&game, &GameInfo::default(), &[]);
    // Stones by point, who moves next, and the moves named without an order.
    assert!(
        text.contains(";AB[gc][gg]AW[cc]PL[W]C[moves 3-5: order unknown"),
        "{text}"
    );
    assert!(text.contains("Black: G7 G3\nWhite: C7"), "{text}");
    assert!(
        !text.contains(";B[gg]") && !text.contains(";B[gc]"),
        "no guessed move: {text}"
    );
    let g = &read_sgf(&text).unwrap()[0];
    assert_eq!(g.events.len(), 4, "{:?}", g.events);
    match &g.events[2] {
        SgfEvent::Setup {
            add,
            clear,
            to_move,
        } => {
            let mut want = stones.to_vec();
            want.sort_unstable();
            let mut got = add.clone();
            got.sort_unstable();
            assert_eq!(got, want);
            assert!(clear.is_empty());
            assert_eq!(*to_move, Some(Color::White));
        }
        other => panic!("a setup node, not {other:?}"),
    }
    // The replay goes on with White after the block: no pass implied, the same position.
    let r = g.replay().unwrap();
    assert_eq!(r.implied_passes, 0);
    assert_eq!(r.game.board().hash(), game.board().hash());
}
