//! Validation of one complete line, `$` to LF, into a typed frame (wire protocol v1).

use crate::crc::{crc16, from_hex};
use crate::error::RejectReason;
use crate::types::{BoardSize, Button, Change, Key, Point, PointState, Running, Seq, is_text_byte};
use crate::view::{Changes, FrameRef as Frame, Indices, States};

/// What a well-formed line holds.
#[derive(Debug)]
pub(crate) enum Parsed<'a> {
    /// A frame of protocol v1, borrowing the line.
    Frame(Frame<'a>),
    /// A valid frame of a KIND protocol v1 does not define: skipped, not an error.
    Unknown,
}

type Fields<'a> = Option<&'a [u8]>;

/// Parses `line`, which starts with `$` and ends with LF and holds no other `$` or LF.
///
/// `size` is the board size if known; otherwise SNAP lengths must be 81, 169 or 361
/// and indices must be below 361 (the largest board).
pub(crate) fn parse_line(line: &[u8], size: Option<BoardSize>) -> Result<Parsed<'_>, RejectReason> {
    let body = check_envelope(line)?;
    let (kind, fields) = match body.iter().position(|&b| b == b',') {
        Some(at) => (&body[..at], Some(&body[at + 1..])),
        None => (body, None),
    };
    check_kind(kind)?;
    let frame = match kind {
        b"HELLO" => parse_hello(fields)?,
        b"SNAP" => parse_snap(fields, size)?,
        b"DIFF" => parse_diff(fields, size)?,
        b"BEAT" => {
            let [ms] = exact(fields)?;
            Frame::Beat { ms: number(ms)? }
        }
        b"FAULT" => {
            let [code, text] = exact(fields)?;
            Frame::Fault {
                code: text_of(code),
                text: text_of(text),
            }
        }
        b"PRESS" => parse_press(fields)?,
        b"CAPS" => parse_caps(fields)?,
        b"ZONE" => parse_zone(fields)?,
        b"SYNC" => parse_sync(fields)?,
        b"KEY" => parse_key(fields)?,
        b"HELLO?" => {
            let [] = exact(fields)?;
            Frame::HelloQuery
        }
        b"SNAP?" => {
            let [] = exact(fields)?;
            Frame::SnapQuery
        }
        b"LED" => parse_led(fields, size)?,
        b"SHOW" => parse_show(fields)?,
        b"BEEP" => {
            let [count] = exact(fields)?;
            Frame::Beep {
                count: number(count)?,
            }
        }
        _ => return Ok(Parsed::Unknown),
    };
    Ok(Parsed::Frame(frame))
}

/// Checks `$<body>*<CRC>[CR]LF` and returns the body (spec "Framing").
fn check_envelope(line: &[u8]) -> Result<&[u8], RejectReason> {
    let inner = line
        .strip_prefix(b"$")
        .and_then(|l| l.strip_suffix(b"\n"))
        .ok_or(RejectReason::BadFraming)?;
    // "a CR before the LF is allowed and ignored": exactly one.
    let inner = inner.strip_suffix(b"\r").unwrap_or(inner);
    let star = inner.len().checked_sub(5).ok_or(RejectReason::BadFraming)?;
    let (body, tail) = inner.split_at(star);
    let crc = match tail.split_first() {
        Some((b'*', digits)) => from_hex(digits).ok_or(RejectReason::BadFraming)?,
        _ => return Err(RejectReason::BadFraming),
    };
    if crc16(body) != crc {
        return Err(RejectReason::BadCrc);
    }
    // Fields never contain `$`, `*`, CR or LF and the line is printable ASCII.
    // A fold without early exit vectorises; bodies are short, errors rare.
    let printable = body
        .iter()
        .fold(true, |ok, &b| ok & (b == b',' || is_text_byte(b)));
    if !printable {
        return Err(RejectReason::BadByte);
    }
    Ok(body)
}

/// KIND is upper-case letters; the host queries add one `?` (`HELLO?`, `SNAP?`).
fn check_kind(kind: &[u8]) -> Result<(), RejectReason> {
    let letters = kind.strip_suffix(b"?").unwrap_or(kind);
    if !letters.is_empty() && letters.iter().all(u8::is_ascii_uppercase) {
        Ok(())
    } else {
        Err(RejectReason::BadKind)
    }
}

