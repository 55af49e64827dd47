//! Event payloads as the journal stores them: raw DEFLATE with a preset dictionary of typical messages, rebuilt byte for byte on read.
//!
//! A published message is serialized once; the journal keeps those exact
//! bytes, compressed. DEFLATE is lossless, so SSE resume serves what was
//! published, byte for byte. Each row is packed on its own (no reference to
//! another row), so reading one event stays O(1). A message of a few hundred
//! bytes barely compresses alone; the preset dictionary (typical `clock`,
//! `state`, `moves`, `device`... messages) gives DEFLATE the repeated field
//! names to point back to: a 380-byte `clock` reading is stored in about 70
//! bytes, a 1.9 KB slim `state` in about 250.
//!
//! `events.packing` says how a row is stored: [`PLAIN`] (JSON text, every row
//! written before schema version 4) or [`DEFLATE_V1`]. The dictionary of a
//! packing is part of the file format: never edit `dictionary-v1.txt`; a
//! better dictionary is a new packing number, and the old one stays readable.

use flate2::{Compress, Compression, Decompress, FlushCompress, FlushDecompress, Status};

/// `events.packing` of a row stored as JSON text.
pub(crate) const PLAIN: i64 = 0;
/// `events.packing` of a row stored as raw DEFLATE with [`DICTIONARY_V1`].
pub(crate) const DEFLATE_V1: i64 = 1;

/// The preset dictionary of [`DEFLATE_V1`]; the most frequent messages (`clock`) last, nearest the data.
const DICTIONARY_V1: &[u8] = include_bytes!("dictionary-v1.txt");

/// Why a stored payload could not be rebuilt.
#[derive(Debug, thiserror::Error)]
pub(crate) enum UnpackError {
    /// A packing this daemon does not know (a newer daemon wrote the row).
    #[error("unknown payload packing {0}")]
    Unknown(i64),
    /// The compressed bytes are damaged.
    #[error("damaged packed payload: {0}")]
    Damaged(String),
}

/// The writer's compressor, reused for every row (its state is a few hundred KB: one per journal).
pub(crate) struct Packer {
    compress: Compress,
    out: Vec<u8>,
}

impl Packer {
    pub(crate) fn new() -> Self {
        Self {
            compress: Compress::new(Compression::new(6), false),
            out: Vec::new(),
        }
    }

    /// `json` packed as [`DEFLATE_V1`]; `None` if zlib refused (then the row is stored [`PLAIN`]).
    pub(crate) fn pack(&mut self, json: &[u8]) -> Option<&[u8]> {
        self.compress.reset();
        self.compress.set_dictionary(DICTIONARY_V1).ok()?;
        self.out.clear();
        // DEFLATE's worst case is a few bytes per 16 KB block over the input.
        self.out.reserve(json.len() + 64);
        loop {
            let consumed = usize::try_from(self.compress.total_in()).ok()?;
            let rest = json.get(consumed..)?;
            match self
                .compress
                .compress_vec(rest, &mut self.out, FlushCompress::Finish)
            {
                Ok(Status::StreamEnd) => return Some(&self.out),
                Ok(Status::Ok | Status::BufError) => self.out.reserve(self.out.len().max(64)),
                Err(_) => return None,
            }
        }
    }
}

/// Rebuilds stored payloads; one per read, reused across its rows.
pub(crate) struct Unpacker {
    decompress: Decompress,
}

impl Unpacker {
    pub(crate) fn new() -> Self {
        Self {
            decompress: Decompress::new(false),
        }
    }

    /// The JSON text of a row stored with `packing`.
    pub(crate) fn unpack(&mut self, packing: i64, stored: &[u8]) -> Result<String, UnpackError> {
        let bytes = match packing {
            PLAIN => stored.to_vec(),
            DEFLATE_V1 => self.inflate(stored)?,
            other => return Err(UnpackError::Unknown(other)),
        };
        String::from_utf8(bytes).map_err(|err| UnpackError::Damaged(err.to_string()))
    }

