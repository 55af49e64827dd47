//! OpenGotha files that follow `tournament.dtd`: read a round, write results back, read them again.

use std::collections::BTreeMap;

use goban_tournament::opengotha::{OpenGothaTournament, write_results};
use goban_tournament::{Decision, Outcome, PlayerId, TableNo, TournamentError};

const CLUB: &str = include_str!("data/club_2026.xml");

#[test]
fn reads_a_round_with_keys_names_byes_komi_and_clock() {
    let t = OpenGothaTournament::parse(CLUB).unwrap();
    assert_eq!(t.players().len(), 5);
    let r2 = t.round(2).unwrap();
    assert_eq!(r2.pairings.len(), 2);
    let t1 = r2.at_table(TableNo(1)).unwrap();
    assert_eq!(
        (t1.black.as_str(), t1.white.as_str()),
        ("ZHANGMIN", "LIWEI")
    );
    assert!(!t1.colors_known, "knownColor=false is a nigiri");
    assert_eq!(t1.komi, Some(7.5));
    assert_eq!(
        t1.time_control.unwrap().to_string(),
        "canadian:main=40m,moves=15,block=5m"
    );
    let t2 = r2.at_table(TableNo(2)).unwrap();
    assert_eq!(t2.handicap, 3);
    assert_eq!(t2.komi, Some(0.0), "no komi with handicap");
    // OpenGotha's key drops the spaces (`Player.computeKeyString`), also of a game's
    // `whitePlayer="LE GALLLOÏC"`; the name keeps the file's order, name then first name.
    assert_eq!(t2.white.as_str(), "LEGALLLOÏC");
    assert_eq!(r2.display_name(&t2.white), "Le Gall Loïc");
    assert_eq!(
        r2.display_name(&PlayerId::from("MORELAURÉLIE")),
        "Morel Aurélie"
    );
    assert_eq!(r2.byes, vec![PlayerId::from("WANGFANG")]);
    // Rank, club and country as the file writes them, for the broadcast pages.
    let morel = &r2.players[&PlayerId::from("MORELAURÉLIE")];
    assert_eq!(
        (
            morel.rank.as_deref(),
            morel.club.as_deref(),
            morel.country.as_deref()
        ),
        (Some("3K"), Some("13Ma"), Some("FR"))
    );
}

#[test]
fn reads_recorded_results_including_by_default() {
    let t = OpenGothaTournament::parse(CLUB).unwrap();
    let r1: Vec<_> = t
        .games()
        .iter()
        .filter(|g| g.round == 1)
        .map(|g| g.decision)
        .collect();
    assert_eq!(r1[0], Decision::played(Outcome::WhiteWins));
    assert_eq!(
        r1[1],
        Decision {
            outcome: Outcome::BlackWins,
            by_default: true
        }
    );
    let absent = t
        .games()
        .iter()
        .find(|g| g.round == 2 && g.pairing.table == TableNo(2))
        .unwrap();
    assert_eq!(
        absent.decision.outcome,
        Outcome::Unknown,
        "the DTD default of a missing result"
    );
}

