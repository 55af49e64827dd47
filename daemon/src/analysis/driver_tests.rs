//! The engine drivers over real pipes: GNU Go itself when installed, and tiny stand-in processes (shell scripts) for KataGo and `lz-analyze`, of which no binary is here.

use std::time::Duration;

use goban_rules::{BoardSize, Point};

use super::config::{AnalysisConfig, GtpStyle, Perspective, Priority, Resolved};
use super::gtp_engine::GtpEngine;
use super::katago_engine::KatagoEngine;
use super::tests_support::build_position;

/// Stand-ins run at the daemon's own priority.
const AS_THE_DAEMON: Priority = Priority {
    idle: false,
    nice: 0,
};

/// GNU Go as `auto` finds it, or `None` (the test says it skipped).
fn gnugo_command() -> Option<Vec<String>> {
    match AnalysisConfig::default().resolve(std::env::var("PATH").ok().as_deref()) {
        Resolved::Gtp(command, GtpStyle::Gnugo) => Some(command),
        _ => {
            eprintln!("skipped: GNU Go is not installed (apt-get install gnugo)");
            None
        }
    }
}

fn stand_in(script: &str) -> (tempfile::TempDir, Vec<String>) {
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join("engine.sh");
    std::fs::write(&path, script).expect("the script");
    (dir, vec!["sh".into(), path.display().to_string()])
}

#[tokio::test]
async fn gnugo_gives_a_lead_and_empty_points_to_play() {
    let Some(command) = gnugo_command() else {
        return;
    };
    let mut engine = GtpEngine::start(
        &command,
        GtpStyle::Gnugo,
        AnalysisConfig::default().priority(),
    )
    .await
    .expect("GNU Go starts");
    assert!(engine.name.starts_with("GNU Go"), "{}", engine.name);
    let position = build_position("t-1", 3, 2);
    let verdict = engine
        .analyse(&position, Duration::from_secs(30), 3)
        .await
        .expect("GNU Go answers");
    assert!(verdict.score_lead.is_some_and(f64::is_finite));
    assert!(!verdict.candidates.is_empty() && verdict.candidates.len() <= 3);
    let stones = &position.view.state.position;
    for candidate in &verdict.candidates {
        let point = Point::parse_human(&candidate.point, BoardSize::new(9).unwrap())
            .unwrap_or_else(|_| panic!("{} is a 9x9 point", candidate.point));
        assert_eq!(
            stones.as_bytes()[point.index()],
            b'.',
            "{} is empty",
            candidate.point
        );
    }
    // The same engine takes the next position (it was not left mid-answer).
    let next = build_position("t-2", 4, 1);
    assert!(
        engine
            .analyse(&next, Duration::from_secs(30), 3)
            .await
            .is_ok()
    );
}

/// Answers GTP like Leela Zero: `lz-analyze` streams one report until the next command.
const LZ_STAND_IN: &str = r#"
while IFS= read -r line; do
  case "$line" in
    name) printf '= Stand-in\n\n' ;;
    version) printf '= 0.1\n\n' ;;
    lz-analyze*) printf '= \ninfo move D4 visits 10 winrate 6000 order 0 pv D4 E5 info move C3 visits 2 winrate 5000 order 1 pv C3\n' ;;
    protocol_version) printf '\n= 2\n\n' ;;
    *) printf '= \n\n' ;;
  esac
done
"#;

#[tokio::test]
async fn lz_analyze_is_read_for_the_budget_then_stopped() {
    let (_dir, command) = stand_in(LZ_STAND_IN);
    let mut engine = GtpEngine::start(&command, GtpStyle::LzAnalyze, AS_THE_DAEMON)
        .await
        .expect("the stand-in starts");
    assert_eq!(engine.name, "Stand-in 0.1");
    // Black to move: 60% for the side to move is Black's.
    let position = build_position("t-1", 3, 2);
    let verdict = engine
        .analyse(&position, Duration::from_millis(200), 5)
        .await
        .expect("a report");
    assert_eq!(verdict.candidates[0].point, "D4");
    assert_eq!(verdict.candidates[0].pv, ["D4", "E5"]);
    assert_eq!(verdict.winrate, Some(0.6));
    // The engine is in step for the next command.
    assert_eq!(engine.ask("name").await.expect("an answer"), "Stand-in");
}

