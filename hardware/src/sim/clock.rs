//! The simulated game clock: the firmware core's PRESS and KEY frames with their SEQ counter, and the host's display commands.

use crate::sim::firmware::{collect, label, text};
use goban_device::{Clock, ClockConfig};
use goban_protocol::{Button, Frame, Key, Text};

/// A clock as its firmware core (`goban_device::Clock`) runs it; the simulated buzzer
/// counts the beeps it sounded.
#[derive(Debug, Clone)]
pub struct ClockModel {
    firmware: Clock,
    /// Beeps sounded on `$BEEP`.
    beeps: u64,
}

impl ClockModel {
    /// A clock with this identity.
    pub fn new(firmware: Text, serial: Text) -> Self {
        Self {
            firmware: Clock::new(ClockConfig {
                firmware: label(&firmware),
                serial: label(&serial),
                sync: true,
                settle_ms: 5,
            }),
            beeps: 0,
        }
    }

    /// The HELLO frame.
    pub fn hello(&self) -> Frame {
        let c = self.firmware.config();
        Frame::ClockHello {
            firmware: text(c.firmware.as_str()),
            serial: text(c.serial.as_str()),
        }
    }

    /// The v1.1 capabilities sent after HELLO.
    pub fn caps(&self) -> Frame {
        Frame::Caps {
            sync: self.firmware.config().sync,
            zones: false,
        }
    }

    /// Power-up: HELLO and CAPS.
    pub fn power_up(&mut self, ms: u32) -> Vec<Frame> {
        let firmware = &mut self.firmware;
        collect(|out| firmware.power_up(ms, out))
    }

    /// A button press (a player's button, already debounced by the simulated hand);
    /// uses one sequence number.
    pub fn press(&mut self, button: Button, ms: u32) -> Frame {
        let firmware = &mut self.firmware;
        let mut frames = collect(|out| firmware.press(button, ms, ms, out));
        frames.swap_remove(0)
    }

    /// Another key; uses one sequence number.
    pub fn key(&mut self, key: Key, ms: u32) -> Frame {
        let firmware = &mut self.firmware;
        let mut frames = collect(|out| firmware.key(key, ms, ms, out));
        frames.swap_remove(0)
    }

    /// Power-up: the counter restarts at 0.
    pub fn reboot(&mut self) {
        self.firmware.restart();
    }

    /// Takes a host frame received at `ms`; returns the clock's answer (HELLO and CAPS
    /// to `$HELLO?`, the echo of `$SYNC`). `$SHOW` and `$BEEP` change the display and
    /// sound the buzzer; others are ignored as the spec says.
    pub fn answer(&mut self, frame: &Frame, ms: u32) -> Vec<Frame> {
        let firmware = &mut self.firmware;
        let replies = collect(|out| firmware.handle_host(frame.as_view(), ms, out));
        self.beeps += u64::from(self.firmware.take_beeps());
        replies
    }

    /// Takes a host frame meant for a clock (`$SHOW`, `$BEEP`); others are ignored as the spec says.
    pub fn handle_host(&mut self, frame: &Frame) {
        if matches!(frame, Frame::Show { .. } | Frame::Beep { .. }) {
            self.answer(frame, 0);
        }
    }

    /// The last display command.
    pub fn display(&self) -> Option<Frame> {
        self.firmware.display().map(|d| Frame::Show {
            black_ms: d.black_ms,
            white_ms: d.white_ms,
            black_periods: d.black_periods,
            white_periods: d.white_periods,
            running: d.running,
        })
    }

    /// Beeps sounded so far.
    pub fn beeps(&self) -> u64 {
        self.beeps
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use goban_protocol::Running;
    use goban_protocol::Seq;

    #[test]
    fn presses_and_keys_share_one_counter() {
        let mut clock = ClockModel::new(Text::new("sim").unwrap(), Text::new("C1").unwrap());
        assert_eq!(
            clock.press(Button::L, 5),
            Frame::Press {
                seq: Seq(0),
                ms: 5,
                button: Button::L
            }
        );
        assert_eq!(
            clock.key(Key::Pause, 6),
            Frame::Key {
                seq: Seq(1),
                ms: 6,
                key: Key::Pause
            }
        );
        clock.handle_host(&Frame::Beep { count: 3 });
        let show = Frame::Show {
            black_ms: 1,
            white_ms: 2,
            black_periods: 0,
            white_periods: 0,
            running: Running::Black,
        };
        clock.handle_host(&show);
        assert_eq!(clock.beeps(), 3);
        assert_eq!(clock.display(), Some(show));
    }
}