    fn inflate(&mut self, stored: &[u8]) -> Result<Vec<u8>, UnpackError> {
        let damaged = |what: &dyn std::fmt::Display| UnpackError::Damaged(what.to_string());
        self.decompress.reset(false);
        self.decompress
            .set_dictionary(DICTIONARY_V1)
            .map_err(|err| damaged(&err))?;
        let mut out = Vec::with_capacity(stored.len() * 6 + 64);
        loop {
            let consumed = usize::try_from(self.decompress.total_in()).map_err(|e| damaged(&e))?;
            let rest = stored.get(consumed..).ok_or_else(|| damaged(&"overrun"))?;
            let before = (self.decompress.total_in(), self.decompress.total_out());
            match self
                .decompress
                .decompress_vec(rest, &mut out, FlushDecompress::Finish)
            {
                Ok(Status::StreamEnd) => return Ok(out),
                Ok(Status::Ok | Status::BufError) => {
                    let progressed =
                        before != (self.decompress.total_in(), self.decompress.total_out());
                    if !progressed && out.len() < out.capacity() {
                        return Err(damaged(&"truncated"));
                    }
                    out.reserve(out.len().max(256));
                }
                Err(err) => return Err(damaged(&err)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLOCK: &str = r#"{"v":1,"seq":6212,"board":"b0","game":"b0-1","at":"2026-11-30T10:24:23.200Z","event":"clock","clock":{"running":"black","black":{"main_ms":2867400,"periods":0,"period_ms":0,"used_ms":2532600,"flagged":false},"white":{"main_ms":2870400,"periods":0,"period_ms":0,"used_ms":2529600,"flagged":false},"to_move":"black","paused":false,"flag_fallen":null,"time_control":"absolute:main=90m"}}"#;

    #[test]
    fn a_clock_reading_is_rebuilt_byte_for_byte_from_a_fifth_of_its_size() {
        let mut packer = Packer::new();
        let packed = packer.pack(CLOCK.as_bytes()).expect("packs").to_vec();
        assert!(
            packed.len() * 4 < CLOCK.len(),
            "{} bytes packed from {}",
            packed.len(),
            CLOCK.len()
        );
        let mut unpacker = Unpacker::new();
        assert_eq!(
            unpacker.unpack(DEFLATE_V1, &packed).expect("unpacks"),
            CLOCK
        );
        // The same objects serve the next row.
        let other = CLOCK.replace("6212", "6213");
        let packed = packer.pack(other.as_bytes()).expect("packs").to_vec();
        assert_eq!(
            unpacker.unpack(DEFLATE_V1, &packed).expect("unpacks"),
            other
        );
    }

    #[test]
    fn plain_rows_are_read_as_they_are_and_unknown_or_damaged_ones_are_refused() {
        let mut unpacker = Unpacker::new();
        assert_eq!(
            unpacker.unpack(PLAIN, b"{\"v\":1}").expect("plain"),
            "{\"v\":1}"
        );
        assert!(matches!(
            unpacker.unpack(7, b"x"),
            Err(UnpackError::Unknown(7))
        ));
        let packed = Packer::new()
            .pack(CLOCK.as_bytes())
            .expect("packs")
            .to_vec();
        let truncated = &packed[..packed.len() / 2];
        assert!(unpacker.unpack(DEFLATE_V1, truncated).is_err());
        assert!(unpacker.unpack(DEFLATE_V1, b"\xff\xff\xff\xff").is_err());
    }

    /// Time per row of packing and unpacking a clock reading: prints figures (docs/performance.md).
    #[test]
    #[ignore = "a measurement: run with --ignored --nocapture"]
    fn packing_cost_per_row() {
        const ROWS: u32 = 20_000;
        let mut packer = Packer::new();
        let started = std::time::Instant::now();
        let mut stored = 0;
        for _ in 0..ROWS {
            stored = packer.pack(CLOCK.as_bytes()).expect("packs").len();
        }
        let pack = started.elapsed() / ROWS;
        let packed = packer.pack(CLOCK.as_bytes()).expect("packs").to_vec();
        let mut unpacker = Unpacker::new();
        let started = std::time::Instant::now();
        for _ in 0..ROWS {
            assert_eq!(
                unpacker.unpack(DEFLATE_V1, &packed).expect("unpacks").len(),
                CLOCK.len()
            );
        }
        let unpack = started.elapsed() / ROWS;
        println!(
            "clock reading {} bytes -> {stored} stored; pack {pack:?}, unpack {unpack:?} per row",
            CLOCK.len()
        );
    }

    proptest::proptest! {
        #[test]
        fn any_text_round_trips(text in "\\PC{0,3000}") {
            let mut packer = Packer::new();
            let packed = packer.pack(text.as_bytes()).expect("packs").to_vec();
            let rebuilt = Unpacker::new().unpack(DEFLATE_V1, &packed).expect("unpacks");
            proptest::prop_assert_eq!(rebuilt, text);
        }
    }
}
