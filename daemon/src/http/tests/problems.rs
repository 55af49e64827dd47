//! Every error answer is an RFC 9457 problem: `application/problem+json` with `type`, `title`, `status`, `detail`.

use serde_json::Value;

use super::*;

/// Checks the problem members and the media type; returns the `error` code.
async fn problem_of(response: reqwest::Response) -> (u16, String) {
    let status = response.status().as_u16();
    let media = response.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_owned();
    let text = response.text().await.unwrap();
    assert_eq!(media, "application/problem+json", "{status}: {text}");
    let body: Value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text}"));
    let code = body["error"].as_str().expect("error code").to_owned();
    assert_eq!(body["status"], status, "{text}");
    assert_eq!(
        body["type"].as_str(),
        Some(format!("tag:goban-bridge,2026:problem:{code}").as_str()),
        "{text}"
    );
    assert!(
        body["title"].as_str().is_some_and(|t| !t.is_empty()),
        "{text}"
    );
    assert!(
        body["detail"].as_str().is_some_and(|d| !d.is_empty()),
        "{text}"
    );
    (status, code)
}

#[tokio::test]
async fn handler_errors_fallbacks_and_axum_rejections_are_problems() {
    let harness = Harness::start(build_settings()).await;
    let cases: Vec<(reqwest::RequestBuilder, u16, &str)> = vec![
        (
            harness.client.get(harness.url("/boards/nope")),
            404,
            "unknown_board",
        ),
        (
            harness.client.get(harness.url("/no/such/path")),
            404,
            "not_found",
        ),
        (
            harness.client.delete(harness.url("/boards")),
            405,
            "method_not_allowed",
        ),
        (
            harness.client.post(harness.url("/boards/table-1/result")),
            401,
            "unauthorized",
        ),
        (
            harness
                .client
                .post(harness.url("/boards/table-1/result"))
                .bearer_auth(TOKEN)
                .header("content-type", "text/plain")
                .body("B+R"),
            415,
            "unsupported_media_type",
        ),
        (
            harness
                .client
                .get(harness.url("/boards/table-1/events"))
                .header("last-event-id", "twelve"),
            400,
            "bad_request",
        ),
        // A path segment that is not UTF-8: axum's own rejection, rewritten.
        (
            harness.client.get(harness.url("/boards/%FF")),
            400,
            "bad_request",
        ),
    ];
    for (request, status, code) in cases {
        let answer = problem_of(request.send().await.unwrap()).await;
        assert_eq!(answer, (status, code.to_owned()));
    }
    harness.stop().await;
}

#[tokio::test]
async fn openapi_declares_every_error_as_a_problem() {
    let harness = Harness::start(build_settings()).await;
    let (_, doc) = json_of(harness.get("/openapi.json").await).await;
    let problem = &doc["components"]["schemas"]["Problem"];
    for member in ["type", "title", "status", "detail"] {
        assert!(
            problem["properties"][member].is_object(),
            "Problem.{member}"
        );
    }
    let mut errors = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let responses = operation["responses"].as_object().unwrap();
            assert!(responses.contains_key("default"), "{method} {path}");
            for (status, response) in responses {
                if status.starts_with('2') {
                    continue;
                }
                errors += 1;
                let content = response["content"].as_object().unwrap();
                assert_eq!(
                    content.keys().collect::<Vec<_>>(),
                    ["application/problem+json"],
                    "{method} {path} {status}"
                );
            }
        }
    }
    assert!(errors > 20, "only {errors} error responses declared");
    harness.stop().await;
}
