//! The pages and their embedded assets over a real socket: HTML shells, the bundle with ETag, /api/docs, unknown boards.

use super::{BOARD, Harness, build_settings};

/// GET a path outside /api/v1.
async fn fetch(harness: &Harness, path: &str) -> reqwest::Response {
    harness
        .client
        .get(format!("{}{path}", harness.base))
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn every_page_is_an_html_shell_naming_its_page() {
    let harness = Harness::start(build_settings()).await;
    for (path, page) in [
        ("/".to_owned(), "hall"),
        (format!("/board/{BOARD}"), "board"),
        (format!("/overlay/{BOARD}"), "overlay"),
        ("/arbiter".to_owned(), "arbiter"),
    ] {
        let response = fetch(&harness, &path).await;
        assert_eq!(response.status(), 200, "{path}");
        let csp = response.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(
            csp.contains("default-src 'self'"),
            "{path}: no outside origin may load"
        );
        let html = response.text().await.unwrap();
        assert!(
            html.contains(&format!(r#"data-page="{page}""#)),
            "{path}: {html}"
        );
        assert!(html.contains("/assets/app.js?v="), "{path}");
        assert!(
            !html.contains("http://") && !html.contains("https://"),
            "{path}: no CDN"
        );
    }
    harness.stop().await;
}

#[tokio::test]
async fn a_page_of_an_unknown_board_is_404() {
    let harness = Harness::start(build_settings()).await;
    for path in ["/board/no-such-table", "/overlay/no-such-table"] {
        let response = fetch(&harness, path).await;
        assert_eq!(response.status(), 404, "{path}");
        assert!(
            response.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/html"),
            "{path}: a page, not an API body"
        );
        let html = response.text().await.unwrap();
        assert!(html.contains("No board “no-such-table” here"), "{html}");
        assert!(
            html.contains(r#"href="/board/table-1""#),
            "the boards there are: {html}"
        );
    }
    harness.stop().await;
}

#[tokio::test]
async fn the_bundle_is_served_from_the_binary_with_an_etag() {
    let harness = Harness::start(build_settings()).await;
    let response = fetch(&harness, "/assets/app.js").await;
    assert_eq!(response.status(), 200);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/javascript")
    );
    let etag = response.headers()["etag"].clone();
    assert!(
        response.bytes().await.unwrap().len() > 10_000,
        "the Preact + Shudan bundle"
    );
    let again = harness
        .client
        .get(format!("{}/assets/app.js", harness.base))
        .header("if-none-match", etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 304);
    let css = fetch(&harness, "/assets/app.css").await;
    assert_eq!(css.status(), 200);
    assert!(css.text().await.unwrap().contains(".shudan-goban"));
    harness.stop().await;
}

#[tokio::test]
async fn api_docs_serve_swagger_ui_on_the_daemon_own_openapi() {
    let harness = Harness::start(build_settings()).await;
    let page = fetch(&harness, "/api/docs/").await;
    assert_eq!(page.status(), 200);
    assert!(page.text().await.unwrap().contains("swagger-ui"));
    let init = fetch(&harness, "/api/docs/swagger-initializer.js").await;
    let text = init.text().await.unwrap();
    assert!(text.contains("/api/v1/openapi.json"), "{text}");
    assert!(
        text.contains(r#""validatorUrl": "none""#),
        "no outside validator: {text}"
    );
    harness.stop().await;
}
