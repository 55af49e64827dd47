//! Finished games: list, final state, SGF, unknown ids, and a failing journal answering 503 JSON.

use serde_json::json;

use super::{Harness, build_settings, build_state, json_of};

fn build_finished(harness: &Harness, id: &str, result: &str) {
    let mut state = build_state(40, 200);
    state["game"] = json!(id);
    state["phase"] = json!("finished");
    state["result"] = json!(result);
    let sgf = format!("(;FF[4]GM[1]SZ[19]GN[{id}]RE[{result}])");
    harness.archive.games.lock().unwrap().push((state, sgf));
}

#[tokio::test]
async fn finished_games_are_listed_newest_first() {
    let harness = Harness::start(build_settings()).await;
    build_finished(&harness, "2026-11-29-table-1-1", "B+R");
    build_finished(&harness, "2026-11-30-table-1-1", "W+6.5");
    let (status, body) = json_of(harness.get("/games").await).await;
    assert_eq!(status, 200);
    let ids: Vec<_> = body["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["2026-11-30-table-1-1", "2026-11-29-table-1-1"]);
    harness.stop().await;
}

#[tokio::test]
async fn one_game_and_its_sgf() {
    let harness = Harness::start(build_settings()).await;
    build_finished(&harness, "2026-11-29-table-1-1", "B+R");
    let (status, body) = json_of(harness.get("/games/2026-11-29-table-1-1").await).await;
    assert_eq!((status, body["result"].as_str()), (200, Some("B+R")));
    let response = harness.get("/games/2026-11-29-table-1-1/sgf").await;
    assert_eq!(response.headers()["content-type"], "application/x-go-sgf");
    assert!(response.text().await.unwrap().contains("RE[B+R]"));
    harness.stop().await;
}

#[tokio::test]
async fn unknown_games_are_404_json() {
    let harness = Harness::start(build_settings()).await;
    for path in [
        "/games/2020-01-01-x-1",
        "/games/2020-01-01-x-1/sgf",
        "/games/bad%20id",
        "/games/..%2Fetc",
    ] {
        let (status, body) = json_of(harness.get(path).await).await;
        assert_eq!(
            (status, body["error"].as_str()),
            (404, Some("unknown_game")),
            "{path}"
        );
    }
    harness.stop().await;
}

#[tokio::test]
async fn a_failing_journal_is_503_json_not_500() {
    let harness = Harness::start(build_settings()).await;
    *harness.archive.broken.lock().unwrap() = true;
    for path in [
        "/games",
        "/games/2026-11-29-table-1-1",
        "/games/2026-11-29-table-1-1/sgf",
    ] {
        let (status, body) = json_of(harness.get(path).await).await;
        assert_eq!(
            (status, body["error"].as_str()),
            (503, Some("unavailable")),
            "{path}"
        );
    }
    harness.stop().await;
}
