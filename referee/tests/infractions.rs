//! One scenario per row of the digest's infraction table: the right kind, article, player and move.

mod common;

use common::table::Table;
use goban_referee::{
    ArbiterCommand, Button, GameSetup, Infraction, InfractionKind, Reading, RefereeConfig,
};
use goban_rules::{Color, Ruleset};

const B: Color = Color::Black;
const W: Color = Color::White;

fn only_alert(t: &Table) -> Infraction {
    let alerts = t.alerts();
    assert_eq!(
        alerts.len(),
        1,
        "expected exactly one alert, got {alerts:#?}"
    );
    alerts[0].clone()
}

fn check(
    alert: &Infraction,
    kind: InfractionKind,
    article: &str,
    player: impl Into<Option<Color>>,
    move_number: u32,
) {
    assert_eq!(alert.kind, kind, "{alert:#?}");
    assert_eq!(alert.article, article, "{alert:#?}");
    assert_eq!(alert.player, player.into(), "{alert:#?}");
    assert_eq!(alert.move_number, move_number, "{alert:#?}");
    assert!(
        !alert.evidence.is_empty(),
        "an alert carries its evidence timeline"
    );
}

fn jk_table() -> Table {
    Table::started(RefereeConfig {
        size: 9,
        ruleset: Ruleset::Jk,
        ..RefereeConfig::default()
    })
}

/// Black to play A1 inside White's A2/B1: a suicide point.
fn forbidden_point(mut t: Table) -> Infraction {
    t.play("E5", B, &[]);
    t.play("A2", W, &[]);
    t.play("E6", B, &[]);
    t.play("B1", W, &[]);
    t.put("A1", B);
    t.wait(1_000);
    assert_eq!(t.moves().len(), 4, "the forbidden stone is not a move");
    only_alert(&t)
}

#[test]
fn forbidden_point_cites_cn2002_19() {
    let alert = forbidden_point(Table::nine());
    check(&alert, InfractionKind::ForbiddenPoint, "CN2002 19", B, 5);
    assert_eq!(alert.points, vec!["A1"]);
}

#[test]
fn a_forbidden_stone_counted_as_a_pass_keeps_its_point_in_the_sgf() {
    let mut t = Table::nine();
    t.play("E5", B, &[]);
    t.play("A2", W, &[]);
    t.play("E6", B, &[]);
    t.play("B1", W, &[]);
    t.put("A1", B);
    t.wait(500);
    t.press_black();
    t.wait(1_000);
    t.play("G7", W, &[]);
    assert_eq!(
        t.moves()[4],
        "pass",
        "the forbidden stone counts as a pass (CN2002 19)"
    );
    let sgf = t.referee.sgf().expect("the SGF");
    assert!(
        sgf.contains("Stone on a forbidden point (CN2002 19) by Black at A1"),
        "{sgf}"
    );
}

#[test]
fn forbidden_point_cites_jk_10() {
    check(
        &forbidden_point(jk_table()),
        InfractionKind::ForbiddenPoint,
        "JK 10",
        B,
        5,
    );
}

/// The ko of D4/E4: Black takes at E4, White retakes at once.
fn ko_setup(t: &mut Table) {
    t.play("D5", B, &[]);
    t.play("E5", W, &[]);
    t.play("C4", B, &[]);
    t.play("D4", W, &[]);
    t.play("D3", B, &[]);
    t.play("F4", W, &[]);
    t.play("A9", B, &[]);
    t.play("E3", W, &[]);
    t.play("E4", B, &["D4"]);
}

#[test]
fn ko_violation_cites_cn2002_18_3() {
    let mut t = Table::nine();
    ko_setup(&mut t);
    assert!(t.alerts().is_empty(), "{:#?}", t.alerts());
    t.put("D4", W);
    t.wait(300);
    t.take("E4");
    t.wait(2_000);
    t.press_white();
    t.wait(5_000);
    let alert = only_alert(&t);
    check(
        &alert,
        InfractionKind::KoViolation,
        "CN2002 18.3, 20.1",
        W,
        10,
    );
    assert_eq!(alert.points, vec!["D4"]);
}

