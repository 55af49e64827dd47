//! The simulated game clock: PRESS and KEY frames with their SEQ counter, and the host's display commands.

use goban_protocol::{Button, Frame, Key, Seq, Text};

/// A clock's state as its firmware sees it.
#[derive(Debug, Clone)]
pub struct ClockModel {
    firmware: Text,
    serial: Text,
    seq: Seq,
    /// The last `$SHOW` from the host, if any.
    display: Option<Frame>,
    /// Beeps sounded on `$BEEP`.
    beeps: u64,
}

impl ClockModel {
    /// A clock with this identity.
    pub fn new(firmware: Text, serial: Text) -> Self {
        Self {
            firmware,
            serial,
            seq: Seq(0),
            display: None,
            beeps: 0,
        }
    }

    /// The HELLO frame.
    pub fn hello(&self) -> Frame {
        Frame::ClockHello {
            firmware: self.firmware.clone(),
            serial: self.serial.clone(),
        }
    }

    /// A button press; uses one sequence number.
    pub fn press(&mut self, button: Button, ms: u32) -> Frame {
        let frame = Frame::Press {
            seq: self.seq,
            ms,
            button,
        };
        self.seq = self.seq.next();
        frame
    }

    /// Another key; uses one sequence number.
    pub fn key(&mut self, key: Key, ms: u32) -> Frame {
        let frame = Frame::Key {
            seq: self.seq,
            ms,
            key,
        };
        self.seq = self.seq.next();
        frame
    }

    /// Power-up: the counter restarts at 0.
    pub fn reboot(&mut self) {
        self.seq = Seq(0);
    }

    /// Takes a host frame meant for a clock (`$SHOW`, `$BEEP`); others are ignored as the spec says.
    pub fn handle_host(&mut self, frame: &Frame) {
        match frame {
            Frame::Show { .. } => self.display = Some(frame.clone()),
            Frame::Beep { count } => self.beeps += u64::from(*count),
            _ => {}
        }
    }

    /// The last display command.
    pub fn display(&self) -> Option<&Frame> {
        self.display.as_ref()
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
        assert_eq!(clock.display(), Some(&show));
    }
}
