//! Arbiter routes: token checks, strict bodies, 4xx JSON with the state unchanged, and what reaches the runtime.

use serde_json::{Value, json};

use super::{Harness, TOKEN, TOKEN_2, build_settings, json_of};
use crate::publish::hub::ArbiterRequest;

/// Each arbiter route with a valid body and (part of) the command the runtime must receive.
fn build_cases() -> Vec<(&'static str, &'static str, Value)> {
    vec![
        (
            "/boards/table-1/game",
            r#"{"black":"Ke Jie","komi":7.5,"time_control":"byoyomi-cn:main=60m,reserve=5","force":true}"#,
            json!({"command": "start_game", "black": "Ke Jie", "komi": 7.5}),
        ),
        (
            "/boards/table-1/infractions/inf-1/ruling",
            r#"{"action":"confirm","note":"seen"}"#,
            json!({"command": "ruling", "id": "inf-1", "action": "confirm", "note": "seen"}),
        ),
        (
            "/boards/table-1/infractions/inf-1/acknowledge",
            r#"{"take_over":true,"note":"on my way"}"#,
            json!({"command": "acknowledge", "id": "inf-1", "withdraw": false, "take_over": true}),
        ),
        (
            "/boards/table-1/clock",
            r#"{"action":"adjust","color":"white","delta_ms":-60000,"note":"clock fault"}"#,
            json!({"command": "adjust_clock", "color": "white", "delta_ms": -60000, "by": "arbiter#2"}),
        ),
        (
            "/boards/table-1/clock",
            r#"{"action":"pause"}"#,
            json!({"command": "pause"}),
        ),
        (
            "/boards/table-1/dead-stones",
            r#"{"points":["q16","D4"],"dead":true}"#,
            json!({"command": "mark_dead", "points": ["Q16", "D4"], "dead": true}),
        ),
        (
            "/boards/table-1/result",
            r#"{"result":"B+0.75","force":true}"#,
            json!({"command": "set_result", "result": "B+0.75", "force": true}),
        ),
        (
            "/boards/table-1/moves/3/void",
            "",
            json!({"command": "void_move", "number": 3}),
        ),
        (
            "/boards/table-1/moves/3/restore",
            r#"{"note":"agreed by both"}"#,
            json!({"command": "restore_move", "number": 3}),
        ),
        (
            "/boards/table-1/moves/3/order",
            r#"{"points":["g3","pass","G7"],"note":"both players agree"}"#,
            json!({"command": "order_moves", "first": 3, "points": ["G3", "pass", "G7"]}),
        ),
        (
            "/boards/table-1/late-start",
            r#"{"color":"black","absent_ms":300000}"#,
            json!({"command": "late_start", "color": "black", "absent_ms": 300000}),
        ),
        ("/boards/table-1/seal", "{}", json!({"command": "seal"})),
        ("/boards/table-1/unseal", "", json!({"command": "unseal"})),
        (
            "/boards/table-1/resume-play",
            r#"{"first":"white"}"#,
            json!({"command": "resume_play", "first": "white"}),
        ),
    ]
}

fn taken(harness: &Harness) -> Vec<(ArbiterRequest, String)> {
    std::mem::take(&mut *harness.control.requests.lock().unwrap())
}

/// The signed act of a request (every route sends one).
fn act(request: &ArbiterRequest) -> &goban_referee::ArbiterAct {
    request
}

/// Whether every key of `part` has the same value in `whole`.
fn has(whole: &Value, part: &Value) -> bool {
    part.as_object()
        .is_some_and(|fields| fields.iter().all(|(k, v)| &whole[k] == v))
}

#[tokio::test]
async fn every_arbiter_route_reaches_the_runtime_with_who() {
    let harness = Harness::start(build_settings()).await;
    for (path, body, expected) in build_cases() {
        let (status, answer) = json_of(harness.post(path, Some(TOKEN_2), body).await).await;
        assert_eq!(status, 200, "{path}: {answer}");
        assert_eq!(answer["seq"], 1000, "{path} answers the new state");
        let requests = taken(&harness);
        assert_eq!(requests.len(), 1, "{path}");
        let (request, who) = &requests[0];
        let command = serde_json::to_value(&act(request).command).unwrap();
        assert!(
            has(&command, &expected),
            "{path}: {command} lacks {expected}"
        );
        assert_eq!(who, "arbiter#2", "identity by index, never the token");
        assert_eq!(act(request).by, "arbiter#2", "the act is signed");
    }
    harness.stop().await;
}

