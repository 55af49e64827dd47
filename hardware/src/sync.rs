//! v1.1 SYNC (docs/protocol.md): maps a device's `ms` onto the host's time line from its echoes of host `$SYNC` frames, so board and clock readings are ordered by when they happened.

use goban_protocol::Frame;
use std::collections::VecDeque;

/// Echoes kept for the estimate, and how old they may be (device crystals drift ~0.1 ms/s).
const SAMPLES: usize = 8;
const SAMPLE_AGE_MS: u64 = 60_000;
/// An echo slower than this says nothing useful about the offset.
const MAX_ROUND_TRIP_MS: u64 = 1_000;
/// A mapped time this much before the frame was read is not trusted (a rebooted or
/// misbehaving device): the read time is used instead.
const MAX_LAG_MS: u64 = 2_000;
/// Host `$SYNC` frames awaiting their echo.
const PENDING: usize = 8;

/// One echo: `offset` = host send time minus the device's ms at receipt.
#[derive(Debug, Clone, Copy)]
struct Sample {
    read_ms: u64,
    offset: i64,
}

/// The map of one device's clock (one device per port: on a shared port the echoes of the
/// two devices cannot be told apart, and the two share one lag anyway).
///
/// The host stamps a `$SYNC` with the time it writes it; the device echoes the `ms` at which
/// it received it. Host-to-device writes are not where USB adapters, hubs and a loaded host
/// delay data (that is the reading side), so the send time is the estimate of when the
/// device read its clock: each echo gives a lower bound of the offset, and the largest
/// recent one is used. Its error is the downlink delay, a few ms, whatever the uplink lag.
#[derive(Debug, Clone, Default)]
pub struct ClockMap {
    next_token: u32,
    pending: VecDeque<(u32, u64)>,
    samples: VecDeque<Sample>,
    /// The last device ms seen, unwrapped to 64 bits.
    last_device: Option<u64>,
}

impl ClockMap {
    /// An empty map: nothing is mapped until an echo comes back.
    pub fn new() -> Self {
        Self::default()
    }

    /// The device rebooted (a new HELLO): its `ms` restarted, forget everything.
    pub fn reset(&mut self) {
        *self = Self {
            next_token: self.next_token,
            ..Self::default()
        };
    }

    /// The `$SYNC` to write now (`sent_ms`: host time of the write).
    pub fn handle_send(&mut self, sent_ms: u64) -> Frame {
        let token = self.next_token;
        self.next_token = self.next_token.wrapping_add(1);
        if self.pending.len() == PENDING {
            self.pending.pop_front();
        }
        self.pending.push_back((token, sent_ms));
        Frame::Sync { token }
    }

    /// A device's echo read at `read_ms`; `false` when it answers no pending `$SYNC` or came
    /// back too slowly to be used.
    pub fn handle_echo(&mut self, token: u32, device_ms: u32, read_ms: u64) -> bool {
        let Some(at) = self.pending.iter().position(|&(t, _)| t == token) else {
            return false;
        };
        let (_, sent_ms) = self.pending[at];
        self.pending.drain(..=at);
        if read_ms.saturating_sub(sent_ms) > MAX_ROUND_TRIP_MS {
            return false;
        }
        let device = self.unwrap(device_ms);
        let offset = i64::try_from(sent_ms).unwrap_or(i64::MAX) - device;
        if self.samples.len() == SAMPLES {
            self.samples.pop_front();
        }
        self.samples.push_back(Sample { read_ms, offset });
        true
    }

    /// The host time at which a device frame with `device_ms`, read at `read_ms`, happened;
    /// `None` until an echo came back (then order by the read time).
    pub fn map(&mut self, device_ms: u32, read_ms: u64) -> Option<u64> {
        self.samples
            .retain(|s| read_ms.saturating_sub(s.read_ms) <= SAMPLE_AGE_MS);
        let offset = self.samples.iter().map(|s| s.offset).max()?;
        let device = self.unwrap(device_ms);
        let at = u64::try_from(device.saturating_add(offset)).ok()?;
        // It cannot have happened after it was read; far before is not believed.
        (at + MAX_LAG_MS >= read_ms).then_some(at.min(read_ms))
    }

