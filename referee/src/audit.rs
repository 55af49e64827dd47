//! The audit trail's entry: one arbiter action of a game, with who, when, what in words and the note.

use serde::{Deserialize, Serialize};

/// One arbiter action as the record keeps it (state `audit`, `GET /boards/{b}/audit`, SGF comments).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "openapi",
    derive(utoipa::ToSchema),
    schema(description = "One arbiter action of the audit trail: who, when, what, the note.")
)]
pub struct AuditEntry {
    /// 1-based position in the game's trail.
    pub number: u32,
    /// When it took effect (RFC 3339).
    pub at: String,
    /// Who: the daemon's label of the arbiter, the name their token carries
    /// (`[[server.arbiters]]`), else the index of their token ("arbiter#1"), never the token;
    /// "arbiter" when unsigned.
    #[cfg_attr(feature = "openapi", schema(example = "arbiter#1"))]
    pub by: String,
    /// The command's name: `start_game`, `ruling`, `acknowledge`, `pause`, `resume`,
    /// `adjust_clock`, `late_start`, `seal`, `unseal`, `mark_dead`, `mark_seki`,
    /// `confirm_result`, `resume_play`, `set_result`, `void_move`, `restore_move`.
    #[cfg_attr(feature = "openapi", schema(example = "adjust_clock"))]
    pub action: String,
    /// What was done, in words an arbiter reads.
    #[cfg_attr(
        feature = "openapi",
        schema(example = "1 min taken from White's clock (CN2002 22.8-22.9)")
    )]
    pub what: String,
    /// The number of the last move when it happened (0 before the first): its SGF node.
    pub move_number: u32,
    /// The arbiter's note.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}
