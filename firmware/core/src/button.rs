//! A debounced push button: contact bounce is ignored, a press is stamped when the contact first closed.

/// Debounces one button sampled as a level (`true`: pressed), e.g. every millisecond.
///
/// The level must hold for `settle_ms` before it counts; a press then reports the
/// device time at which the contact first closed, so `PRESS` carries when the player
/// pressed, not when the bounce ended. A closure shorter than `settle_ms` followed by
/// a settled release is a glitch and is forgotten.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Debouncer {
    settle_ms: u32,
    /// The debounced level.
    pressed: bool,
    /// The raw level last sampled, and since when it has held.
    raw: bool,
    since: u32,
    /// When the contact first closed since the button last settled released.
    first: Option<u32>,
}

impl Debouncer {
    /// A released button whose level must hold `settle_ms` to count.
    pub const fn new(settle_ms: u32) -> Self {
        Self {
            settle_ms,
            pressed: false,
            raw: false,
            since: 0,
            first: None,
        }
    }

    /// Whether the button counts as pressed now.
    pub const fn is_pressed(&self) -> bool {
        self.pressed
    }

    /// Takes one sample at device time `now`; returns the time the contact closed when
    /// this sample completes a press.
    pub fn sample(&mut self, level: bool, now: u32) -> Option<u32> {
        if level != self.raw {
            self.raw = level;
            self.since = now;
            if level && !self.pressed && self.first.is_none() {
                self.first = Some(now);
            }
        }
        if now.wrapping_sub(self.since) < self.settle_ms {
            return None;
        }
        if self.raw == self.pressed {
            if !self.pressed {
                self.first = None;
            }
            return None;
        }
        self.pressed = self.raw;
        let first = self.first.take();
        self.pressed.then(|| first.unwrap_or(self.since))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounces_make_one_press_stamped_at_the_first_contact() {
        let mut b = Debouncer::new(5);
        // Contact closes at 100, bounces until 103, holds.
        let samples = [
            (99, false),
            (100, true),
            (101, false),
            (102, true),
            (103, false),
        ];
        for (t, level) in samples {
            assert_eq!(b.sample(level, t), None);
        }
        let mut pressed = None;
        for t in 104..120 {
            pressed = pressed.or(b.sample(true, t));
        }
        assert_eq!(pressed, Some(100), "stamped when the contact first closed");
        assert!(b.is_pressed());
    }

    #[test]
    fn the_stamp_of_a_glitch_is_forgotten() {
        let mut b = Debouncer::new(5);
        b.sample(true, 10);
        for t in 11..20 {
            assert_eq!(b.sample(false, t), None);
        }
        let mut pressed = None;
        for t in 50..60 {
            pressed = pressed.or(b.sample(true, t));
        }
        assert_eq!(pressed, Some(50));
    }

    #[test]
    fn a_glitch_shorter_than_settle_is_no_press_and_release_is_no_press() {
        let mut b = Debouncer::new(5);
        assert_eq!(b.sample(true, 10), None);
        assert_eq!(b.sample(true, 13), None);
        assert_eq!(b.sample(false, 14), None);
        for t in 15..30 {
            assert_eq!(b.sample(false, t), None);
        }
        for t in 30..40 {
            let got = b.sample(true, t);
            assert_eq!(got.is_some(), t == 35, "at {t}");
        }
        for t in 40..60 {
            assert_eq!(b.sample(false, t), None, "a release sends nothing");
        }
        assert!(!b.is_pressed());
    }
}
