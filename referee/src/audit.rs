//! The audit trail's entry: one arbiter action of a game, with who, when, what in words and the note.

use serde::{Deserialize, Serialize};

/// One arbiter action as the record keeps it (state `audit`, `GET /boards/{b}/audit`, SGF comments).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AuditEntry {
    /// 1-based position in the game's trail.
    pub number: u32,
    /// When it took effect (RFC 3339).
    pub at: String,
    /// Who: the daemon's label of the arbiter ("arbiter#1"), "arbiter" when unsigned.
    pub by: String,
    /// The command's name ("ruling", "pause", "void_move", ...).
    pub action: String,
    /// What was done, in words an arbiter reads.
    pub what: String,
    /// The number of the last move when it happened (0 before the first): its SGF node.
    pub move_number: u32,
    /// The arbiter's note.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}
