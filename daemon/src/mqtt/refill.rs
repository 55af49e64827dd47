//! What the MQTT publisher has queued of each board, and the refill from the journal of what it
//! missed when it fell behind the bus.
//!
//! The bus is a bounded ring: a subscriber that falls behind it (a whole hall starting to play
//! at once, a slow broker) is told how many messages it missed, not which. Everything on the bus
//! was journaled first, so the publisher reads each board's messages after the last one it
//! queued back from the journal, in seq order, and then skips what the bus still holds of them.

use std::collections::HashMap;
use std::sync::Arc;

use crate::delay::Feed;
use crate::hub::{Archive, Published, RequestError};

/// Messages per journal read of a refill.
const PAGE: usize = 500;

/// The highest seq the publisher has queued of each board.
#[derive(Default)]
pub(crate) struct Progress {
    queued: HashMap<Arc<str>, u64>,
}

/// One board's stretch that may have been missed: its messages with `after < seq <= until`.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Gap {
    board: Arc<str>,
    after: u64,
    until: u64,
}

impl Progress {
    /// Whether `message` is news, recording it; `false` when a refill already queued it.
    pub(crate) fn admit(&mut self, message: &Published) -> bool {
        match self.queued.get_mut(&message.board) {
            Some(last) if message.seq <= *last => false,
            Some(last) => {
                *last = message.seq;
                true
            }
            None => {
                self.queued.insert(message.board.clone(), message.seq);
                true
            }
        }
    }

    /// The stretch of each served board that may be missing: after the last seq queued (or,
    /// for a board nothing was queued of, the seq it was registered with: the publisher
    /// subscribes before any board is registered), up to what the feed has released.
    pub(crate) fn gaps(&self, feed: &Feed) -> Vec<Gap> {
        let hub = feed.hub();
        hub.boards()
            .into_iter()
            .filter_map(|board| {
                let after = match self.queued.get(&board) {
                    Some(seq) => *seq,
                    None => hub.registered_seq(&board)?,
                };
                let until = feed.released(&board)?;
                (until > after).then_some(Gap {
                    board,
                    after,
                    until,
                })
            })
            .collect()
    }
}

/// What a refill read back: the messages, oldest first per board, and the boards whose
/// journal read failed, with the reason.
#[derive(Default)]
pub(crate) struct Refill {
    pub(crate) messages: Vec<Published>,
    pub(crate) failed: Vec<(Arc<str>, RequestError)>,
}

/// Reads every gap's messages from the journal (blocking: run it off the async workers).
pub(crate) fn read(archive: &dyn Archive, gaps: Vec<Gap>) -> Refill {
    let mut refill = Refill::default();
    for gap in gaps {
        if let Err(error) = read_gap(archive, &gap, &mut refill.messages) {
            refill.failed.push((gap.board, error));
        }
    }
    refill
}

fn read_gap(
    archive: &dyn Archive,
    gap: &Gap,
    out: &mut Vec<Published>,
) -> Result<(), RequestError> {
    let mut after = gap.after;
    loop {
        let page = archive.events_since(&gap.board, after, PAGE)?;
        let full = page.len() == PAGE;
        for message in page {
            if message.seq > gap.until {
                return Ok(());
            }
            after = message.seq;
            out.push(message);
        }
        if !full {
            return Ok(());
        }
    }
}

#[cfg(test)]
#[path = "refill_tests.rs"]
mod tests;