    /// Extends a wrapping u32 `ms` to 64 bits next to the last one seen.
    fn unwrap(&mut self, ms: u32) -> i64 {
        let ext = match self.last_device {
            None => u64::from(ms),
            Some(last) => {
                // Truncation keeps the low 32 bits: the signed step from the last value.
                let step = i64::from(ms.wrapping_sub(last as u32) as i32);
                u64::try_from(i64::try_from(last).unwrap_or(i64::MAX) + step).unwrap_or(0)
            }
        };
        self.last_device = Some(self.last_device.map_or(ext, |l| l.max(ext)));
        i64::try_from(ext).unwrap_or(i64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A device whose clock started at host time `boot` and runs `ppm` fast.
    fn device_ms(host_ms: u64, boot: u64, ppm: f64) -> u32 {
        let ms = (host_ms - boot) as f64 * (1.0 + ppm / 1e6);
        (ms as u64 % (1 << 32)) as u32
    }

    fn token(frame: &Frame) -> u32 {
        match frame {
            Frame::Sync { token } => *token,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn inbound_lag_does_not_shift_the_mapped_time() {
        // Downlink 2 ms, uplink 250 ms (a buffering USB adapter).
        let (boot, down, up) = (5_000, 2, 250);
        let mut map = ClockMap::new();
        for k in 0..5u64 {
            let sent = 100_000 + k * 5_000;
            let t = token(&map.handle_send(sent));
            let dev = device_ms(sent + down, boot, 0.0);
            assert!(map.handle_echo(t, dev, sent + down + up));
        }
        // A stone lands at 130 000 on the device; its DIFF is read 250 ms later.
        let dev = device_ms(130_000, boot, 0.0);
        let at = map.map(dev, 130_000 + up).unwrap();
        assert!((130_000 - 3..=130_000).contains(&at), "{at}");
    }

    #[test]
    fn drift_and_wrap_are_followed() {
        // 100 ppm fast, booted so that the u32 counter wraps during the test.
        let boot = 1_000_000;
        let wrap_at = boot + (1u64 << 32);
        let mut map = ClockMap::new();
        let mut mapped = 0;
        for k in 0..40u64 {
            let sent = wrap_at - 60_000 + k * 5_000;
            let t = token(&map.handle_send(sent));
            let dev = device_ms(sent + 1, boot, 100.0);
            map.handle_echo(t, dev, sent + 30);
            let happened = sent + 2_500;
            let at = map.map(device_ms(happened, boot, 100.0), happened + 200);
            if let Some(at) = at {
                assert!(at.abs_diff(happened) <= 3, "k {k}: {at} vs {happened}");
                mapped += 1;
            }
        }
        assert_eq!(mapped, 40);
    }

    #[test]
    fn nothing_is_mapped_without_a_fresh_echo_and_stale_echoes_are_refused() {
        let mut map = ClockMap::new();
        assert_eq!(map.map(1_000, 50_000), None);
        let t = token(&map.handle_send(10_000));
        assert!(!map.handle_echo(t + 1, 5, 10_010), "unknown token");
        assert!(!map.handle_echo(t, 5, 12_000), "round trip over a second");
        let t = token(&map.handle_send(20_000));
        assert!(map.handle_echo(t, 100, 20_010));
        assert_eq!(map.map(150, 20_060), Some(20_050));
        // Sixty seconds later the sample is too old to trust.
        assert_eq!(map.map(60_150, 80_060), None);
        map.reset();
        assert_eq!(map.map(150, 20_060), None);
    }

    #[test]
    fn a_mapped_time_is_never_after_the_read_nor_far_before_it() {
        let mut map = ClockMap::new();
        let t = token(&map.handle_send(1_000));
        assert!(map.handle_echo(t, 0, 1_005));
        assert_eq!(map.map(500, 1_200), Some(1_200), "clamped to the read time");
        assert_eq!(
            map.map(10, 9_000),
            None,
            "8 s before its read: not believed"
        );
    }
}
