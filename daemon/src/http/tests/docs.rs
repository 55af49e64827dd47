//! /openapi.json covers every REST path of api.md with bodies and the board state, every part of the state named; /metrics renders Prometheus text.

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

/// What makes a schema say what its value is, besides a named type.
const SAYS_WHAT: [&str; 6] = [
    "properties",
    "additionalProperties",
    "enum",
    "const",
    "format",
    "pattern",
];

/// A schema that says nothing of its content: `{}` or an object without properties (or
/// without a free member: a `oneOf` with `null` counts by its other members). `$ref`s are
/// followed once (`components.schemas`), arrays by their items.
fn free_objects(
    schema: &serde_json::Value,
    schemas: &serde_json::Value,
    path: &str,
) -> Vec<String> {
    if let Some(target) = schema["$ref"].as_str() {
        let name = target.trim_start_matches("#/components/schemas/");
        let resolved = &schemas[name];
        if resolved.is_null() {
            return vec![format!("{path}: {target} is not in the document")];
        }
        // A named schema's own members are checked where it is named (no recursion loops).
        return members_free(resolved, schemas, path);
    }
    members_free(schema, schemas, path)
}

/// `free_objects` of a schema's alternatives, or of the schema itself when it has none.
fn members_free(
    schema: &serde_json::Value,
    schemas: &serde_json::Value,
    path: &str,
) -> Vec<String> {
    let mut found = Vec::new();
    let mut composed = false;
    for key in ["oneOf", "anyOf", "allOf"] {
        for (i, member) in schema[key].as_array().into_iter().flatten().enumerate() {
            composed = true;
            if member["$ref"].is_string() {
                continue;
            }
            found.extend(members_free(member, schemas, &format!("{path}.{key}[{i}]")));
        }
    }
    if composed {
        return found;
    }
    if schema.get("items").is_some() {
        return free_objects(&schema["items"], schemas, &format!("{path}[]"));
    }
    let types: Vec<&str> = match &schema["type"] {
        serde_json::Value::String(one) => vec![one.as_str()],
        serde_json::Value::Array(many) => many.iter().filter_map(|t| t.as_str()).collect(),
        _ => Vec::new(),
    };
    let says_what = SAYS_WHAT.iter().any(|key| schema.get(*key).is_some());
    let untyped = types.is_empty();
    if !says_what && (untyped || types.contains(&"object")) {
        found.push(format!("{path}: {schema}"));
    }
    found
}

/// The board state's schemas (full and live) name every part: no property is a bare `{}` or
/// an object without properties (`end_signal` and `guidance` were, issue 44.1).
#[tokio::test]
async fn no_property_of_the_state_is_a_free_object() {
    let harness = Harness::start(build_settings()).await;
    let (_, doc) = json_of(harness.get("/openapi.json").await).await;
    let schemas = &doc["components"]["schemas"];
    for state in ["BoardState", "LiveBoardState"] {
        let properties = schemas[state]["properties"]
            .as_object()
            .unwrap_or_else(|| panic!("{state} has properties"));
        assert!(properties.contains_key("end_signal") && properties.contains_key("guidance"));
        let free: Vec<String> = properties
            .iter()
            .flat_map(|(name, schema)| free_objects(schema, schemas, &format!("{state}.{name}")))
            .collect();
        assert!(free.is_empty(), "free objects: {free:#?}");
    }
    harness.stop().await;
}

/// The order request's moves are points or `pass` (a move nobody saw), and the document
/// says so with the pattern the server checks.
#[tokio::test]
async fn the_order_request_declares_points_or_pass() {
    let harness = Harness::start(build_settings()).await;
    let (_, doc) = json_of(harness.get("/openapi.json").await).await;
    let schemas = &doc["components"]["schemas"];
    assert_eq!(
        schemas["BlockMoveName"]["pattern"].as_str(),
        Some(crate::http::patterns::POINT_OR_PASS)
    );
    assert_eq!(
        schemas["OrderBody"]["properties"]["points"]["items"]["$ref"].as_str(),
        Some("#/components/schemas/BlockMoveName")
    );
    harness.stop().await;
}
