//! The bounded outgoing queue of the MQTT publisher: holds messages while the broker is away, counting anything dropped.

use std::collections::VecDeque;

use crate::message::Published;

/// Messages a refill reads from the journal at a time.
const REFILL_SLICE: usize = 1_000;

/// Messages waiting to go to the broker, oldest first.
pub(crate) struct Outbox {
    queue: VecDeque<Published>,
    capacity: usize,
    dropped: u64,
}

impl Outbox {
    /// A queue holding at most `capacity` messages (at least one).
    pub(crate) fn new(capacity: usize) -> Self {
        Self {
            queue: VecDeque::new(),
            capacity: capacity.max(1),
            dropped: 0,
        }
    }

    /// Add a message; when full, the oldest is dropped and counted.
    pub(crate) fn push(&mut self, message: Published) {
        if self.queue.len() >= self.capacity {
            self.queue.pop_front();
            self.count_dropped(1);
        }
        self.queue.push_back(message);
        self.report_depth();
    }

    /// Put a message that could not be handed over back at the front.
    pub(crate) fn push_front(&mut self, message: Published) {
        if self.queue.len() >= self.capacity {
            self.count_dropped(1);
            return;
        }
        self.queue.push_front(message);
        self.report_depth();
    }

    /// The oldest message.
    pub(crate) fn pop(&mut self) -> Option<Published> {
        let message = self.queue.pop_front();
        self.report_depth();
        message
    }

    /// Whether a message of `board` waits.
    pub(crate) fn holds(&self, board: &str) -> bool {
        self.queue.iter().any(|m| &*m.board == board)
    }

    /// Nothing waits.
    pub(crate) fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// How many more messages fit.
    pub(crate) fn room(&self) -> usize {
        self.capacity.saturating_sub(self.queue.len())
    }

    /// Nearly drained: time for the next slice of a refill from the journal.
    pub(crate) fn has_room_for_refill(&self) -> bool {
        self.queue.len() < REFILL_SLICE.min(self.capacity / 2 + 1)
    }

    /// How many messages the next refill may read: a slice, so a long refill does not hold
    /// thousands of messages in memory at once.
    pub(crate) fn refill_budget(&self) -> usize {
        self.room().min(REFILL_SLICE)
    }

    /// Messages lost because the queue was full, or the bus outran the publisher.
    pub(crate) fn count_dropped(&mut self, n: u64) {
        self.dropped += n;
        metrics::counter!("goban_mqtt_dropped_total").increment(n);
    }

    /// Total dropped so far.
    pub(crate) fn dropped(&self) -> u64 {
        self.dropped
    }

    fn report_depth(&self) {
        metrics::gauge!("goban_mqtt_outbox_depth").set(self.queue.len() as f64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::{Payload, Topic};

    fn build_message(seq: u64) -> Published {
        Published {
            board: "t1".into(),
            seq,
            topic: Topic::Moves,
            at_ms: 0,
            payload: Payload::json(&serde_json::json!({"seq": seq})).unwrap(),
            view: None,
        }
    }

    #[test]
    fn full_queue_drops_the_oldest_and_counts() {
        let mut outbox = Outbox::new(2);
        for seq in 1..=3 {
            outbox.push(build_message(seq));
        }
        assert_eq!(outbox.dropped(), 1);
        let seqs: Vec<u64> = std::iter::from_fn(|| outbox.pop()).map(|m| m.seq).collect();
        assert_eq!(seqs, [2, 3]);
    }

    #[test]
    fn a_message_put_back_keeps_its_place() {
        let mut outbox = Outbox::new(3);
        outbox.push(build_message(1));
        outbox.push(build_message(2));
        assert!(outbox.holds("t1") && !outbox.holds("t2"));
        let first = outbox.pop().expect("queued");
        outbox.push_front(first);
        assert_eq!(outbox.pop().map(|m| m.seq), Some(1));
    }
}
