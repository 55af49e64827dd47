//! Translation between device links and the referee: link events to referee inputs, referee device commands to wire frames.

use goban_hardware::LinkEvent;
use goban_protocol::{self as wire, DeviceKind, Frame, PointState};
use goban_referee::{
    Button, ClockKey, Device, DeviceCommand, Input, PointChange, Reading, Running,
};

/// The referee's name for a device kind.
pub(crate) fn device_of(kind: DeviceKind) -> Device {
    match kind {
        DeviceKind::Board => Device::Board,
        DeviceKind::Clock => Device::Clock,
    }
}

/// The referee inputs a link event stands for; `expect` are the kinds this link serves.
pub(crate) fn inputs_of(event: &LinkEvent, expect: &[DeviceKind]) -> Vec<Input> {
    match event {
        LinkEvent::Connected { devices, .. } => devices
            .iter()
            .map(|info| Input::DeviceConnected {
                device: device_of(info.kind),
            })
            .collect(),
        LinkEvent::Frame { frame, .. } => frame_input(frame).into_iter().collect(),
        // A press of a backlog: when it happened is unknown (issue 39.7).
        LinkEvent::Backlog {
            frame: Frame::Press { button, .. },
            ..
        } => vec![Input::BacklogPress {
            button: button_of(*button),
        }],
        LinkEvent::Backlog { .. } => Vec::new(),
        LinkEvent::Disconnected { .. } | LinkEvent::Unavailable { .. } => expect
            .iter()
            .map(|&kind| Input::DeviceDisconnected {
                device: device_of(kind),
            })
            .collect(),
        LinkEvent::SequenceGap {
            kind: DeviceKind::Board,
            ..
        } => vec![Input::BoardGap],
        LinkEvent::SequenceGap {
            kind: DeviceKind::Clock,
            ..
        } => vec![Input::ClockGap],
        LinkEvent::WrongDevice { .. } | LinkEvent::Stats(_) => Vec::new(),
    }
}

/// The input of one device frame; HELLO, BEAT and FAULT change no game state (wire-protocol.md).
pub(crate) fn frame_input(frame: &Frame) -> Option<Input> {
    Some(match frame {
        Frame::Snap { points, .. } => Input::BoardSnapshot {
            points: points.iter().map(|&p| reading(p).to_char()).collect(),
        },
        Frame::Diff { changes, .. } => Input::BoardDiff {
            changes: changes
                .iter()
                .map(|c| PointChange {
                    index: c.point.0,
                    state: reading(c.state),
                })
                .collect(),
        },
        Frame::Press { button, .. } => Input::ClockPress {
            button: button_of(*button),
        },
        Frame::Key { key, .. } => Input::ClockKey {
            key: clock_key(*key),
        },
        Frame::Zone { black, white, .. } => Input::BoardZones {
            black: reading(*black),
            white: reading(*white),
        },
        _ => return None,
    })
}

fn button_of(button: wire::Button) -> Button {
    match button {
        wire::Button::L => Button::L,
        wire::Button::R => Button::R,
    }
}

fn reading(state: PointState) -> Reading {
    match state {
        PointState::Empty => Reading::Empty,
        PointState::Black => Reading::Black,
        PointState::White => Reading::White,
        PointState::Unknown => Reading::Unknown,
    }
}

fn clock_key(key: wire::Key) -> ClockKey {
    match key {
        wire::Key::Pause => ClockKey::Pause,
        wire::Key::Resume => ClockKey::Resume,
        wire::Key::ResignL => ClockKey::ResignL,
        wire::Key::ResignR => ClockKey::ResignR,
        wire::Key::DoneL => ClockKey::DoneL,
        wire::Key::DoneR => ClockKey::DoneR,
    }
}

/// The device a command is for and its frame (wire-protocol.md "Host to devices").
pub(crate) fn command_frame(command: &DeviceCommand) -> (DeviceKind, Frame) {
    match command {
        DeviceCommand::SnapRequest => (DeviceKind::Board, Frame::SnapQuery),
        DeviceCommand::Led { points } => (
            DeviceKind::Board,
            Frame::Led {
                points: points.iter().map(|&p| wire::Point(p)).collect(),
            },
        ),
        DeviceCommand::Show {
            black_ms,
            white_ms,
            black_periods,
            white_periods,
            running,
        } => (
            DeviceKind::Clock,
            Frame::Show {
                // The display field is a u32 of ms (49 days); longer times show saturated.
                black_ms: u32::try_from(*black_ms).unwrap_or(u32::MAX),
                white_ms: u32::try_from(*white_ms).unwrap_or(u32::MAX),
                black_periods: *black_periods,
                white_periods: *white_periods,
                running: match running {
                    Running::B => wire::Running::Black,
                    Running::W => wire::Running::White,
                    Running::None => wire::Running::Stopped,
                },
            },
        ),
        DeviceCommand::Beep { count } => (
            DeviceKind::Clock,
            Frame::Beep {
                count: u32::from(*count),
            },
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_become_inputs() {
        let snap = Frame::Snap {
            seq: wire::Seq(0),
            ms: 1,
            points: vec![PointState::Empty, PointState::Black, PointState::Unknown],
        };
        assert_eq!(
            frame_input(&snap),
            Some(Input::BoardSnapshot {
                points: ".B?".into()
            })
        );
        let press = Frame::Press {
            seq: wire::Seq(0),
            ms: 5,
            button: wire::Button::R,
        };
        assert_eq!(
            frame_input(&press),
            Some(Input::ClockPress { button: Button::R })
        );
        assert_eq!(frame_input(&Frame::Beat { ms: 3 }), None);
        let zone = Frame::Zone {
            ms: 7,
            black: PointState::White,
            white: PointState::Unknown,
        };
        assert_eq!(
            frame_input(&zone),
            Some(Input::BoardZones {
                black: Reading::White,
                white: Reading::Unknown,
            })
        );
    }

    #[test]
    fn a_shared_port_disconnect_concerns_both_devices() {
        let event = LinkEvent::Unavailable {
            port: "p".into(),
            error: "gone".into(),
        };
        let inputs = inputs_of(&event, &[DeviceKind::Board, DeviceKind::Clock]);
        assert_eq!(inputs.len(), 2);
    }

    #[test]
    fn commands_go_to_the_right_device() {
        assert_eq!(
            command_frame(&DeviceCommand::SnapRequest).0,
            DeviceKind::Board
        );
        assert_eq!(
            command_frame(&DeviceCommand::Beep { count: 2 }).0,
            DeviceKind::Clock
        );
    }
}
