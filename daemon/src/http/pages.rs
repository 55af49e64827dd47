//! The web pages (hall `/`, viewer `/board/{id}`, OBS overlay `/overlay/{id}`, arbiter console `/arbiter`) and `/api/docs`.
//!
//! The pages are one HTML shell each around the front end of `web/` (Preact and
//! Shudan, bundled by esbuild into `web/dist/`, which is committed). The bundle is
//! compiled into the binary with `include_bytes!`: no file to deploy beside it,
//! no CDN, nothing downloaded at run time, so the pages work offline in a hall.
//! Four files do not need an embedding crate. The pages read only the public API.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Arc, OnceLock};

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use utoipa_swagger_ui::{Config, SwaggerUi};

use super::App;
use super::error::ApiError;

/// One embedded file of `web/dist/`.
struct Asset {
    bytes: &'static [u8],
    content_type: &'static str,
}

const APP_JS: Asset = Asset {
    bytes: include_bytes!("../../../web/dist/app.js"),
    content_type: "text/javascript; charset=utf-8",
};
const APP_CSS: Asset = Asset {
    bytes: include_bytes!("../../../web/dist/app.css"),
    content_type: "text/css; charset=utf-8",
};
const LICENSES: Asset = Asset {
    bytes: include_bytes!("../../../web/dist/app.js.LEGAL.txt"),
    content_type: "text/plain; charset=utf-8",
};
const FAVICON: Asset = Asset {
    bytes: br##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#e3b868"/><circle cx="6" cy="6" r="4" fill="#111"/><circle cx="10.5" cy="10.5" r="4" fill="#fafafa" stroke="#333" stroke-width=".6"/></svg>"##,
    content_type: "image/svg+xml",
};

/// The pages' own scripts and styles only; Shudan (and Swagger UI) set inline styles, and the
/// board texture is a data: URL. Without `frame-ancestors` as its last directive: each page adds its own.
macro_rules! csp_sources {
    () => {
        "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; \
         connect-src 'self'; object-src 'none'; base-uri 'none'"
    };
}

/// Hall, viewer, console and /api/docs: no other site may frame them (clickjacking of the
/// console's buttons). `X-Frame-Options` for browsers older than CSP level 2.
const CSP: &str = concat!(csp_sources!(), "; frame-ancestors 'none'");

/// The overlay's CSP: a production tool (OBS, a vision mixer's browser source) frames it, from
/// the origins `server.overlay_frame_ancestors` lists (default `*`).
pub(super) fn overlay_csp(frame_ancestors: &HeaderValue) -> HeaderValue {
    let ancestors = frame_ancestors.to_str().unwrap_or("'none'");
    HeaderValue::from_str(&format!("{}; frame-ancestors {ancestors}", csp_sources!()))
        .unwrap_or(HeaderValue::from_static(CSP))
}

/// The page routes, the embedded assets and the Swagger UI at /api/docs.
pub(crate) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/", get(handle_hall))
        .route("/board/{board}", get(handle_viewer))
        .route("/overlay/{board}", get(handle_overlay))
        .route("/arbiter", get(handle_arbiter))
        .route("/assets/app.js", get(|h: HeaderMap| serve(&APP_JS, h)))
        .route("/assets/app.css", get(|h: HeaderMap| serve(&APP_CSS, h)))
        .route(
            "/assets/app.js.LEGAL.txt",
            get(|h: HeaderMap| serve(&LICENSES, h)),
        )
        .route("/favicon.ico", get(|h: HeaderMap| serve(&FAVICON, h)))
        .merge(Router::from(api_docs()).layer(axum::middleware::map_response(with_docs_csp)))
}

/// Swagger UI's pages get the console's policy: its own files, never framed.
async fn with_docs_csp(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    response
}

/// Swagger UI (vendored by the crate) reading the daemon's own /api/v1/openapi.json.
fn api_docs() -> SwaggerUi {
    // No validator: Swagger UI would otherwise load a badge from an outside server.
    let config = Config::new(["/api/v1/openapi.json"]).validator_url("none");
    SwaggerUi::new("/api/docs").config(config)
}

async fn handle_hall() -> Response {
    page("hall", None, "goban-bridge hall", unframed())
}

async fn handle_arbiter() -> Response {
    page("arbiter", None, "goban-bridge arbiter console", unframed())
}

/// The CSP of a page no other site may frame.
fn unframed() -> HeaderValue {
    HeaderValue::from_static(CSP)
}

async fn handle_viewer(State(app): State<Arc<App>>, Path(board): Path<String>) -> Response {
    if known(&app, &board).is_err() {
        return missing_page(&app, &board);
    }
    page(
        "board",
        Some(&board),
        &format!("{board} · goban-bridge"),
        unframed(),
    )
}

