//! /openapi.json covers every REST path of api.md with bodies and the board state; /metrics renders Prometheus text.

use super::{Harness, build_settings, json_of};

/// The REST table of ../shared/spec/api.md, method and path under /api/v1.
const API_MD_PATHS: [(&str, &str); 15] = [
    ("get", "/health"),
    ("get", "/boards"),
    ("get", "/boards/{board}"),
    ("get", "/boards/{board}/sgf"),
    ("get", "/boards/{board}/events"),
    ("post", "/boards/{board}/game"),
    ("post", "/boards/{board}/infractions/{id}/ruling"),
    ("post", "/boards/{board}/clock"),
    ("post", "/boards/{board}/dead-stones"),
    ("post", "/boards/{board}/result"),
    ("get", "/games"),
    ("get", "/games/{game}"),
    ("get", "/games/{game}/sgf"),
    ("get", "/openapi.json"),
    ("get", "/metrics"),
];

/// Reads `| METHOD /path |` rows of the spec's REST table when the spec is at hand.
fn spec_paths() -> Option<Vec<(String, String)>> {
    let spec = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/spec/api.md");
    let text = std::fs::read_to_string(spec).ok()?;
    let mut paths = Vec::new();
    for row in text
        .lines()
        .filter(|l| l.starts_with("| GET ") || l.starts_with("| POST "))
    {
        let first_cell = row
            .trim_start_matches('|')
            .split('|')
            .next()
            .unwrap_or_default();
        for entry in first_cell.split(',') {
            let mut words = entry.split_whitespace();
            if let (Some(method), Some(path)) = (words.next(), words.next()) {
                // `/boards/{board}/moves?since=N`: the query is not part of the path.
                let path = path.split('?').next().unwrap_or(path);
                paths.push((method.to_ascii_lowercase(), path.to_owned()));
            }
        }
    }
    Some(paths)
}

#[tokio::test]
async fn openapi_lists_every_api_md_path() {
    let harness = Harness::start(build_settings()).await;
    let (status, doc) = json_of(harness.get("/openapi.json").await).await;
    assert_eq!(status, 200);
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    let mut wanted: Vec<(String, String)> = API_MD_PATHS
        .iter()
        .map(|(m, p)| ((*m).to_owned(), (*p).to_owned()))
        .collect();
    match spec_paths() {
        Some(spec) => {
            assert!(spec.len() >= 13, "parsed the spec's REST table: {spec:?}");
            wanted.extend(spec);
        }
        None => {
            eprintln!("shared/spec/api.md not found; checking the built-in copy of its table only")
        }
    }
    for (method, path) in wanted {
        let full = if path == "/metrics" {
            path.clone()
        } else {
            format!("/api/v1{path}")
        };
        assert!(
            doc["paths"][&full][&method].is_object(),
            "{method} {full} missing from /openapi.json"
        );
    }
    harness.stop().await;
}

#[tokio::test]
async fn openapi_describes_bodies_state_and_auth() {
    let harness = Harness::start(build_settings()).await;
    let (_, doc) = json_of(harness.get("/openapi.json").await).await;
    let schemas = &doc["components"]["schemas"];
    for name in [
        "BoardState",
        "StartGameBody",
        "RulingBody",
        "ClockBody",
        "DeadStonesBody",
        "SekiBody",
        "ResultBody",
        "Problem",
    ] {
        assert!(schemas[name].is_object(), "schema {name} missing");
    }
    for field in [
        "v",
        "seq",
        "board",
        "position",
        "moves",
        "clock",
        "infractions",
        "phase",
        "result",
        "result_unit",
        "count",
        "dead_stones",
        "audit",
    ] {
        assert!(
            schemas["BoardState"]["properties"][field].is_object(),
            "BoardState.{field} missing"
        );
    }
    let clock = &doc["paths"]["/api/v1/boards/{board}/clock"]["post"];
    assert!(clock["requestBody"].is_object());
    assert_eq!(clock["requestBody"]["required"], true);
    // Starting a game takes an empty body: every field defaults from the config (issue 43.7).
    let start = &doc["paths"]["/api/v1/boards/{board}/game"]["post"];
    assert!(start["requestBody"].is_object());
    assert_ne!(
        start["requestBody"]["required"], true,
        "{}",
        start["requestBody"]
    );
    assert_eq!(clock["security"][0]["arbiter"], serde_json::json!([]));
    assert_eq!(
        doc["components"]["securitySchemes"]["arbiter"]["scheme"],
        "bearer"
    );
    harness.stop().await;
}

#[tokio::test]
async fn metrics_render_prometheus_text() {
    let mut settings = build_settings();
    settings.metrics = crate::http::install_metrics();
    assert!(
        settings.metrics.is_some(),
        "the recorder installs once per process"
    );
    assert!(
        crate::http::install_metrics().is_some(),
        "a second call returns the same handle"
    );
    let harness = Harness::start(settings).await;
    harness.get("/boards/table-1").await;
    let response = harness
        .client
        .get(format!("{}/metrics", harness.base))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain")
    );
    let text = response.text().await.unwrap();
    assert!(text.contains("goban_http_requests_total"), "{text}");
    assert!(text.contains("route=\"/api/v1/boards/{board}\""), "{text}");
    harness.stop().await;
}

#[tokio::test]
async fn metrics_without_a_recorder_is_404_json() {
    let harness = Harness::start(build_settings()).await;
    let (status, body) = json_of(harness.get("/metrics").await).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (404, Some("metrics_disabled"))
    );
    harness.stop().await;
}