/// Answers like KataGo's analysis engine, out of order: a query's result names its id.
const KATAGO_STAND_IN: &str = r#"
while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/^{"id":"\([^"]*\)".*/\1/p')
  case "$line" in
    *query_version*) printf '{"id":"version","version":"1.99","git_hash":"x"}\n' ;;
    *terminate*) ;;
    *'"t-slow#'*) ;;
    *'"komi":-'*) printf '{"error":"bad komi","field":"komi","id":"%s"}\n' "$id" ;;
    *) printf '{"warning":"noted","field":"x","id":"%s"}\n' "$id"
       printf '{"id":"%s","isDuringSearch":false,"turnNumber":0,"moveInfos":[{"move":"C3","order":0,"visits":7,"winrate":0.25,"scoreLead":-3.5,"pv":["C3","D4"]}],"rootInfo":{"winrate":0.3,"scoreLead":-2.5,"visits":8}}\n' "$id" ;;
  esac
done
"#;

#[tokio::test]
async fn katago_queries_are_answered_by_id() {
    let (_dir, command) = stand_in(KATAGO_STAND_IN);
    let engine = KatagoEngine::start(&command, AS_THE_DAEMON, Perspective::SideToMove, 5)
        .await
        .expect("the stand-in starts");
    assert_eq!(engine.name, "KataGo 1.99");
    // White to move (1 move played): White's 30% is Black's 70%.
    let position = build_position("t-1", 3, 1);
    let verdict = engine
        .analyse(&position, 50, Duration::from_secs(30))
        .await
        .expect("a result");
    assert_eq!(verdict.score_lead, Some(2.5));
    assert!((verdict.winrate.unwrap() - 0.7).abs() < 1e-12);
    assert_eq!(verdict.candidates[0].visits, Some(7));
    let slow = build_position("t-slow", 4, 1);
    let waited = engine.analyse(&slow, 50, Duration::from_millis(100)).await;
    assert!(waited.is_err(), "an unanswered query is given up");
    let again = engine.analyse(&position, 50, Duration::from_secs(30)).await;
    assert!(again.is_ok(), "the engine still serves after a give-up");
}

#[tokio::test]
async fn katago_errors_reach_the_query() {
    let (_dir, command) = stand_in(KATAGO_STAND_IN);
    let engine = KatagoEngine::start(&command, AS_THE_DAEMON, Perspective::Black, 5)
        .await
        .expect("the stand-in starts");
    let mut position = build_position("t-1", 3, 1);
    let mut state = position.view.state.clone();
    state.komi = -7.5;
    position.view = crate::message::BoardView::build(state, None);
    let error = engine
        .analyse(&position, 50, Duration::from_secs(30))
        .await
        .expect_err("KataGo's error");
    assert!(error.to_string().contains("bad komi"), "{error}");
}

#[test]
fn a_query_carries_the_stones_and_the_side_to_move() {
    let position = build_position("t-1", 3, 2);
    let query = super::katago::Query::of(&position, 100, 5.0);
    let line: serde_json::Value = serde_json::from_str(&query.line()).unwrap();
    assert_eq!(line["id"], "t-1#3");
    assert_eq!(
        line["initialStones"],
        serde_json::json!([["B", "E5"], ["W", "C3"]])
    );
    assert_eq!(line["initialPlayer"], "B");
    assert_eq!(line["moves"], serde_json::json!([]));
    assert_eq!(line["boardXSize"], 9);
    assert_eq!(line["komi"], 7.5);
    assert_eq!(line["maxVisits"], 100);
    assert_eq!(line["overrideSettings"]["maxTime"], 5.0);
    assert!(query.line().ends_with('\n') && query.line().matches('\n').count() == 1);
}
