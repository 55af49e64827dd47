//! GET /arbiter/me: who the token in the request is, so a console can tell its own acts from a colleague's.

use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

use crate::http::auth::Arbiter;

/// The arbiter a token acts as (schema `ArbiterMe`).
#[derive(Serialize, ToSchema)]
pub(crate) struct ArbiterMe {
    /// The name the token carries (`[[server.arbiters]]`), else `arbiter#N`: the `by` of
    /// the audit trail and the `ruled_by` and `taken_by` of alerts. Never the token.
    #[schema(example = "Li Wei")]
    name: String,
}

/// GET /arbiter/me: the calling arbiter's name.
#[utoipa::path(
    get,
    path = "/api/v1/arbiter/me",
    tag = "arbiter",
    security(("arbiter" = [])),
    responses(
        (status = 200, description = "`{\"name\": \"Li Wei\"}`: how the audit trail names this token's arbiter", body = ArbiterMe),
        (status = 401, description = "No or unknown arbiter token", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_me(Arbiter(who): Arbiter) -> Json<ArbiterMe> {
    Json(ArbiterMe {
        name: who.name().to_owned(),
    })
}
