//! Public reads: health, boards, board state, live SGF, and the JSON answers to unknown paths and methods.

use serde_json::json;

use super::{BOARD, Harness, build_settings, json_of};
use crate::message::Topic;

#[tokio::test]
async fn health_reports_devices() {
    let harness = Harness::start(build_settings()).await;
    let (status, body) = json_of(harness.get("/health").await).await;
    assert_eq!(status, 200);
    assert_eq!(body["status"], "ok");
    assert_eq!(body["boards"][0]["board"], BOARD);
    assert_eq!(body["boards"][0]["healthy"], true);

    let mut state = super::build_state(0, 3);
    state["device"]["board"] = json!("disconnected");
    harness.publish(Topic::State, state);
    harness.publish(
        Topic::Device,
        json!({"board": "disconnected", "crc_errors": 4}),
    );
    let (_, body) = json_of(harness.get("/health").await).await;
    assert_eq!(body["status"], "degraded");
    assert_eq!(body["boards"][0]["healthy"], false);
    assert_eq!(body["boards"][0]["report"]["crc_errors"], 4);
    harness.stop().await;
}

#[tokio::test]
async fn a_recovering_board_is_listed_and_answers_503_until_registered() {
    let harness = Harness::start(build_settings()).await;
    harness.hub.expect("table-0");
    let (status, body) = json_of(harness.get("/health").await).await;
    assert_eq!(status, 200);
    assert_eq!(body["recovering"], json!(["table-0"]), "{body}");
    assert_eq!(body["status"], "degraded");
    assert_eq!(body["boards"][0]["board"], "table-0", "id order: {body}");
    assert_eq!(body["boards"][0]["ready"], false);
    assert_eq!(body["boards"][1]["board"], BOARD);
    assert_eq!(body["boards"][1]["ready"], true);
    for path in [
        "/boards/table-0",
        "/boards/table-0/moves",
        "/boards/table-0/sgf",
    ] {
        let response = harness.get(path).await;
        assert_eq!(response.status().as_u16(), 503, "{path}");
        assert_eq!(
            response.headers().get("retry-after").map(|v| v.as_bytes()),
            Some(&b"1"[..]),
            "{path}"
        );
        let (_, problem) = json_of(response).await;
        assert_eq!(problem["error"], "recovering", "{path}: {problem}");
    }
    let (status, listed) = json_of(harness.get("/boards").await).await;
    assert_eq!(status, 200);
    assert_eq!(
        listed.as_array().map(Vec::len),
        Some(1),
        "only ready boards: {listed}"
    );
    assert_eq!(harness.get("/boards/table-9").await.status().as_u16(), 404);

    // The schema says so: `recovering` always there, a board not ready has no device fields.
    let (_, doc) = json_of(harness.get("/openapi.json").await).await;
    let schemas = &doc["components"]["schemas"];
    let required = |name: &str| -> Vec<String> {
        serde_json::from_value(schemas[name]["required"].clone()).unwrap_or_default()
    };
    assert!(
        required("Health").contains(&"recovering".to_owned()),
        "{}",
        schemas["Health"]
    );
    let board_required = required("BoardHealth");
    assert!(
        board_required.contains(&"ready".to_owned()),
        "{}",
        schemas["BoardHealth"]
    );
    for optional in ["device", "report", "error"] {
        assert!(
            !board_required.contains(&optional.to_owned()),
            "{optional}: {}",
            schemas["BoardHealth"]
        );
    }

    harness
        .hub
        .fail("table-0", "journal: disk I/O error".into());
    let (_, body) = json_of(harness.get("/health").await).await;
    assert_eq!(body["recovering"], json!([]), "{body}");
    assert_eq!(body["boards"][0]["error"], "journal: disk I/O error");
    let (status, problem) = json_of(harness.get("/boards/table-0").await).await;
    assert_eq!(
        (status, problem["error"].clone()),
        (503, json!("unavailable"))
    );

    harness.hub.register(
        "table-0",
        super::build_view(super::build_state(1, 0)),
        harness.control.clone(),
        1,
    );
    let (_, body) = json_of(harness.get("/health").await).await;
    assert_eq!(body["recovering"], json!([]), "{body}");
    assert_eq!(body["boards"][0]["ready"], true, "{body}");
    assert_eq!(harness.get("/boards/table-0").await.status().as_u16(), 200);
    harness.stop().await;
}