#[tokio::test]
async fn notes_travel_with_the_act() {
    let harness = Harness::start(build_settings()).await;
    let body =
        r#"{"action":"adjust","color":"black","delta_ms":30000,"note":"clock fault at move 40"}"#;
    let (status, _) = json_of(
        harness
            .post("/boards/table-1/clock", Some(TOKEN), body)
            .await,
    )
    .await;
    assert_eq!(status, 200);
    let requests = taken(&harness);
    assert_eq!(
        act(&requests[0].0).note.as_deref(),
        Some("clock fault at move 40")
    );
    harness.stop().await;
}

#[tokio::test]
async fn start_game_accepts_no_body() {
    let harness = Harness::start(build_settings()).await;
    let mut finished = super::build_state(0, 3);
    finished["phase"] = json!("finished");
    harness.publish(crate::message::Topic::State, finished);
    let response = harness
        .client
        .post(harness.url("/boards/table-1/game"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let requests = taken(&harness);
    assert!(matches!(
        act(&requests[0].0).command,
        goban_referee::ArbiterCommand::StartGame(_)
    ));
    harness.stop().await;
}

#[tokio::test]
async fn a_game_in_play_is_not_replaced_or_ended_without_force() {
    let harness = Harness::start(build_settings()).await;
    let cases = [
        ("/boards/table-1/game", "{}"),
        ("/boards/table-1/game", r#"{"force":false}"#),
        ("/boards/table-1/result", r#"{"result":"B+R"}"#),
    ];
    for (path, body) in cases {
        let (status, answer) = json_of(harness.post(path, Some(TOKEN), body).await).await;
        if path.ends_with("/game") {
            assert_eq!(status, 409, "{path} {body}: {answer}");
            assert!(answer["detail"].to_string().contains("force"), "{answer}");
        } else {
            // The runtime double accepts it: the referee itself refuses a result in play without force.
            let requests = taken(&harness);
            let command = serde_json::to_value(&act(&requests[0].0).command).unwrap();
            assert_eq!(command["force"], false, "{command}");
        }
    }
    assert!(taken(&harness).is_empty());
    harness.stop().await;
}

#[tokio::test]
async fn arbiter_routes_need_a_valid_token() {
    let harness = Harness::start(build_settings()).await;
    for (path, body, _) in build_cases() {
        for token in [None, Some("wrong-token"), Some("alpha-7f3")] {
            let response = harness.post(path, token, body).await;
            assert!(response.headers().contains_key("www-authenticate"));
            let (status, answer) = json_of(response).await;
            assert_eq!(status, 401, "{path} with {token:?}");
            assert_eq!(answer["error"], "unauthorized");
            assert!(
                !answer.to_string().contains(TOKEN),
                "the error never echoes a token"
            );
        }
    }
    let basic = harness
        .client
        .post(harness.url("/boards/table-1/result"))
        .basic_auth("x", Some(TOKEN))
        .send()
        .await
        .unwrap();
    assert_eq!(basic.status().as_u16(), 401);
    assert!(taken(&harness).is_empty(), "nothing reached the runtime");
    harness.stop().await;
}

#[tokio::test]
async fn no_configured_tokens_means_no_arbiter() {
    let harness = Harness::start(crate::http::HttpSettings::default()).await;
    let (status, _) = json_of(
        harness
            .post("/boards/table-1/result", Some(TOKEN), r#"{"result":"B+R"}"#)
            .await,
    )
    .await;
    assert_eq!(status, 401);
    harness.stop().await;
}

#[tokio::test]
async fn bad_bodies_are_4xx_json_and_change_nothing() {
    let harness = Harness::start(build_settings()).await;
    let before = harness.get("/boards/table-1").await.text().await.unwrap();
    let cases = [
        (
            "/boards/table-1/clock",
            "{\"action\": \"pause\"",
            400,
            "bad_body",
        ),
        (
            "/boards/table-1/clock",
            r#"{"action":"pause","extra":1}"#,
            400,
            "bad_body",
        ),
        (
            "/boards/table-1/clock",
            r#"{"action":"rewind"}"#,
            400,
            "bad_body",
        ),
        (
            "/boards/table-1/clock",
            r#"{"action":"adjust","color":"black","delta_ms":0}"#,
            400,
            "bad_body",
        ),
        ("/boards/table-1/clock", r#"[1,2]"#, 400, "bad_body"),
        ("/boards/table-1/game", "[]", 400, "bad_body"),
        (
            "/boards/table-1/game",
            r#"{"handicap":0,"free_handicap":true}"#,
            400,
            "bad_body",
        ),
        (
            "/boards/table-1/result",
            r#"{"result":"W+1000000"}"#,
            400,
            "bad_body",
        ),
        (
            "/boards/table-1/result",
            r#"{"result":"W+0.3"}"#,
            400,
            "bad_body",
        ),
        (
            // Of the RE form, but more than a 19-line board allows in stones under cn2002.
            "/boards/table-1/result",
            r#"{"result":"W+400","force":true}"#,
            409,
            "rejected",
        ),
        (
            "/boards/table-1/game",
            r#"{"time_control":"byoyomi-cn:reserve=5,main=60m","force":true}"#,
            400,
            "bad_body",
        ),
        (
            "/boards/table-1/game",
            r#"{"time_control":"fischer:main=30m,increment=20s,max=60m","force":true}"#,
            400,
            "bad_body",
        ),
        (
            "/boards/table-1/result",
            r#"{"result":"?"}"#,
            400,
            "bad_body",
        ),
        ("/boards/table-1/result", "[]", 400, "bad_body"),
        (
            "/boards/table-1/late-start",
            r#"{"color":"black","absent_ms":0}"#,
            400,
            "bad_body",
        ),
        (
            "/boards/table-1/late-start",
            r#"{"color":"black"}"#,
            400,
            "bad_body",
        ),
        ("/boards/table-1/moves/x/void", "", 400, "bad_request"),
        (
            "/boards/table-1/resume-play",
            r#"{"first":"red"}"#,
            400,
            "bad_body",
        ),
        (
            "/boards/table-1/seal",
            r#"{"note":"x","why":1}"#,
            400,
            "bad_body",
        ),
        (
            "/boards/table-1/game",
            r#"{"komi":"lots"}"#,
            400,
            "bad_body",
        ),
        (
            "/boards/table-1/game",
            r#"{"time_control":"byoyomi-cn:main=60"}"#,
            400,
            "bad_body",
        ),
        (
            "/boards/table-1/game",
            r#"{"players":{"black":"A"}}"#,
            400,
            "bad_body",
        ),
        (
            "/boards/table-1/dead-stones",
            r#"{"points":["Z99"],"dead":true}"#,
            400,
            "bad_body",
        ),
        (
            "/boards/table-1/dead-stones",
            r#"{"points":["I4"],"dead":true}"#,
            400,
            "bad_body",
        ),
        (
            "/boards/table-1/result",
            r#"{"result":"black won"}"#,
            400,
            "bad_body",
        ),
        (
            "/boards/table-1/infractions/inf-9/ruling",
            r#"{"action":"dismiss"}"#,
            404,
            "unknown_infraction",
        ),
        (
            "/boards/table-1/infractions/inf-1/ruling",
            r#"{"action":"forgive"}"#,
            400,
            "bad_body",
        ),
        (
            "/boards/table-1/infractions/inf-1/acknowledge",
            r#"{"take_over":true,"withdraw":true}"#,
            // Schema-valid, so not a 400 (the HTTP contract): refused like the route's others.
            409,
            "rejected",
        ),
        (
            "/boards/table-1/infractions/inf-9/acknowledge",
            "{}",
            404,
            "unknown_infraction",
        ),
        (
            "/boards/table-9/result",
            r#"{"result":"B+R"}"#,
            404,
            "unknown_board",
        ),
    ];
    for (path, body, status, error) in cases {
        let (got, answer) = json_of(harness.post(path, Some(TOKEN), body).await).await;
        assert_eq!(
            (got, answer["error"].as_str()),
            (status, Some(error)),
            "{path} {body}: {answer}"
        );
        assert!(
            !answer["detail"].is_null(),
            "{path} {body}: the detail says what was wrong"
        );
    }
    assert!(
        taken(&harness).is_empty(),
        "no bad body reached the runtime"
    );
    assert_eq!(
        harness.get("/boards/table-1").await.text().await.unwrap(),
        before
    );
    harness.stop().await;
}

#[tokio::test]
async fn json_errors_point_at_the_position() {
    let harness = Harness::start(build_settings()).await;
    let (_, answer) = json_of(
        harness
            .post("/boards/table-1/result", Some(TOKEN), "{\n  \"result\": B}")
            .await,
    )
    .await;
    assert_eq!(answer["line"], 2);
    assert!(answer["column"].as_u64().is_some());
    let (_, answer) = json_of(
        harness
            .post(
                "/boards/table-1/result",
                Some(TOKEN),
                r#"{"result":"B+R","why":1}"#,
            )
            .await,
    )
    .await;
    assert!(
        answer["detail"]
            .as_str()
            .unwrap()
            .contains("unknown field `why`"),
        "{answer}"
    );
    harness.stop().await;
}

#[tokio::test]
async fn wrong_content_type_is_415() {
    let harness = Harness::start(build_settings()).await;
    let response = harness
        .client
        .post(harness.url("/boards/table-1/result"))
        .bearer_auth(TOKEN)
        .header("content-type", "text/plain")
        .body(r#"{"result":"B+R"}"#)
        .send()
        .await
        .unwrap();
    let (status, answer) = json_of(response).await;
    assert_eq!(
        (status, answer["error"].as_str()),
        (415, Some("unsupported_media_type"))
    );
    assert!(taken(&harness).is_empty());
    harness.stop().await;
}

#[tokio::test]
async fn too_large_body_is_413() {
    let mut settings = build_settings();
    settings.body_limit_bytes = 1024;
    let harness = Harness::start(settings).await;
    let body = format!(r#"{{"action":"confirm","note":"{}"}}"#, "x".repeat(4096));
    let (status, answer) = json_of(
        harness
            .post(
                "/boards/table-1/infractions/inf-1/ruling",
                Some(TOKEN),
                &body,
            )
            .await,
    )
    .await;
    assert_eq!(
        (status, answer["error"].as_str()),
        (413, Some("payload_too_large"))
    );
    let (status, _) = json_of(
        harness
            .post("/boards/table-1/result", Some(TOKEN), r#"{"result":"W+T"}"#)
            .await,
    )
    .await;
    assert_eq!(status, 200, "a small body still passes");
    harness.stop().await;
}

#[tokio::test]
async fn runtime_refusals_are_409_with_the_reason() {
    let harness = Harness::start(build_settings()).await;
    *harness.control.refuse.lock().unwrap() = Some("no game in progress (phase setup)".to_owned());
    let (status, answer) = json_of(
        harness
            .post(
                "/boards/table-1/clock",
                Some(TOKEN),
                r#"{"action":"resume"}"#,
            )
            .await,
    )
    .await;
    assert_eq!((status, answer["error"].as_str()), (409, Some("rejected")));
    assert_eq!(answer["detail"], "no game in progress (phase setup)");
    harness.stop().await;
}

#[tokio::test]
async fn infraction_ids_with_a_slash_are_percent_encoded() {
    let harness = Harness::start(build_settings()).await;
    let mut state = super::build_state(0, 3);
    state["infractions"][0]["id"] = json!("2026-11-30-table-1-1/3");
    harness.publish(crate::message::Topic::State, state);
    let path = "/boards/table-1/infractions/2026-11-30-table-1-1%2F3/ruling";
    let (status, answer) = json_of(
        harness
            .post(path, Some(TOKEN), r#"{"action":"dismiss"}"#)
            .await,
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    let requests = taken(&harness);
    let goban_referee::ArbiterCommand::Ruling { id, .. } = &act(&requests[0].0).command else {
        panic!("not a ruling")
    };
    assert_eq!(id.0, "2026-11-30-table-1-1/3");
    harness.stop().await;
}

#[tokio::test]
async fn an_arbiter_learns_how_the_trail_names_them() {
    let harness = Harness::start(build_settings()).await;
    let (status, body) = json_of(harness.get_as_arbiter("/arbiter/me").await).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, json!({"name": "arbiter#1"}));
    let (status, _) = json_of(harness.get("/arbiter/me").await).await;
    assert_eq!(status, 401, "only a token has a name");
}