#[test]
fn ko_violation_sanctioned_counts_as_pass_with_a_warning() {
    let config = RefereeConfig {
        size: 9,
        auto_sanction: [InfractionKind::KoViolation].into(),
        ..Default::default()
    };
    let mut t = Table::started(config);
    ko_setup(&mut t);
    t.put("D4", W);
    t.wait(1_000);
    let state = t.referee.state();
    assert_eq!(
        state.moves.last().unwrap().point,
        "pass",
        "CN2002 18.3: the void move counts as a pass"
    );
    assert_eq!(state.warnings.white, 1);
    assert!(state.guidance.remove.contains(&"D4".to_owned()));
}

#[test]
fn occupied_point_cites_cn2002_2_3() {
    let mut t = Table::nine();
    t.play("E5", B, &[]);
    t.play("C3", W, &[]);
    let c3 = t.idx("C3");
    t.set(&[(c3, Reading::Black)]);
    t.wait(1_000);
    let alert = only_alert(&t);
    check(&alert, InfractionKind::OccupiedPoint, "CN2002 2.3", B, 3);
}

fn double_move(mut t: Table) -> Infraction {
    t.play("E5", B, &[]);
    t.put("E6", B);
    t.wait(1_000);
    only_alert(&t)
}

#[test]
fn double_move_cites_cn2002_17_2() {
    check(
        &double_move(Table::nine()),
        InfractionKind::DoubleMove,
        "CN2002 17.2",
        B,
        2,
    );
}

#[test]
fn double_move_cites_jk_8_1_and_loses_when_sanctioned() {
    let config = RefereeConfig {
        size: 9,
        ruleset: Ruleset::Jk,
        ..RefereeConfig::default()
    }
    .with_all_sanctions();
    let mut t = Table::started(config);
    t.play("E5", B, &[]);
    t.put("E6", B);
    t.wait(1_000);
    check(&only_alert(&t), InfractionKind::DoubleMove, "JK 8.1", B, 2);
    assert_eq!(
        t.referee.state().result.as_deref(),
        Some("W+F"),
        "JK 8.1: the player loses"
    );
}

#[test]
fn wrong_colour_cites_cn2002_17_1() {
    let mut t = Table::nine();
    t.put("E5", B);
    t.wait(600);
    t.press(Button::R);
    t.wait(1_000);
    t.play("C3", W, &[]);
    let alert = only_alert(&t);
    check(&alert, InfractionKind::WrongColour, "CN2002 17.1", B, 1);
}

/// White's E5 surrounded; Black's E4 captures it.
fn capture_setup(t: &mut Table) {
    t.play("D5", B, &[]);
    t.play("E5", W, &[]);
    t.play("F5", B, &[]);
    t.play("A1", W, &[]);
    t.play("E6", B, &[]);
    t.play("A2", W, &[]);
}

#[test]
fn missed_capture_is_one_alert_citing_18_2_and_22_6() {
    let mut t = Table::nine();
    capture_setup(&mut t);
    t.put("E4", B);
    t.wait(500);
    t.press_black();
    t.wait(1_500);
    t.take("E5");
    t.wait(2_000);
    let alert = only_alert(&t);
    check(
        &alert,
        InfractionKind::MissedCapture,
        "CN2002 18.2, 22.6",
        B,
        7,
    );
    assert_eq!(alert.points, vec!["E5"]);
}

#[test]
fn missed_capture_when_the_next_stone_appears_without_a_clock() {
    let mut t = Table::nine();
    for (p, c) in [
        ("D5", B),
        ("E5", W),
        ("F5", B),
        ("A1", W),
        ("E6", B),
        ("A2", W),
        ("E4", B),
    ] {
        t.put(p, c);
        t.wait(1_000);
    }
    t.put("C3", W);
    t.wait(1_000);
    check(
        &only_alert(&t),
        InfractionKind::MissedCapture,
        "CN2002 18.2, 22.6",
        B,
        7,
    );
}

fn wrong_capture(mut t: Table) -> Infraction {
    t.play("E5", B, &[]);
    t.play("C3", W, &[]);
    t.put("C4", B);
    t.wait(400);
    t.take("C3");
    t.wait(400);
    t.press_black();
    t.wait(5_000);
    only_alert(&t)
}

