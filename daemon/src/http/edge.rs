//! The one middleware around every route: error bodies made problem+json, then the request
//! counted and timed by route template.
//!
//! Written as a plain tower layer rather than two `axum::middleware` functions:
//! each of those clones the boxed inner service on every request and boxes
//! its future, which cost a static board read a noticeable share of its time.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::response::Response;
use tower::{Layer, Service};

use super::error::ensure_json_errors;
use super::metrics::method_label;
use super::route_meters::RouteMeters;

/// Wraps every route with [`Edge`].
#[derive(Clone)]
pub(crate) struct EdgeLayer {
    meters: Arc<RouteMeters>,
}

impl EdgeLayer {
    pub(crate) fn new(meters: Arc<RouteMeters>) -> Self {
        Self { meters }
    }
}

impl<S> Layer<S> for EdgeLayer {
    type Service = Edge<S>;

    fn layer(&self, inner: S) -> Self::Service {
        Edge {
            inner,
            meters: self.meters.clone(),
        }
    }
}

/// A route with its error bodies mended and its requests metered.
#[derive(Clone)]
pub(crate) struct Edge<S> {
    inner: S,
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
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let started = Instant::now();
        let method = method_label(request.method());
        let route = request.extensions().get::<MatchedPath>().cloned();
        let meters = self.meters.clone();
        let answer = self.inner.call(request);
        Box::pin(async move {
            let response = ensure_json_errors(answer.await?).await;
            let route = route.as_ref().map_or("unmatched", MatchedPath::as_str);
            meters.record(route, method, response.status().as_u16(), started.elapsed());
            Ok(response)
        })
    }
}