/// Splits the fields after KIND into exactly `N` (no fields at all when `N` is 0).
fn exact<const N: usize>(fields: Fields<'_>) -> Result<[&[u8]; N], RejectReason> {
    let mut out = [&[][..]; N];
    let Some(fields) = fields else {
        return if N == 0 {
            Ok(out)
        } else {
            Err(RejectReason::FieldCount)
        };
    };
    let mut parts = fields.split(|&b| b == b',');
    for slot in &mut out {
        *slot = parts.next().ok_or(RejectReason::FieldCount)?;
    }
    match parts.next() {
        None if N > 0 => Ok(out),
        _ => Err(RejectReason::FieldCount),
    }
}

/// A decimal u32: digits only, at least one, no sign, at most 4294967295.
pub(crate) fn number(field: &[u8]) -> Result<u32, RejectReason> {
    if field.is_empty() {
        return Err(RejectReason::BadNumber);
    }
    field.iter().try_fold(0u32, |acc, &d| {
        if !d.is_ascii_digit() {
            return Err(RejectReason::BadNumber);
        }
        acc.checked_mul(10)
            .and_then(|acc| acc.checked_add(u32::from(d - b'0')))
            .ok_or(RejectReason::BadNumber)
    })
}

/// An index `< size*size`, or `< 361` while the size is unknown (spec "Coordinates").
fn index(field: &[u8], size: Option<BoardSize>) -> Result<Point, RejectReason> {
    let limit = u32::from(size.unwrap_or(BoardSize::LARGEST).points());
    let idx = number(field)?;
    if idx >= limit {
        return Err(RejectReason::BadIndex);
    }
    // `idx < limit <= 361`, so it fits in u16.
    u16::try_from(idx)
        .map(Point)
        .map_err(|_| RejectReason::BadIndex)
}

