//! The bounded outgoing queue of the MQTT publisher: holds messages while the broker is away or the broadcast delay runs, counting anything dropped.

use std::collections::VecDeque;

use crate::hub::Published;

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
    }

    /// Put a message that could not be handed over back at the front.
    pub(crate) fn push_front(&mut self, message: Published) {
        if self.queue.len() >= self.capacity {
            self.count_dropped(1);
            return;
        }
        self.queue.push_front(message);
    }

    /// The oldest message whose broadcast delay has passed at `now_ms`.
    pub(crate) fn pop_ready(&mut self, now_ms: u64, delay_ms: u64) -> Option<Published> {
        let front = self.queue.front()?;
        if front.at_ms.saturating_add(delay_ms) > now_ms {
            return None;
        }
        self.queue.pop_front()
    }

    /// When the oldest message becomes ready, if any waits.
    pub(crate) fn next_ready_ms(&self, delay_ms: u64) -> Option<u64> {
        self.queue.front().map(|m| m.at_ms.saturating_add(delay_ms))
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

    /// Messages waiting.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.queue.len()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::hub::Topic;

    fn build_message(seq: u64, at_ms: u64) -> Published {
        Published {
            board: "t1".into(),
            seq,
            topic: Topic::Moves,
            at_ms,
            payload: Arc::new(serde_json::json!({"seq": seq})),
        }
    }

    #[test]
    fn full_queue_drops_the_oldest_and_counts() {
        let mut outbox = Outbox::new(2);
        for seq in 1..=3 {
            outbox.push(build_message(seq, 0));
        }
        assert_eq!(outbox.dropped(), 1);
        let seqs: Vec<u64> = std::iter::from_fn(|| outbox.pop_ready(0, 0))
            .map(|m| m.seq)
            .collect();
        assert_eq!(seqs, [2, 3]);
    }

    #[test]
    fn delay_holds_messages_back_in_order() {
        let mut outbox = Outbox::new(10);
        outbox.push(build_message(1, 1_000));
        outbox.push(build_message(2, 2_000));
        assert!(outbox.pop_ready(5_999, 5_000).is_none());
        assert_eq!(outbox.next_ready_ms(5_000), Some(6_000));
        assert_eq!(outbox.pop_ready(6_000, 5_000).map(|m| m.seq), Some(1));
        assert!(outbox.pop_ready(6_500, 5_000).is_none());
        assert_eq!(outbox.len(), 1);
    }

    #[test]
    fn a_message_put_back_keeps_its_place() {
        let mut outbox = Outbox::new(3);
        outbox.push(build_message(1, 0));
        outbox.push(build_message(2, 0));
        let first = outbox.pop_ready(0, 0).expect("ready");
        outbox.push_front(first);
        assert_eq!(outbox.pop_ready(0, 0).map(|m| m.seq), Some(1));
    }
}
