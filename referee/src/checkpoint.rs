//! Checkpoints: a referee's whole state as versioned bytes, restored so that a journal replays only the inputs after it.
//!
//! The referee is deterministic: restoring a checkpoint taken after input N
//! and handling inputs N+1.. gives the state and every event that handling
//! inputs 1.. from a fresh referee gives (`tests/checkpoint.rs`). A
//! checkpoint is the referee's fields as JSON (serde derives), except:
//! - outputs not yet polled (they were handed out before the checkpoint) and
//!   the replaying switch;
//! - the rules [`Game`](goban_rules::Game), whose board shares a neighbour table and whose ko
//!   history keeps a bloom filter: it is written as its setup, its initial
//!   stones and its moves, and rebuilt by playing them again. The rebuilt
//!   game is checked against what was written (every move's captures, the
//!   position's hash, the counting state); any difference refuses the checkpoint.
//!
//! A checkpoint of a format this referee does not read ([`reads`]), one that
//! does not decode, or one taken under another [`RefereeConfig`] is refused
//! with a [`CheckpointError`]: the caller replays from the start instead.
//!
//! Format 3 dropped the referee's own event counter (`seq`, and
//! `first_seq` in its config): the daemon's ledger numbers every message.
//! Format 2 is still read, those two fields ignored, so that a daemon
//! upgraded mid-tournament restores the checkpoints in its journal
//! (`tests/checkpoint_format_2.rs`).

use serde::{Deserialize, Serialize};

use crate::config::RefereeConfig;
use crate::referee::Referee;

/// The checkpoint format this referee writes. A change of the referee's fields that old
/// checkpoints do not decode into correctly must raise it (old ones are then replayed in full,
/// unless [`OLDEST_FORMAT`] still covers them and their difference is handled in reading).
pub const FORMAT: u32 = 3;

/// The oldest checkpoint format this referee reads: format 2 differs from 3 only by the event
/// counter it kept (`seq`, `config.first_seq`), which reading ignores.
pub const OLDEST_FORMAT: u32 = 2;

/// Whether this referee reads checkpoints of `format` ([`OLDEST_FORMAT`] to [`FORMAT`]).
#[must_use]
pub const fn reads(format: u32) -> bool {
    format >= OLDEST_FORMAT && format <= FORMAT
}

/// Why a checkpoint was not restored; the caller falls back to a full replay.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// Written in a format this referee does not read (a much older or a newer referee).
    #[error("checkpoint format {found}, this referee reads {OLDEST_FORMAT} to {supported}")]
    Format {
        /// The checkpoint's format.
        found: u32,
        /// [`FORMAT`].
        supported: u32,
    },
    /// The bytes did not decode (damaged, or fields this referee does not know).
    #[error("checkpoint does not decode: {0}")]
    Decode(String),
    /// The referee did not encode (a bug: every field is plain data).
    #[error("checkpoint does not encode: {0}")]
    Encode(String),
    /// Taken under another configuration (the config file changed across the restart): the
    /// journaled inputs must be replayed under the new one, as without a checkpoint.
    #[error("checkpoint taken under another referee configuration")]
    ConfigChanged,
}

/// What a checkpoint holds, written.
#[derive(Serialize)]
struct Written<'a> {
    format: u32,
    referee: &'a Referee,
}

/// Only the format, read first: a checkpoint of another format is not decoded further.
#[derive(Deserialize)]
struct Header {
    format: u32,
}

/// What a checkpoint holds, read.
#[derive(Deserialize)]
struct Read {
    referee: Referee,
}

impl Referee {
    /// The referee's state as checkpoint bytes (JSON of [`FORMAT`]). Events and device commands
    /// not yet polled are not in it.
    ///
    /// # Errors
    /// [`CheckpointError::Encode`], which plain data never gives.
    pub fn checkpoint(&self) -> Result<Vec<u8>, CheckpointError> {
        serde_json::to_vec(&Written {
            format: FORMAT,
            referee: self,
        })
        .map_err(|err| CheckpointError::Encode(err.to_string()))
    }

    /// The referee a checkpoint was taken of, to continue with the inputs that followed it.
    /// `config` is the one the caller would build a fresh referee with. Format 2's event
    /// counter (`seq`, `config.first_seq`) is not a field any more: serde skips it.
    ///
    /// # Errors
    /// The checkpoint is of another format, does not decode, or was taken under another config.
    pub fn restore(config: &RefereeConfig, bytes: &[u8]) -> Result<Self, CheckpointError> {
        let header: Header = serde_json::from_slice(bytes)
            .map_err(|err| CheckpointError::Decode(err.to_string()))?;
        if !reads(header.format) {
            return Err(CheckpointError::Format {
                found: header.format,
                supported: FORMAT,
            });
        }
        let read: Read = serde_json::from_slice(bytes)
            .map_err(|err| CheckpointError::Decode(err.to_string()))?;
        let referee = read.referee;
        if referee.config != *config {
            return Err(CheckpointError::ConfigChanged);
        }
        if !referee.sight.fits(referee.size.points()) {
            return Err(CheckpointError::Decode(
                "the board's readings do not fit its size".into(),
            ));
        }
        Ok(referee)
    }
}