#[test]
fn writes_results_that_read_back_and_changes_nothing_else() {
    let mut results = BTreeMap::new();
    results.insert((2, TableNo(1)), Decision::played(Outcome::WhiteWins));
    results.insert(
        (2, TableNo(2)),
        Decision {
            outcome: Outcome::WhiteWins,
            by_default: true,
        },
    );
    let written = write_results(CLUB, &results).unwrap();
    let again = OpenGothaTournament::parse(&written).unwrap();
    for g in again.games().iter().filter(|g| g.round == 2) {
        assert_eq!(Some(&g.decision), results.get(&(2, g.pairing.table)));
    }
    // Round 1 keeps its results, players and parameters are untouched.
    assert_eq!(
        again.games()[1].decision.opengotha_code(),
        "RESULT_BLACKWINS_BYDEF"
    );
    assert_eq!(
        again.players(),
        OpenGothaTournament::parse(CLUB).unwrap().players()
    );
    assert!(written.contains(r#"director="Arbitre &amp; Cie""#));
    assert!(written.contains(r#"<PlacementCriterion name="SOSM" number="2"/>"#));
    // Line for line, only the two round-2 games differ.
    let changed: Vec<_> = CLUB
        .lines()
        .zip(written.lines())
        .filter(|(a, b)| a != b)
        .map(|(a, _)| a)
        .collect();
    assert_eq!(changed.len(), 2, "{changed:#?}");
    assert!(changed.iter().all(|l| l.contains(r#"roundNumber="2""#)));
    assert!(written.contains(r#"result="RESULT_WHITEWINS_BYDEF""#));
    // Writing the same results again gives the same file: idempotent.
    assert_eq!(write_results(&written, &results).unwrap(), written);
}

#[test]
fn refuses_a_result_for_a_game_the_file_lacks() {
    let mut results = BTreeMap::new();
    results.insert((3, TableNo(1)), Decision::played(Outcome::Draw));
    let err = write_results(CLUB, &results).unwrap_err();
    assert!(
        matches!(err, TournamentError::Inconsistent { round: 3, .. }),
        "{err}"
    );
}

#[test]
fn finds_players_as_opengotha_does() {
    // Spaces inside a game's key, and the obsolete canonical name with accents folded.
    let spaced = CLUB.replace(r#"whitePlayer="LIWEI""#, r#"whitePlayer="LI WEI""#);
    assert_eq!(OpenGothaTournament::parse(&spaced).unwrap().skipped(), &[]);
    let old = CLUB
        .replace(r#"dataVersion="201""#, r#"dataVersion="200""#)
        .replace(r#""MORELAURÉLIE""#, r#""MORELAURELIE""#);
    let t = OpenGothaTournament::parse(&old).unwrap();
    assert_eq!(t.skipped(), &[]);
    // OpenGotha folds the text, not its punctuation: "LE-GALLLOÏC" finds no one.
    let t = OpenGothaTournament::parse(&old.replace("LE GALLLOÏC", "LE-GALLLOÏC")).unwrap();
    assert_eq!(t.skipped().len(), 2, "{:?}", t.skipped());
    // A file saved by OpenGotha in a Turkish locale: Java upper-cases i to İ.
    let turkish = CLUB.replace("LIWEI", "LİWEİ");
    assert_eq!(OpenGothaTournament::parse(&turkish).unwrap().skipped(), &[]);
    assert!(
        t.games()
            .iter()
            .any(|g| g.pairing.black.as_str() == "MORELAURÉLIE")
    );
    // A homonym (same key) is refused as OpenGotha's addPlayer refuses it: the first stays.
    let twice = CLUB
        .replace(r#"name="Morel""#, r#"name="Li ""#)
        .replace(r#"firstName="Aurélie""#, r#"firstName="Wei""#);
    let t = OpenGothaTournament::parse(&twice).unwrap();
    assert!(
        t.skipped()
            .iter()
            .any(|s| s.reason.contains("LIWEI registered twice")),
        "{:?}",
        t.skipped()
    );
}

#[test]
fn keeps_a_chinese_name_in_the_files_order() {
    let cn = CLUB
        .replace(r#"firstName="Wei""#, r#"firstName="超""#)
        .replace(r#"name="Li""#, r#"name="马""#)
        .replace("LIWEI", "马超");
    let t = OpenGothaTournament::parse(&cn).unwrap();
    assert_eq!(t.players()[&PlayerId::from("马超")].name, "马超");
}

#[test]
fn refuses_broken_files_with_a_clear_error() {
    assert!(matches!(
        OpenGothaTournament::parse("<Tournament><Games>"),
        Err(TournamentError::Xml(_))
    ));
    // A game naming no registered player is left out, as OpenGotha's import leaves it out,
    // with the reason.
    let unknown = CLUB.replace(r#"blackPlayer="ZHANGMIN""#, r#"blackPlayer="NOBODY""#);
    let read = OpenGothaTournament::parse(&unknown).unwrap();
    let all = OpenGothaTournament::parse(CLUB).unwrap().games().len();
    assert_eq!(read.games().len(), all - 1);
    assert_eq!(read.skipped().len(), 1);
    assert!(
        read.skipped()[0].reason.contains("\"NOBODY\""),
        "{:?}",
        read.skipped()
    );
    let nameless = CLUB.replace(r#"firstName="Min""#, r#"firstName="""#);
    assert!(matches!(
        OpenGothaTournament::parse(&nameless),
        Err(TournamentError::BadField {
            field: "Player",
            ..
        })
    ));
    let bad = CLUB.replace("RESULT_UNKNOWN", "RESULT_MAYBE");
    assert!(matches!(
        OpenGothaTournament::parse(&bad),
        Err(TournamentError::UnknownResult(_))
    ));
    assert!(matches!(
        OpenGothaTournament::parse(CLUB).unwrap().round(3),
        Err(TournamentError::EmptyRound(3))
    ));
}
