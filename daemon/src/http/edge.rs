//! The one middleware around every route: CORS for requests that ask for it, error bodies
//! made problem+json, `nosniff` on every answer, then the request counted and timed by route template.
//!
//! Written as a plain tower layer rather than two `axum::middleware` functions:
//! each of those clones the boxed inner service on every request and boxes
//! its future, which cost a static board read a noticeable share of its time.
//! For the same reason a request without `Origin` (not a browser's cross-origin
//! request, not a preflight) skips `tower_http`'s CORS service, which builds
//! its headers anew for every request; it gets the same headers, built once.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::http::{HeaderMap, HeaderValue, Method, header};
use axum::response::Response;
use futures::future::Either;
use tower::{Layer, Service};
use tower_http::cors::{Cors, CorsLayer};

use super::error::ensure_json_errors;
use super::metrics::method_label;
use super::route_meters::RouteMeters;

/// Wraps every route with [`Edge`].
#[derive(Clone)]
pub(crate) struct EdgeLayer {
    meters: Arc<RouteMeters>,
    cors: CorsLayer,
    same_origin: Arc<HeaderMap>,
}

impl EdgeLayer {
    /// `any_origin`: whether `cors` allows every origin (it then answers `*` to everyone).
    pub(crate) fn new(meters: Arc<RouteMeters>, cors: CorsLayer, any_origin: bool) -> Self {
        // What `cors` adds to a response to a request without `Origin`.
        let mut same_origin = HeaderMap::new();
        same_origin.insert(
            header::VARY,
            HeaderValue::from_static(
                "origin, access-control-request-method, access-control-request-headers",
            ),
        );
        if any_origin {
            same_origin.insert(
                header::ACCESS_CONTROL_ALLOW_ORIGIN,
                HeaderValue::from_static("*"),
            );
        }
        Self {
            meters,
            cors,
            same_origin: Arc::new(same_origin),
        }
    }
}

impl<S: Clone> Layer<S> for EdgeLayer {
    type Service = Edge<S>;

    fn layer(&self, inner: S) -> Self::Service {
        Edge {
            cross_origin: self.cors.layer(inner.clone()),
            same_origin: inner,
            same_origin_headers: self.same_origin.clone(),
            meters: self.meters.clone(),
        }
    }
}

/// A route with CORS, its error bodies mended and its requests metered.
#[derive(Clone)]
pub(crate) struct Edge<S> {
    cross_origin: Cors<S>,
    same_origin: S,
    same_origin_headers: Arc<HeaderMap>,
    meters: Arc<RouteMeters>,
}

impl<S> Service<Request> for Edge<S>
where
    S: Service<Request, Response = Response> + Send + 'static,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
{
    type Response = Response;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        match self.same_origin.poll_ready(cx) {
            Poll::Ready(Ok(())) => self.cross_origin.poll_ready(cx),
            other => other,
        }
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let started = Instant::now();
        let method = method_label(request.method());
        let route = request.extensions().get::<MatchedPath>().cloned();
        let meters = self.meters.clone();
        let cross_origin =
            request.method() == Method::OPTIONS || request.headers().contains_key(header::ORIGIN);
        let (answer, added) = if cross_origin {
            (Either::Left(self.cross_origin.call(request)), None)
        } else {
            let added = self.same_origin_headers.clone();
            (Either::Right(self.same_origin.call(request)), Some(added))
        };
        Box::pin(async move {
            let mut response = answer.await?;
            // No browser guesses a type the server did not give (a JSON error read as HTML).
            response.headers_mut().insert(
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            );
            if let Some(added) = added {
                for (name, value) in added.iter() {
                    response.headers_mut().insert(name, value.clone());
                }
            }
            let response = ensure_json_errors(response).await;
            let route = route.as_ref().map_or("unmatched", MatchedPath::as_str);
            meters.record(route, method, response.status().as_u16(), started.elapsed());
            Ok(response)
        })
    }
}
