//! The device side without allocation: `decode_ref` on a fixed `LineBuf` and `FrameRef`
//! encoding into a fixed buffer agree with the daemon's `decode` and `Frame::encode`.

mod common;

use bytes::BytesMut;
use goban_protocol::{Decoder, Frame, FrameRef, MAX_FRAME_LEN, Rejection, Sink, States};

const DOC: &str = include_str!("../../docs/protocol.md");

/// A fixed-capacity sink, as on a microcontroller.
struct Fixed {
    data: [u8; MAX_FRAME_LEN],
    len: usize,
}

impl Sink for Fixed {
    fn put_slice(&mut self, bytes: &[u8]) {
        self.data[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
    }
}

/// A stream with noise, an unknown KIND, a bad CRC, an interrupted frame and the
/// documented vectors, fed in `chunk`-byte pieces.
fn stream() -> Vec<u8> {
    let mut bytes = b"boot banner\r\n$XYZ,1*0000\n$PRESS,0,5790,L*0000\n$BEAT,1$".to_vec();
    for line in DOC.lines().filter(|l| l.starts_with('$')) {
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
    }
    bytes
}

type Outcome = Result<Frame, Rejection>;

fn with_bytes_mut(bytes: &[u8], chunk: usize) -> Vec<Outcome> {
    let (mut decoder, mut buf, mut out) = (Decoder::new(), BytesMut::new(), Vec::new());
    for piece in bytes.chunks(chunk) {
        buf.extend_from_slice(piece);
        loop {
            match decoder.decode(&mut buf) {
                Ok(None) => break,
                Ok(Some(frame)) => out.push(Ok(frame)),
                Err(rejection) => out.push(Err(rejection)),
            }
        }
    }
    out
}

fn with_line_buf(bytes: &[u8], chunk: usize) -> Vec<Outcome> {
    common::feed_fixed(&mut Decoder::new(), bytes, chunk)
}

#[test]
fn decode_ref_on_a_fixed_buffer_finds_what_decode_finds() {
    let bytes = stream();
    let reference = with_bytes_mut(&bytes, bytes.len());
    assert!(reference.iter().filter(|o| o.is_ok()).count() >= 15);
    assert!(reference.iter().filter(|o| o.is_err()).count() >= 2);
    for chunk in [1, 7, 64] {
        assert_eq!(with_line_buf(&bytes, chunk), reference, "chunk {chunk}");
    }
}

#[test]
fn a_borrowed_frame_encodes_into_a_fixed_buffer_as_the_owned_one_does() {
    let bytes = stream();
    let frames: Vec<Frame> = with_bytes_mut(&bytes, bytes.len())
        .into_iter()
        .filter_map(Result::ok)
        .collect();
    assert!(frames.len() >= 15);
    for frame in frames {
        let mut fixed = Fixed {
            data: [0; MAX_FRAME_LEN],
            len: 0,
        };
        frame.as_view().encode(&mut fixed);
        assert_eq!(&fixed.data[..fixed.len], frame.to_bytes().as_slice());
        assert_eq!(frame.as_view().encoded_len(), fixed.len);
    }
}

#[test]
fn a_snap_from_wire_characters_encodes_unchanged() {
    let wire = [b'.'; 81];
    let snap = FrameRef::Snap {
        seq: goban_protocol::Seq(3),
        ms: 40,
        points: States::Wire(&wire),
    };
    let owned = Frame::from(snap);
    let mut fixed = Fixed {
        data: [0; MAX_FRAME_LEN],
        len: 0,
    };
    snap.encode(&mut fixed);
    assert_eq!(&fixed.data[..fixed.len], owned.to_bytes().as_slice());
}
