//! One channel per followed board, so a stream that follows one board wakes only for that board's messages.
//!
//! The hall-wide bus wakes every subscriber for every message of the hall: a
//! per-board SSE stream in a hall of 500 boards would wake about 500 times for
//! each message it forwards. The hub and the broadcast delay each keep one
//! [`BoardFollowers`] beside their bus and send every message to both. A
//! board's channel is made by its first follower, so a board nobody follows
//! costs one map look-up per message and no memory.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use tokio::sync::broadcast;

use crate::message::Published;

/// Messages a follower of one board may fall behind before it re-reads the journal. A board
/// publishes a few messages a second; this is minutes of a board's messages.
const CAPACITY: usize = 128;

/// The channels of the boards someone follows.
#[derive(Default)]
pub struct BoardFollowers {
    channels: RwLock<HashMap<Arc<str>, broadcast::Sender<Published>>>,
}

impl BoardFollowers {
    /// Every message of `board` sent from now on.
    pub fn subscribe(&self, board: &Arc<str>) -> broadcast::Receiver<Published> {
        if let Some(channel) = self.read().get(board) {
            return channel.subscribe();
        }
        self.write()
            .entry(board.clone())
            .or_insert_with(|| broadcast::channel(CAPACITY).0)
            .subscribe()
    }

    /// Hand `message` to the followers of its board, if there are any.
    pub fn send(&self, message: &Published) {
        if let Some(channel) = self.read().get(&message.board)
            && channel.receiver_count() > 0
        {
            // A follower that left between the count and the send is not an error.
            let _ = channel.send(message.clone());
        }
    }

    /// How many boards have a channel (tests).
    #[cfg(test)]
    pub(crate) fn channels(&self) -> usize {
        self.read().len()
    }

    fn read(
        &self,
    ) -> std::sync::RwLockReadGuard<'_, HashMap<Arc<str>, broadcast::Sender<Published>>> {
        // A poisoned lock only means a panic elsewhere mid-insert; the map is still usable.
        self.channels.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write(
        &self,
    ) -> std::sync::RwLockWriteGuard<'_, HashMap<Arc<str>, broadcast::Sender<Published>>> {
        self.channels.write().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::{Payload, Topic};
    use tokio::sync::broadcast::error::TryRecvError;

    fn message(board: &str, seq: u64) -> Published {
        Published {
            board: Arc::from(board),
            seq,
            topic: Topic::Clock,
            at_ms: 0,
            payload: Payload::from_text(format!("{{\"seq\":{seq}}}")),
            view: None,
        }
    }

    #[test]
    fn a_follower_gets_its_board_only_in_order() {
        let followers = BoardFollowers::default();
        let mut a = followers.subscribe(&Arc::from("a"));
        let mut b = followers.subscribe(&Arc::from("b"));
        for (board, seq) in [("a", 1), ("b", 1), ("a", 2), ("c", 1), ("a", 3)] {
            followers.send(&message(board, seq));
        }
        let seqs: Vec<u64> = std::iter::from_fn(|| a.try_recv().ok().map(|m| m.seq)).collect();
        assert_eq!(seqs, [1, 2, 3]);
        assert!(a.try_recv().unwrap_err() == TryRecvError::Empty);
        assert_eq!(b.try_recv().unwrap().board.as_ref(), "b");
        assert!(b.try_recv().is_err());
    }

    #[test]
    fn a_board_nobody_follows_gets_no_channel() {
        let followers = BoardFollowers::default();
        followers.send(&message("a", 1));
        assert_eq!(followers.channels(), 0);
        let first = followers.subscribe(&Arc::from("a"));
        let second = followers.subscribe(&Arc::from("a"));
        assert_eq!(
            followers.channels(),
            1,
            "followers of one board share its channel"
        );
        drop((first, second));
        followers.send(&message("a", 2));
    }

    #[test]
    fn a_follower_that_falls_behind_is_told_how_far() {
        let followers = BoardFollowers::default();
        let mut slow = followers.subscribe(&Arc::from("a"));
        let sent = u64::try_from(CAPACITY).unwrap() + 5;
        for seq in 1..=sent {
            followers.send(&message("a", seq));
        }
        assert_eq!(slow.try_recv().unwrap_err(), TryRecvError::Lagged(5));
        assert_eq!(slow.try_recv().unwrap().seq, 6);
    }
}