#[test]
fn wrong_capture_cites_cn2002_18_1() {
    let alert = wrong_capture(Table::nine());
    check(&alert, InfractionKind::WrongCapture, "CN2002 18.1", B, 3);
    assert_eq!(alert.points, vec!["C3"]);
}

#[test]
fn wrong_capture_cites_jk_9() {
    check(
        &wrong_capture(jk_table()),
        InfractionKind::WrongCapture,
        "JK 9",
        B,
        3,
    );
}

#[test]
fn premature_press_cites_cn2002_17_4() {
    let mut t = Table::nine();
    t.play("E5", B, &[]);
    t.press_white();
    t.wait(1_200);
    t.put("C3", W);
    t.wait(1_000);
    check(
        &only_alert(&t),
        InfractionKind::PrematurePress,
        "CN2002 17.4",
        W,
        2,
    );
    assert_eq!(
        t.moves(),
        vec!["E5", "C3"],
        "the stone is White's move, not a pass"
    );
}

fn takeback(mut t: Table) -> Infraction {
    t.play("E5", B, &[]);
    let (e5, e6) = (t.idx("E5"), t.idx("E6"));
    t.set(&[(e5, Reading::Empty), (e6, Reading::Black)]);
    t.wait(1_000);
    only_alert(&t)
}

#[test]
fn takeback_cites_cn2002_17_3() {
    let alert = takeback(Table::nine());
    check(&alert, InfractionKind::Takeback, "CN2002 17.3", B, 1);
    assert_eq!(alert.points, vec!["E5", "E6"]);
}

#[test]
fn takeback_cites_jk_8_2() {
    check(
        &takeback(jk_table()),
        InfractionKind::Takeback,
        "JK 8.2",
        B,
        1,
    );
}

fn displaced(mut t: Table) -> Infraction {
    t.play("E5", B, &[]);
    t.play("C3", W, &[]);
    let (e5, e6) = (t.idx("E5"), t.idx("E6"));
    t.set(&[(e5, Reading::Empty), (e6, Reading::Black)]);
    t.wait(1_000);
    only_alert(&t)
}

#[test]
fn displaced_stones_cites_cn2002_17_5() {
    check(
        &displaced(Table::nine()),
        InfractionKind::DisplacedStones,
        "CN2002 17.5",
        B,
        2,
    );
}

#[test]
fn displaced_stones_cites_jk_8_3() {
    check(
        &displaced(jk_table()),
        InfractionKind::DisplacedStones,
        "JK 8.3",
        B,
        2,
    );
}

#[test]
fn a_vanished_stone_is_displaced_after_the_grace() {
    let mut t = Table::nine();
    t.play("E5", B, &[]);
    t.play("C3", W, &[]);
    t.take("E5");
    t.wait(1_000);
    assert!(
        t.alerts().is_empty(),
        "within the grace a lifted stone may come back"
    );
    t.wait(3_000);
    check(
        &only_alert(&t),
        InfractionKind::DisplacedStones,
        "CN2002 17.5",
        B,
        2,
    );
}

fn disturbed(mut t: Table) -> Infraction {
    for (p, c) in [("C3", B), ("G7", W), ("C7", B), ("G3", W)] {
        t.play(p, c, &[]);
    }
    let points: Vec<(usize, Reading)> = ["C3", "G7", "C7", "G3"]
        .iter()
        .map(|p| (t.idx(p), Reading::Empty))
        .collect();
    t.set(&points);
    t.wait(1_000);
    assert_eq!(
        t.referee.state().device.interpretation,
        goban_referee::Interpretation::Frozen,
        "the state shows that nothing is read until the position is restored"
    );
    only_alert(&t)
}