fn parse_hello(fields: Fields<'_>) -> Result<Frame<'_>, RejectReason> {
    let device = fields.and_then(|f| f.split(|&b| b == b',').next());
    match device {
        Some(b"BOARD") => {
            let [_, version, size, firmware, serial] = exact(fields)?;
            check_version(version)?;
            let size = BoardSize::from_lines(number(size)?).ok_or(RejectReason::BadValue)?;
            let (firmware, serial) = (text_of(firmware), text_of(serial));
            Ok(Frame::BoardHello {
                size,
                firmware,
                serial,
            })
        }
        Some(b"CLOCK") => {
            let [_, version, firmware, serial] = exact(fields)?;
            check_version(version)?;
            let (firmware, serial) = (text_of(firmware), text_of(serial));
            Ok(Frame::ClockHello { firmware, serial })
        }
        Some(_) => Err(RejectReason::BadValue),
        None => Err(RejectReason::FieldCount),
    }
}

/// v1.1 `$CAPS[,<cap>[;<cap>]*]`: capability names are upper-case letters, digits and `_`;
/// names this version does not know are skipped (forward compatibility).
fn parse_caps(fields: Fields<'_>) -> Result<Frame<'_>, RejectReason> {
    let Some(list) = fields else {
        return Ok(Frame::Caps {
            sync: false,
            zones: false,
        });
    };
    let [list] = exact(Some(list))?;
    let (mut sync, mut zones) = (false, false);
    for cap in list.split(|&b| b == b';') {
        let valid = !cap.is_empty()
            && cap
                .iter()
                .all(|&b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_');
        if !valid {
            return Err(RejectReason::BadValue);
        }
        sync |= cap == b"SYNC";
        zones |= cap == b"ZONE";
    }
    Ok(Frame::Caps { sync, zones })
}

/// v1.1 `$ZONE,<ms>,<black><white>`: exactly two point-state characters (docs/protocol.md 10.2).
fn parse_zone(fields: Fields<'_>) -> Result<Frame<'_>, RejectReason> {
    let [ms, zones] = exact(fields)?;
    let ms = number(ms)?;
    let [black, white] = zones else {
        return Err(RejectReason::BadState);
    };
    let state = |b: &u8| PointState::from_byte(*b).ok_or(RejectReason::BadState);
    Ok(Frame::Zone {
        ms,
        black: state(black)?,
        white: state(white)?,
    })
}

/// v1.1 `$SYNC,<token>` (host) or `$SYNC,<token>,<ms>` (a device's echo).
fn parse_sync(fields: Fields<'_>) -> Result<Frame<'_>, RejectReason> {
    let count = fields.map_or(0, |f| f.split(|&b| b == b',').count());
    if count == 2 {
        let [token, ms] = exact(fields)?;
        return Ok(Frame::SyncEcho {
            token: number(token)?,
            ms: number(ms)?,
        });
    }
    let [token] = exact(fields)?;
    Ok(Frame::Sync {
        token: number(token)?,
    })
}

fn check_version(field: &[u8]) -> Result<(), RejectReason> {
    match number(field)? {
        1 => Ok(()),
        _ => Err(RejectReason::UnsupportedVersion),
    }
}

fn parse_snap(fields: Fields<'_>, size: Option<BoardSize>) -> Result<Frame<'_>, RejectReason> {
    let [seq, ms, points] = exact(fields)?;
    let (seq, ms) = (Seq(number(seq)?), number(ms)?);
    let len_ok = match size {
        Some(size) => points.len() == usize::from(size.points()),
        None => BoardSize::from_points(points.len()).is_some(),
    };
    if !len_ok {
        return Err(RejectReason::BadLength);
    }
    // Validate first (vectorisable), then convert without a fallible iterator.
    let valid = points
        .iter()
        .fold(true, |ok, &b| ok & matches!(b, b'.' | b'B' | b'W' | b'?'));
    if !valid {
        return Err(RejectReason::BadState);
    }
    let points = States::Wire(points);
    Ok(Frame::Snap { seq, ms, points })
}

/// A text field the envelope check has found printable ASCII.
fn text_of(field: &[u8]) -> &str {
    core::str::from_utf8(field).unwrap_or_default()
}

fn parse_diff(fields: Fields<'_>, size: Option<BoardSize>) -> Result<Frame<'_>, RejectReason> {
    let [seq, ms, list] = exact(fields)?;
    let (seq, ms) = (Seq(number(seq)?), number(ms)?);
    for item in list.split(|&b| b == b';') {
        change(item, size)?;
    }
    let changes = Changes::Wire(list);
    Ok(Frame::Diff { seq, ms, changes })
}

/// One `<idx><state>` item: decimal digits, then exactly one state character.
fn change(item: &[u8], size: Option<BoardSize>) -> Result<Change, RejectReason> {
    let digits = item.iter().take_while(|b| b.is_ascii_digit()).count();
    let (idx, state) = item.split_at(digits);
    let point = index(idx, size)?;
    let state = match state {
        [c] => PointState::from_byte(*c).ok_or(RejectReason::BadState)?,
        _ => return Err(RejectReason::BadState),
    };
    Ok(Change { point, state })
}

fn parse_press(fields: Fields<'_>) -> Result<Frame<'_>, RejectReason> {
    let [seq, ms, button] = exact(fields)?;
    let (seq, ms) = (Seq(number(seq)?), number(ms)?);
    let button = Button::parse(button).ok_or(RejectReason::BadValue)?;
    Ok(Frame::Press { seq, ms, button })
}

fn parse_key(fields: Fields<'_>) -> Result<Frame<'_>, RejectReason> {
    let [seq, ms, key] = exact(fields)?;
    let (seq, ms) = (Seq(number(seq)?), number(ms)?);
    let key = Key::parse(key).ok_or(RejectReason::BadValue)?;
    Ok(Frame::Key { seq, ms, key })
}

fn parse_led(fields: Fields<'_>, size: Option<BoardSize>) -> Result<Frame<'_>, RejectReason> {
    // `$LED` alone clears the LEDs; `$LED,` (one empty field) is malformed.
    let points = match fields {
        None => Indices::Typed(&[]),
        Some(_) => {
            let [list] = exact(fields)?;
            for idx in list.split(|&b| b == b';') {
                index(idx, size)?;
            }
            Indices::Wire(list)
        }
    };
    Ok(Frame::Led { points })
}

fn parse_show(fields: Fields<'_>) -> Result<Frame<'_>, RejectReason> {
    let [black_ms, white_ms, black_periods, white_periods, running] = exact(fields)?;
    Ok(Frame::Show {
        black_ms: number(black_ms)?,
        white_ms: number(white_ms)?,
        black_periods: number(black_periods)?,
        white_periods: number(white_periods)?,
        running: Running::parse(running).ok_or(RejectReason::BadValue)?,
    })
}