#[tokio::test]
async fn boards_list_is_every_live_state() {
    let harness = Harness::start(build_settings()).await;
    let seq = harness.play(1);
    let (status, body) = json_of(harness.get("/boards").await).await;
    assert_eq!(status, 200);
    assert_eq!(body.as_array().map(Vec::len), Some(1), "{body}");
    let live = &body[0];
    assert_eq!(live["board"], BOARD);
    assert_eq!(live["v"], 2);
    assert_eq!(live["move_number"], 1);
    assert_eq!(live["last_move"]["number"], 1);
    assert_eq!(live["seq"], seq);
    assert_eq!(live["phase"], "playing");
    assert!(
        live.get("moves").is_none(),
        "the live state has no move list"
    );
    harness.stop().await;
}

#[tokio::test]
async fn moves_since_gives_the_tail() {
    let harness = Harness::start(build_settings()).await;
    let seq = harness.play(5);
    let (status, body) = json_of(harness.get("/boards/table-1/moves?since=3").await).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["board"], BOARD);
    assert_eq!(body["seq"], seq);
    assert_eq!(body["since"], 3);
    let numbers: Vec<_> = body["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["number"].clone())
        .collect();
    assert_eq!(numbers, [json!(4), json!(5)]);
    let (_, all) = json_of(harness.get("/boards/table-1/moves").await).await;
    assert_eq!(all["moves"].as_array().map(Vec::len), Some(5));
    assert_eq!(all["since"], 0);
    let (status, _) = json_of(harness.get("/boards/table-1/moves?since=x").await).await;
    assert_eq!(status, 400);
    let (status, _) = json_of(harness.get("/boards/nope/moves").await).await;
    assert_eq!(status, 404);
    harness.stop().await;
}

#[tokio::test]
async fn board_state_is_the_published_state() {
    let harness = Harness::start(build_settings()).await;
    let (status, body) = json_of(harness.get("/boards/table-1").await).await;
    assert_eq!((status, body["seq"].as_u64()), (200, Some(1)));
    let seq = harness.play(5);
    let (_, body) = json_of(harness.get("/boards/table-1").await).await;
    assert_eq!(body["seq"], seq);
    assert_eq!(body["move_number"], 5);
    assert_eq!(body["position"].as_str().map(str::len), Some(361));
    harness.stop().await;
}

#[tokio::test]
async fn unknown_board_is_404_json() {
    let harness = Harness::start(build_settings()).await;
    for path in ["/boards/nope", "/boards/nope/sgf", "/boards/nope/events"] {
        let (status, body) = json_of(harness.get(path).await).await;
        assert_eq!(status, 404, "{path}");
        assert_eq!(body["error"], "unknown_board", "{path}");
        assert!(body["detail"].as_str().unwrap().contains("nope"));
    }
    harness.stop().await;
}

#[tokio::test]
async fn live_sgf_has_its_media_type() {
    let harness = Harness::start(build_settings()).await;
    let response = harness.get("/boards/table-1/sgf").await;
    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(response.headers()["content-type"], "application/x-go-sgf");
    // Written on request from the view's state (no moves yet) and its game's header.
    assert_eq!(
        response.text().await.unwrap(),
        "(;FF[4]GM[1]CA[UTF-8]AP[goban-bridge:0.1]SZ[19]RU[Chinese]KM[7.5]PB[Black]PW[White]\
         C[2026-11-30-table-1-1 on table-1])\n"
    );
    harness.stop().await;
}

#[tokio::test]
async fn unknown_path_and_wrong_method_answer_json() {
    let harness = Harness::start(build_settings()).await;
    let (status, body) = json_of(harness.get("/nowhere").await).await;
    assert_eq!((status, body["error"].as_str()), (404, Some("not_found")));
    let (status, body) = json_of(
        harness
            .client
            .get(format!("{}/no-such-page", harness.base))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!((status, body["error"].as_str()), (404, Some("not_found")));
    let response = harness
        .client
        .delete(harness.url("/boards/table-1"))
        .send()
        .await
        .unwrap();
    let (status, body) = json_of(response).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (405, Some("method_not_allowed"))
    );
    let (status, _) = json_of(harness.get("/boards/table-1/game").await).await;
    assert_eq!(status, 405, "GET on an arbiter POST route");
    harness.stop().await;
}

#[tokio::test]
async fn bad_token_on_a_public_read_is_refused_not_ignored() {
    let harness = Harness::start(build_settings()).await;
    let response = harness
        .client
        .get(harness.url("/boards/table-1"))
        .bearer_auth("wrong")
        .send()
        .await
        .unwrap();
    let www = response.headers().get("www-authenticate").cloned();
    let (status, body) = json_of(response).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (401, Some("unauthorized"))
    );
    assert!(www.is_some());
    harness.stop().await;
}