#[test]
fn board_disturbed_cites_cn2002_17_6_and_publishes_the_restore_list() {
    let mut t = Table::nine();
    let alert = disturbed(Table::nine());
    // Who knocked the board is not something the sensors can tell: no player is named.
    check(
        &alert,
        InfractionKind::BoardDisturbed,
        "CN2002 17.6",
        None,
        4,
    );
    assert_eq!(alert.points.len(), 4);
    for (p, c) in [("C3", B), ("G7", W), ("C7", B), ("G3", W)] {
        t.play(p, c, &[]);
    }
    let points: Vec<(usize, Reading)> = ["C3", "G7"]
        .iter()
        .map(|p| (t.idx(p), Reading::Empty))
        .collect();
    t.set(&points);
    t.wait(4_000);
    assert_eq!(
        t.referee.state().guidance.add.len(),
        2,
        "the guidance lists the stones to put back"
    );
}

#[test]
fn board_disturbed_cites_jk_8_4() {
    check(
        &disturbed(jk_table()),
        InfractionKind::BoardDisturbed,
        "JK 8.4",
        None,
        4,
    );
}

#[test]
fn time_forfeit_cites_cn2002_12_4() {
    let mut t = Table::new(RefereeConfig {
        size: 9,
        ..RefereeConfig::default()
    });
    let setup = GameSetup {
        time_control: Some("absolute:main=1m".parse().unwrap()),
        ..GameSetup::default()
    };
    t.arbiter(ArbiterCommand::StartGame(setup));
    t.play("E5", B, &[]);
    t.wait(61_000);
    check(
        &only_alert(&t),
        InfractionKind::TimeForfeit,
        "CN2002 12.4, 22.5",
        W,
        2,
    );
}

#[test]
fn late_start_cites_cn2002_22() {
    let mut t = Table::new(RefereeConfig {
        size: 9,
        ..RefereeConfig::default()
    });
    let setup = GameSetup {
        time_control: Some("absolute:main=60m".parse().unwrap()),
        ..GameSetup::default()
    };
    t.arbiter(ArbiterCommand::StartGame(setup));
    t.wait(300_000);
    t.arbiter(ArbiterCommand::LateStart {
        color: B,
        absent_ms: 300_000,
    });
    let alert = only_alert(&t);
    check(&alert, InfractionKind::LateStart, "CN2002 22.1-22.4", B, 0);
    let clock = t.referee.state().clock.unwrap();
    assert_eq!(
        clock.black.main_ms,
        3_600_000 - 600_000,
        "absent time counts twice (CN2002 22.1)"
    );
}

#[test]
fn premature_press_before_a_capturing_stone_is_one_alert_and_no_phantom_move() {
    let mut t = Table::nine();
    capture_setup(&mut t);
    t.press_black();
    t.wait(1_000);
    t.put("E4", B);
    t.wait(1_500);
    t.take("E5");
    t.wait(3_000);
    check(
        &only_alert(&t),
        InfractionKind::PrematurePress,
        "CN2002 17.4",
        B,
        7,
    );
    t.play("C3", W, &[]);
    assert_eq!(t.alerts().len(), 1);
    assert_eq!(t.moves().len(), 8);
    assert_eq!(t.referee.state().captures.black, 1);
}

#[test]
fn a_disturbed_board_restored_with_the_next_move_already_on_it_plays_on() {
    let mut t = Table::nine();
    for (p, c) in [("C3", B), ("G7", W), ("C7", B), ("G3", W)] {
        t.play(p, c, &[]);
    }
    let knocked: Vec<usize> = ["C3", "G7", "C7", "G3"].iter().map(|p| t.idx(p)).collect();
    t.set(
        &knocked
            .iter()
            .map(|&p| (p, Reading::Empty))
            .collect::<Vec<_>>(),
    );
    t.wait(1_000);
    assert_eq!(t.alerts().len(), 1);
    // The players put everything back and Black plays at once.
    let back: Vec<(usize, Reading)> = knocked
        .iter()
        .zip([
            Reading::Black,
            Reading::White,
            Reading::Black,
            Reading::White,
        ])
        .map(|(&p, r)| (p, r))
        .collect();
    t.set(&back);
    t.put("E5", B);
    t.wait(1_000);
    t.press_black();
    t.wait(1_000);
    assert_eq!(t.alerts().len(), 1, "{:#?}", t.alerts());
    assert_eq!(t.moves().last().map(String::as_str), Some("E5"));
}