async fn handle_overlay(State(app): State<Arc<App>>, Path(board): Path<String>) -> Response {
    if known(&app, &board).is_err() {
        return missing_page(&app, &board);
    }
    page(
        "overlay",
        Some(&board),
        &format!("{board} overlay"),
        app.overlay_csp.clone(),
    )
}

/// A page (404) for a board this daemon does not have: a browser, or OBS, shows words and the
/// boards there are, not an API error body.
fn missing_page(app: &App, board: &str) -> Response {
    let boards: String = app
        .hub
        .boards()
        .iter()
        .map(|b| {
            let b = escape(b);
            format!(r#"<li><a href="/board/{b}">{b}</a></li>"#)
        })
        .collect();
    let html = format!(
        r#"<!doctype html>
<html lang="en" class="page-missing">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>No board {title} · goban-bridge</title>
<link rel="icon" href="/favicon.ico" type="image/svg+xml">
<link rel="stylesheet" href="/assets/app.css?v={version}">
</head>
<body>
<main class="missing" data-board="{title}">
<h1>No board “{title}” here</h1>
<p>This goban-bridge has no board with that id. The boards it has:</p>
<ul>{boards}</ul>
<p><a href="/">Back to the hall</a></p>
</main>
</body>
</html>
"#,
        title = escape(board),
        version = bundle_version(),
    );
    html_page(StatusCode::NOT_FOUND, html, unframed())
}

/// The page is a shell whose data calls say when a board is still recovering: only unknown boards are refused.
fn known(app: &App, board: &str) -> Result<(), ApiError> {
    if app.hub.view(board).is_some() || app.hub.readiness(board).is_some() {
        Ok(())
    } else {
        Err(ApiError::UnknownBoard(board.to_owned()))
    }
}

/// The HTML shell of a page: the front end reads `data-page` and `data-board`.
fn page(name: &str, board: Option<&str>, title: &str, csp: HeaderValue) -> Response {
    let board_attr = board
        .map(|b| format!(r#" data-board="{}""#, escape(b)))
        .unwrap_or_default();
    let html = format!(
        r#"<!doctype html>
<html lang="en" class="page-{name}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="icon" href="/favicon.ico" type="image/svg+xml">
<link rel="stylesheet" href="/assets/app.css?v={version}">
</head>
<body>
<div id="app" data-page="{name}"{board_attr}></div>
<script src="/assets/app.js?v={version}"></script>
</body>
</html>
"#,
        title = escape(title),
        version = bundle_version(),
    );
    html_page(StatusCode::OK, html, csp)
}

/// An HTML answer with the pages' headers; a page that may never be framed also says so to
/// browsers that do not read CSP.
fn html_page(status: StatusCode, html: String, csp: HeaderValue) -> Response {
    let never_framed = csp.as_bytes().ends_with(b"frame-ancestors 'none'");
    let mut response = (
        status,
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            ),
            (header::CONTENT_SECURITY_POLICY, csp),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        html,
    )
        .into_response();
    if never_framed {
        response
            .headers_mut()
            .insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    }
    response
}

/// A short hash of the bundle, so a browser never mixes the script of one build with the page of another.
fn bundle_version() -> &'static str {
    static VERSION: OnceLock<String> = OnceLock::new();
    VERSION.get_or_init(|| format!("{:016x}", hash(&[APP_JS.bytes, APP_CSS.bytes])))
}

fn hash(parts: &[&[u8]]) -> u64 {
    let mut hasher = DefaultHasher::new();
    parts.hash(&mut hasher);
    hasher.finish()
}

/// An embedded file with an ETag; a matching `If-None-Match` gets 304.
async fn serve(asset: &'static Asset, headers: HeaderMap) -> Response {
    let etag = format!("\"{:016x}\"", hash(&[asset.bytes]));
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|tag| tag.trim() == etag));
    let etag = HeaderValue::from_str(&etag).unwrap_or(HeaderValue::from_static("\"\""));
    if fresh {
        return (StatusCode::NOT_MODIFIED, [(header::ETAG, etag)]).into_response();
    }
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static(asset.content_type),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            (header::ETAG, etag),
        ],
        asset.bytes,
    )
        .into_response()
}

/// HTML text escaping for the few values put into the shell.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_keeps_markup_out_of_the_shell() {
        assert_eq!(
            escape(r#"<a href="x">&'"#),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }

    #[test]
    fn the_shell_names_its_page_and_board() {
        let response = page("board", Some("table-1"), "t", unframed());
        assert_eq!(
            response.headers()[header::CONTENT_TYPE],
            "text/html; charset=utf-8"
        );
        assert!(
            response
                .headers()
                .contains_key(header::CONTENT_SECURITY_POLICY)
        );
    }
}
