//! What the MQTT publisher has queued of each board, and the refill from the journal of what it
//! missed when it fell behind the bus.
//!
//! The bus is a bounded ring: a subscriber that falls behind it (a whole hall starting to play
//! at once, a slow broker) is told how many messages it missed, not which. Everything on the bus
//! was journaled first, so the publisher reads each board's messages after the last one it
//! queued back from the journal, in seq order, and then skips what the bus still holds of them.

use std::collections::HashMap;
use std::sync::Arc;

use crate::message::Published;
use crate::publish::delay::Feed;
use crate::publish::hub::{Archive, RequestError};

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

    /// The stretch of each served board that is missing: after the last seq queued (or, for a
    /// board nothing was queued of, the seq it was registered with: the publisher subscribes
    /// before any board is registered), up to the last seq the feed has released. A board with
    /// nothing missing is not read at all.
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

/// What one refill read back: the messages, oldest first per board; the boards whose journal
/// read failed, with the reason; and whether every gap was read to its end.
#[derive(Default)]
pub(crate) struct Refill {
    pub(crate) messages: Vec<Published>,
    pub(crate) failed: Vec<(Arc<str>, RequestError)>,
    pub(crate) complete: bool,
}

/// Reads the gaps' messages from the journal, at most `budget` in all (blocking: run it off
/// the async workers). The board the budget cuts short, and the boards after it, are read by
/// the next refill from where this one stopped.
pub(crate) fn read(archive: &dyn Archive, gaps: Vec<Gap>, budget: usize) -> Refill {
    let mut refill = Refill {
        complete: true,
        ..Refill::default()
    };
    for gap in gaps {
        let room = budget.saturating_sub(refill.messages.len());
        match read_gap(archive, &gap, room, &mut refill.messages) {
            Ok(true) => {}
            Ok(false) => {
                refill.complete = false;
                break;
            }
            Err(error) => refill.failed.push((gap.board, error)),
        }
    }
    refill
}

/// Reads one gap, at most `room` messages; `true` when it was read to its end.
fn read_gap(
    archive: &dyn Archive,
    gap: &Gap,
    room: usize,
    out: &mut Vec<Published>,
) -> Result<bool, RequestError> {
    let mut after = gap.after;
    let mut left = room;
    while left > 0 {
        let asked = left.min(PAGE);
        let page = archive.events_since(&gap.board, after, asked)?;
        let full = page.len() == asked;
        for message in page {
            if message.seq > gap.until {
                return Ok(true);
            }
            after = message.seq;
            left -= 1;
            out.push(message);
        }
        if !full {
            return Ok(true);
        }
    }
    // The room is used up: the gap is read to its end only if nothing of it is left.
    let rest = archive.events_since(&gap.board, after, 1)?;
    Ok(rest.first().is_none_or(|m| m.seq > gap.until))
}

#[cfg(test)]
#[path = "refill_tests.rs"]
mod tests;
