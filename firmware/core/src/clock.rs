//! The clock: two debounced player buttons, PRESS/KEY with device time, HELLO/CAPS, beats, display commands.

use crate::button::Debouncer;
use crate::emit::{Emit, Outgoing};
use crate::label::Label;
use goban_protocol::{Button, FrameRef, Key, Running, Seq};

/// What a clock is.
#[derive(Debug, Clone, Copy)]
pub struct ClockConfig {
    /// Firmware version, sent in HELLO.
    pub firmware: Label,
    /// Serial number, sent in HELLO.
    pub serial: Label,
    /// Announce and answer `$SYNC` (docs/protocol.md 10.1).
    pub sync: bool,
    /// Milliseconds a button level must hold to count.
    pub settle_ms: u32,
}

/// The host's last `$SHOW`: what the display shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Display {
    /// Black's remaining milliseconds.
    pub black_ms: u32,
    /// White's remaining milliseconds.
    pub white_ms: u32,
    /// Black's remaining overtime periods (or moves left in a Canadian period).
    pub black_periods: u32,
    /// White's remaining overtime periods.
    pub white_periods: u32,
    /// Whose time runs.
    pub running: Running,
}

/// The clock's firmware logic, without its hardware.
#[derive(Debug, Clone)]
pub struct Clock {
    config: ClockConfig,
    tx: Outgoing,
    buttons: [Debouncer; 2],
    display: Option<Display>,
    beeps: u32,
}

impl Clock {
    /// A clock with released buttons.
    pub const fn new(config: ClockConfig) -> Self {
        Self {
            config,
            tx: Outgoing::new(),
            buttons: [Debouncer::new(config.settle_ms); 2],
            display: None,
            beeps: 0,
        }
    }

    /// The configuration.
    pub const fn config(&self) -> &ClockConfig {
        &self.config
    }

    /// The counter the next PRESS or KEY carries.
    pub const fn seq(&self) -> Seq {
        self.tx.seq
    }

    /// Power-up: the counter restarts at 0, then HELLO (and CAPS).
    pub fn power_up(&mut self, now: u32, out: &mut impl Emit) {
        self.restart();
        self.hello(now, out);
    }

    /// The counter restarts at 0.
    pub const fn restart(&mut self) {
        self.tx.seq = Seq(0);
    }

    /// HELLO, then CAPS if the clock has a capability: at power-up and on `$HELLO?`.
    pub fn hello(&mut self, now: u32, out: &mut impl Emit) {
        let c = self.config;
        let hello = FrameRef::ClockHello {
            firmware: c.firmware.as_str(),
            serial: c.serial.as_str(),
        };
        self.tx.send(hello, now, out);
        if c.sync {
            let caps = FrameRef::Caps {
                sync: true,
                zones: false,
            };
            self.tx.send(caps, now, out);
        }
    }

    /// Samples the two player buttons (`true`: pressed), left then right, e.g. every
    /// millisecond; a completed press goes out as PRESS stamped when its contact closed.
    pub fn sample_buttons(&mut self, levels: [bool; 2], now: u32, out: &mut impl Emit) {
        for (i, button) in [Button::L, Button::R].into_iter().enumerate() {
            if let Some(at) = self.buttons[i].sample(levels[i], now) {
                self.press(button, at, now, out);
            }
        }
    }

    /// A PRESS of `button` that happened at device time `at` (uses one counter value).
    pub fn press(&mut self, button: Button, at: u32, now: u32, out: &mut impl Emit) {
        let seq = self.tx.take_seq();
        self.tx.send(
            FrameRef::Press {
                seq,
                ms: at,
                button,
            },
            now,
            out,
        );
    }

    /// A KEY that happened at device time `at` (uses one counter value).
    pub fn key(&mut self, key: Key, at: u32, now: u32, out: &mut impl Emit) {
        let seq = self.tx.take_seq();
        self.tx.send(FrameRef::Key { seq, ms: at, key }, now, out);
    }

    /// A BEAT if nothing was sent for [`crate::BEAT_EVERY_MS`]; call it at least every 100 ms.
    pub fn poll(&mut self, now: u32, out: &mut impl Emit) {
        self.tx.beat_if_quiet(now, out);
    }

    /// A frame from the host, received at device time `received`: `$HELLO?`, `$SHOW`,
    /// `$BEEP` and (with `sync`) `$SYNC`; the others are ignored as the spec says.
    pub fn handle_host(&mut self, frame: FrameRef<'_>, received: u32, out: &mut impl Emit) {
        match frame {
            FrameRef::HelloQuery => self.hello(received, out),
            FrameRef::Show {
                black_ms,
                white_ms,
                black_periods,
                white_periods,
                running,
            } => {
                self.display = Some(Display {
                    black_ms,
                    white_ms,
                    black_periods,
                    white_periods,
                    running,
                });
            }
            FrameRef::Beep { count } => self.beeps = self.beeps.saturating_add(count),
            FrameRef::Sync { token } if self.config.sync => self.tx.sync_echo(token, received, out),
            _ => {}
        }
    }

    /// A FAULT: a fault of the device, for information.
    pub fn fault(&mut self, code: &str, text: &str, now: u32, out: &mut impl Emit) {
        self.tx.send(crate::emit::fault(code, text), now, out);
    }

    /// The host's last display command.
    pub const fn display(&self) -> Option<&Display> {
        self.display.as_ref()
    }

    /// Beeps asked for and not yet sounded.
    pub const fn beeps(&self) -> u32 {
        self.beeps
    }

    /// Takes the beeps to sound now (the firmware's buzzer task).
    pub const fn take_beeps(&mut self) -> u32 {
        let n = self.beeps;
        self.beeps = 0;
        n
    }
}
