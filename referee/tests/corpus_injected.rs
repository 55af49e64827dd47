//! The noisy corpus games with one injected infraction each, cycling through every kind: each detected exactly once, no other alert.

mod common;

use std::collections::BTreeMap;

use common::corpus::{ai_games, corpus_dir, new_game};
use common::inject::{fits, play_with};
use common::physical::{Hands, readings};
use common::table::Table;
use goban_referee::{ArbiterCommand, GameSetup, InfractionKind, RefereeConfig};

/// Automatic sanctions except where the injected act is followed by the player correcting it
/// (an advised forbidden or ko stone) or by an arbiter ruling (time).
fn config(size: u8) -> RefereeConfig {
    let mut config = RefereeConfig {
        size,
        ..RefereeConfig::default()
    }
    .with_all_sanctions();
    for kind in [
        InfractionKind::ForbiddenPoint,
        InfractionKind::KoViolation,
        InfractionKind::TimeForfeit,
    ] {
        config.auto_sanction.remove(&kind);
    }
    config
}

#[test]
fn one_injected_infraction_per_game_is_detected_exactly_once() {
    let Some(dir) = corpus_dir() else { return };
    let games = ai_games(&dir);
    let mut detected: BTreeMap<InfractionKind, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut skipped = 0;
    for (g, record) in games.iter().enumerate() {
        let kind = InfractionKind::ALL[g % InfractionKind::ALL.len()];
        // The first move from the middle of the game on where the kind can happen.
        let mut shadow = new_game(record.size).unwrap();
        let start = record.moves.len() / 3;
        let mut at = None;
        for (i, &(c, mv)) in record.moves.iter().enumerate() {
            if (i >= start || i == 0) && fits(kind, &shadow, record, i) {
                at = Some(i);
                break;
            }
            shadow.play(c, mv).unwrap();
        }
        let Some(at) = at else {
            skipped += 1;
            continue;
        };
        let mut t = Table::new(config(record.size));
        let setup = GameSetup {
            time_control: Some("byoyomi-cn:main=60m,reserve=5".parse().unwrap()),
            ..GameSetup::default()
        };
        t.arbiter(ArbiterCommand::StartGame(setup));
        let mut hands = Hands::new(g as u64, new_game(record.size).unwrap());
        play_with(&mut t, &mut hands, record, kind, at);
        t.wait(10_000);
        let alerts = t.alerts();
        let state = t.referee.state();
        let position: String = readings(&hands.game).iter().map(|r| r.to_char()).collect();
        let stones = |moves: Vec<String>| {
            moves
                .into_iter()
                .filter(|m| m != "pass")
                .collect::<Vec<_>>()
        };
        let recorded = stones(state.moves.iter().map(|m| m.point.to_string()).collect());
        let size = goban_rules::BoardSize::new(record.size).unwrap();
        let expected = stones(
            record
                .moves
                .iter()
                .filter_map(|m| m.1.point())
                .map(|p| p.to_human(size))
                .collect(),
        );
        let game_follows = recorded == expected && state.position == position;
        let entry = detected.entry(kind).or_default();
        entry.1 += 1;
        if alerts.len() == 1 && alerts[0].kind == kind && game_follows {
            entry.0 += 1;
        } else {
            let seen: Vec<_> = alerts
                .iter()
                .map(|a| (a.kind, a.move_number, a.points.clone()))
                .collect();
            failures.push(format!(
                "{} ({kind} before move {}): {seen:?}, moves follow the record: {game_follows}",
                record.name,
                at + 1
            ));
        }
    }
    for (kind, (ok, tried)) in &detected {
        eprintln!("injected {kind}: detected exactly once in {ok} of {tried} games");
    }
    eprintln!(
        "{} games, {skipped} without a place for their kind, {} failures",
        games.len(),
        failures.len()
    );
    assert_eq!(
        detected.len(),
        InfractionKind::ALL.len(),
        "every kind was injected at least once"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
