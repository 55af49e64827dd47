//! `POST /boards/{board}/infractions/{id}/acknowledge`: "I'm on my way", read strictly.

use goban_referee::{ArbiterCommand, InfractionId};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{Validate, check_note};
use crate::http::error::ApiError;

/// `POST /boards/{board}/infractions/{id}/acknowledge`: an arbiter takes an open alert.
///
/// Every arbiter sees `taken_by` and `taken_at` on the alert (state, SSE, MQTT), so two
/// arbiters do not walk to the same table. The game is not touched; the audit trail
/// keeps who took it. Every field optional; `{}` takes the alert.
#[derive(Clone, Debug, Default, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct AcknowledgeBody {
    /// Take the alert although another arbiter took it (without it that is a 409 naming them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) take_over: Option<bool>,
    /// Hand the alert back: nobody is on the way any more.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) withdraw: Option<bool>,
    /// The arbiter's note for the audit trail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(
        max_length = 800,
        pattern = "^[^\\u0000-\\u0009\\u000b-\\u001f\\u007f-\\u009f]*$"
    )]
    pub(crate) note: Option<String>,
}

impl Validate for AcknowledgeBody {
    fn validate(&self) -> Result<(), ApiError> {
        if self.take_over == Some(true) && self.withdraw == Some(true) {
            // Each flag is valid alone (so no 400, the HTTP contract): together they ask to take
            // the alert and give it back at once, a request this route refuses like its others (409).
            return Err(ApiError::Rejected(
                "take_over and withdraw: one or the other, not both".into(),
            ));
        }
        check_note(self.note.as_deref())
    }
}

impl AcknowledgeBody {
    /// The referee's command for alert `id`.
    pub(crate) fn command(&self, id: String) -> ArbiterCommand {
        ArbiterCommand::Acknowledge {
            id: InfractionId(id),
            withdraw: self.withdraw == Some(true),
            take_over: self.take_over == Some(true),
        }
    }
}
