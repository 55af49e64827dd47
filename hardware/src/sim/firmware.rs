//! The bridge from the simulator to the device firmware's core (`goban-device`): frames it
//! emits become owned `Frame`s, and `Text` becomes its fixed-size `Label`.

use goban_device::{Emit, Label};
use goban_protocol::{Frame, FrameRef, Text};

/// Collects the frames the firmware core emits.
#[derive(Debug, Default)]
pub(crate) struct Collect(pub(crate) Vec<Frame>);

impl Emit for Collect {
    fn frame(&mut self, frame: FrameRef<'_>) {
        self.0.push(Frame::from(frame));
    }
}

/// Runs `f` with a collector and returns what it collected.
pub(crate) fn collect(f: impl FnOnce(&mut Collect)) -> Vec<Frame> {
    let mut out = Collect::default();
    f(&mut out);
    out.0
}

/// A text field as the firmware stores it: the first [`Label::CAPACITY`] bytes.
pub(crate) fn label(text: &Text) -> Label {
    let s = text.as_str();
    let end = s.len().min(Label::CAPACITY);
    // `Text` is printable ASCII, so any prefix is a valid label.
    Label::new(&s[..end]).unwrap_or(Label::new("").expect("the empty label is valid"))
}

/// A label back as a text field (a label is valid wire text).
pub(crate) fn text(label: &str) -> Text {
    Text::new(label).unwrap_or_default()
}