#[tokio::test]
async fn cors_allows_overlay_pages() {
    let harness = Harness::start(build_settings()).await;
    let response = harness
        .client
        .get(harness.url("/boards/table-1"))
        .header("origin", "https://overlay.example")
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["access-control-allow-origin"], "*");
    let preflight = harness
        .client
        .request(
            reqwest::Method::OPTIONS,
            harness.url("/boards/table-1/clock"),
        )
        .header("origin", "https://overlay.example")
        .header("access-control-request-method", "POST")
        .header(
            "access-control-request-headers",
            "authorization,content-type",
        )
        .send()
        .await
        .unwrap();
    assert!(preflight.status().is_success());
    let allowed = preflight.headers()["access-control-allow-headers"]
        .to_str()
        .unwrap()
        .to_ascii_lowercase();
    assert!(allowed.contains("authorization"), "{allowed}");
    harness.stop().await;
}

#[tokio::test]
async fn cors_can_be_restricted() {
    let mut settings = build_settings();
    settings.cors_allow_origins =
        crate::http::AllowOrigins::parse(&["https://tv.example".to_owned()]).unwrap();
    let harness = Harness::start(settings).await;
    let allowed = harness
        .client
        .get(harness.url("/boards"))
        .header("origin", "https://tv.example")
        .send()
        .await
        .unwrap();
    assert_eq!(
        allowed.headers()["access-control-allow-origin"],
        "https://tv.example"
    );
    let other = harness
        .client
        .get(harness.url("/boards"))
        .header("origin", "https://evil.example")
        .send()
        .await
        .unwrap();
    assert!(other.headers().get("access-control-allow-origin").is_none());
    harness.stop().await;
}

#[tokio::test]
async fn a_request_without_origin_gets_the_headers_cors_would_give_it() {
    use crate::http::AllowOrigins;
    use tower::ServiceExt;
    let listed = AllowOrigins::parse(&["https://tv.example".to_owned()]).unwrap();
    for origins in [AllowOrigins::Any, listed] {
        let mut settings = build_settings();
        settings.cors_allow_origins = origins.clone();
        let harness = Harness::start(settings).await;
        let ours = harness
            .client
            .get(harness.url("/boards"))
            .send()
            .await
            .unwrap();
        // tower_http's own answer, with the same CORS settings, to the same request.
        let reference = axum::Router::new()
            .route("/", axum::routing::get(|| async { "" }))
            .layer(crate::http::cors(&origins));
        let request = axum::http::Request::get("/")
            .body(axum::body::Body::empty())
            .unwrap();
        let theirs = reference.oneshot(request).await.unwrap();
        for name in ["vary", "access-control-allow-origin"] {
            let text = |headers: &reqwest::header::HeaderMap| {
                headers
                    .get(name)
                    .map(|v| v.to_str().unwrap_or("?").to_owned())
            };
            let theirs = theirs
                .headers()
                .get(name)
                .map(|v| v.to_str().unwrap_or("?").to_owned());
            assert_eq!(text(ours.headers()), theirs, "{name} with {origins:?}");
        }
        harness.stop().await;
    }
}

#[tokio::test]
async fn router_serves_without_a_socket() {
    use tower::ServiceExt;

    let archive = std::sync::Arc::new(super::FakeArchive::default());
    let hub = crate::publish::hub::Hub::new(8, archive);
    hub.register(
        BOARD,
        super::build_view(super::build_state(4, 2)),
        std::sync::Arc::new(super::FakeControl::default()),
        4,
    );
    let router = crate::http::router(build_settings(), hub);
    let request = axum::http::Request::get("/api/v1/boards/table-1")
        .body(axum::body::Body::empty())
        .unwrap();
    let response = router.oneshot(request).await.unwrap();
    assert_eq!(response.status(), axum::http::StatusCode::OK);
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .unwrap();
    let state: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(
        (state["seq"].as_u64(), state["move_number"].as_u64()),
        (Some(4), Some(2))
    );
}

#[tokio::test]
async fn framework_rejections_are_json_too() {
    let harness = Harness::start(build_settings()).await;
    let (status, body) = json_of(harness.get("/boards/%FF%FE").await).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("bad_request")),
        "{body}"
    );
    assert!(body["detail"].as_str().is_some_and(|d| !d.is_empty()));
    let response = harness
        .get("/boards/table-1/events?last_event_id=3&_=1700000000")
        .await;
    assert_eq!(response.status().as_u16(), 200, "cache busters are ignored");
    harness.stop().await;
}
