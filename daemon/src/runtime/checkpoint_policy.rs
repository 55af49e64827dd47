//! When a board checkpoints its referee in the journal: every so many journaled inputs, every so many seconds of them, and when its game or phase changes.
//!
//! A checkpoint bounds what a restart replays: at most [`EVERY_INPUTS`]
//! inputs (or [`EVERY_MS`] of them) after the latest one. Its cost is its
//! size, which grows with the game's move list (about 92 KB of JSON at move
//! 250 on 19x19, packed to a fraction of that by the writer), paid once per
//! [`EVERY_INPUTS`] inputs: the journal keeps only the latest per open game.

use goban_referee::Phase;

/// Journaled inputs between two checkpoints of a board.
pub(crate) const EVERY_INPUTS: u32 = 64;

/// A board with journaled inputs since its last checkpoint checkpoints again after this long
/// (input time), however few they are.
pub(crate) const EVERY_MS: u64 = 60_000;

/// One board's checkpoint schedule.
#[derive(Debug)]
pub(crate) struct CheckpointPolicy {
    /// Inputs journaled (queued in batches) since the last checkpoint.
    inputs_since: u32,
    /// Input time of the last checkpoint (or of the start of the schedule).
    last_ms: u64,
    /// The game and phase at the last checkpoint; `None` before the first.
    seen: Option<(Option<String>, Phase)>,
}

impl CheckpointPolicy {
    /// A schedule starting at `now_ms` with `inputs_since` inputs already not covered by a
    /// checkpoint; `seen` is the game and phase the latest checkpoint holds, if one was restored.
    pub(crate) fn new(
        now_ms: u64,
        inputs_since: usize,
        seen: Option<(Option<String>, Phase)>,
    ) -> Self {
        Self {
            inputs_since: u32::try_from(inputs_since).unwrap_or(u32::MAX),
            last_ms: now_ms,
            seen,
        }
    }

    /// One more input was queued for the journal.
    pub(crate) fn journaled(&mut self) {
        self.inputs_since = self.inputs_since.saturating_add(1);
    }

    /// Whether the batch being sealed, with `inputs` inputs, the last at `now_ms`, should carry a
    /// checkpoint, the board's game and phase being `game` and `phase` after them.
    pub(crate) fn is_due(
        &self,
        inputs: usize,
        now_ms: u64,
        game: Option<&str>,
        phase: Phase,
    ) -> bool {
        if inputs == 0 {
            // A checkpoint follows an input of its batch: without one it has no place.
            return false;
        }
        let changed = self
            .seen
            .as_ref()
            .is_none_or(|(g, p)| g.as_deref() != game || *p != phase);
        changed
            || self.inputs_since >= EVERY_INPUTS
            || now_ms.saturating_sub(self.last_ms) >= EVERY_MS
    }

    /// A checkpoint was queued with the batch.
    pub(crate) fn taken(&mut self, now_ms: u64, game: Option<&str>, phase: Phase) {
        self.inputs_since = 0;
        self.last_ms = now_ms;
        self.seen = Some((game.map(str::to_owned), phase));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn due_at_a_new_game_or_phase_every_so_many_inputs_or_seconds_and_never_without_an_input() {
        let mut policy = CheckpointPolicy::new(1_000, 0, None);
        assert!(
            !policy.is_due(0, 1_000, None, Phase::Setup),
            "no input, no place"
        );
        assert!(policy.is_due(1, 1_000, None, Phase::Setup), "the first one");
        policy.taken(1_000, None, Phase::Setup);
        assert!(!policy.is_due(1, 2_000, None, Phase::Setup));
        assert!(
            policy.is_due(1, 2_000, Some("g1"), Phase::Playing),
            "a game started"
        );
        policy.taken(2_000, Some("g1"), Phase::Playing);
        for _ in 0..EVERY_INPUTS - 1 {
            policy.journaled();
        }
        assert!(!policy.is_due(1, 3_000, Some("g1"), Phase::Playing));
        policy.journaled();
        assert!(
            policy.is_due(1, 3_000, Some("g1"), Phase::Playing),
            "enough inputs"
        );
        policy.taken(3_000, Some("g1"), Phase::Playing);
        assert!(
            policy.is_due(1, 3_000 + EVERY_MS, Some("g1"), Phase::Playing),
            "long enough"
        );
        assert!(
            policy.is_due(1, 3_001, Some("g1"), Phase::Counting),
            "a phase change"
        );
    }
}
