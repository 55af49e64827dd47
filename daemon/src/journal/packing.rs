//! Event payloads as the journal stores them: a zstd frame with a preset dictionary of typical messages, rebuilt byte for byte on read.
//!
//! A published message is serialized once; the journal keeps those exact
//! bytes, compressed. Compression is lossless, so SSE resume serves what was
//! published, byte for byte. Each row is packed on its own (no reference to
//! another row), so reading one event stays O(1). A message of a few hundred
//! bytes barely compresses alone; the preset dictionary (typical `clock`,
//! `state`, `moves`, `device`... messages) gives the compressor the repeated
//! field names to point back to: a 384-byte `clock` reading is stored in about
//! 90 bytes.
//!
//! `events.packing` (and `checkpoints.packing`) says how a row is stored:
//! - [`PLAIN`]: JSON text, every row written before schema version 4;
//! - [`DEFLATE_V1`]: raw DEFLATE with [`DICTIONARY_V1`], rows written by schema versions 4
//!   and 5;
//! - [`ZSTD_V1`]: a zstd frame with the same dictionary, what the writer packs from
//!   schema version 6 on.
//!
//! Why zstd: DEFLATE has no prepared dictionary. zlib resets its hash tables
//! (about 180 KB of `memset`) and hashes the 3.8 KB dictionary again for every
//! row, about 9 µs a row on the writer thread, which held a hall's journal
//! writer and its cache. zstd prepares the dictionary once (`EncoderDictionary`)
//! and attaches it to each small row: about 1.1 µs for a clock reading, 88
//! bytes stored instead of 67.
//!
//! The dictionary of a packing is part of the file format: never edit
//! `dictionary-v1.txt`; a better dictionary is a new packing number, and the
//! old ones stay readable.

use std::sync::OnceLock;

use flate2::{Decompress, FlushDecompress, Status};
use zstd::dict::{DecoderDictionary, EncoderDictionary};

/// `events.packing` of a row stored as JSON text.
pub(crate) const PLAIN: i64 = 0;
/// `events.packing` of a row stored as raw DEFLATE with [`DICTIONARY_V1`] (read only).
pub(crate) const DEFLATE_V1: i64 = 1;
/// `events.packing` of a row stored as a zstd frame with [`DICTIONARY_V1`].
pub(crate) const ZSTD_V1: i64 = 2;

/// The preset dictionary of [`DEFLATE_V1`] and [`ZSTD_V1`]; the most frequent messages (`clock`) last, nearest the data.
const DICTIONARY_V1: &[u8] = include_bytes!("dictionary-v1.txt");

/// zstd's level for rows: its default. Level 6 stores a clock reading in 80 bytes instead of
/// 88 for twice the time.
const ZSTD_LEVEL: i32 = 3;

/// The largest payload a row may claim to hold; a frame that claims more is damaged.
const LARGEST_ROW: u64 = 64 << 20;

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

/// The dictionary prepared for packing, once per process (it is read only).
fn encoder_dictionary() -> &'static EncoderDictionary<'static> {
    static PREPARED: OnceLock<EncoderDictionary<'static>> = OnceLock::new();
    PREPARED.get_or_init(|| EncoderDictionary::copy(DICTIONARY_V1, ZSTD_LEVEL))
}

/// The dictionary prepared for unpacking, once per process.
fn decoder_dictionary() -> &'static DecoderDictionary<'static> {
    static PREPARED: OnceLock<DecoderDictionary<'static>> = OnceLock::new();
    PREPARED.get_or_init(|| DecoderDictionary::copy(DICTIONARY_V1))
}

/// The writer's compressor, reused for every row.
pub(crate) struct Packer {
    /// `None` if zstd could not make a context (out of memory): rows are then stored [`PLAIN`].
    compressor: Option<zstd::bulk::Compressor<'static>>,
    out: Vec<u8>,
}

impl Packer {
    /// The packing of what [`Packer::pack`] returns.
    pub(crate) const PACKING: i64 = ZSTD_V1;

    pub(crate) fn new() -> Self {
        let compressor = zstd::bulk::Compressor::with_prepared_dictionary(encoder_dictionary())
            .inspect_err(|err| {
                tracing::error!(cause = %err, "no zstd context: journal rows are stored unpacked");
            })
            .ok();
        Self {
            compressor,
            out: Vec::new(),
        }
    }

    /// `json` packed as [`Packer::PACKING`]; `None` if zstd refused (then the row is stored [`PLAIN`]).
    pub(crate) fn pack(&mut self, json: &[u8]) -> Option<&[u8]> {
        let compressor = self.compressor.as_mut()?;
        self.out.clear();
        self.out
            .reserve(zstd::zstd_safe::compress_bound(json.len()));
        compressor.compress_to_buffer(json, &mut self.out).ok()?;
        Some(&self.out)
    }
}

/// Rebuilds stored payloads; one per read, reused across its rows.
pub(crate) struct Unpacker {
    decompress: Decompress,
    /// Made for the first [`ZSTD_V1`] row.
    decompressor: Option<zstd::bulk::Decompressor<'static>>,
}

impl Unpacker {
    pub(crate) fn new() -> Self {
        Self {
            decompress: Decompress::new(false),
            decompressor: None,
        }
    }

    /// The JSON text of a row stored with `packing`.
    pub(crate) fn unpack(&mut self, packing: i64, stored: &[u8]) -> Result<String, UnpackError> {
        let bytes = match packing {
            PLAIN => stored.to_vec(),
            DEFLATE_V1 => self.inflate(stored)?,
            ZSTD_V1 => self.unzstd(stored)?,
            other => return Err(UnpackError::Unknown(other)),
        };
        String::from_utf8(bytes).map_err(|err| UnpackError::Damaged(err.to_string()))
    }

    fn unzstd(&mut self, stored: &[u8]) -> Result<Vec<u8>, UnpackError> {
        let damaged = |what: &dyn std::fmt::Display| UnpackError::Damaged(what.to_string());
        let size = match zstd::zstd_safe::get_frame_content_size(stored) {
            Ok(Some(size)) if size <= LARGEST_ROW => size,
            Ok(Some(size)) => return Err(damaged(&format!("claims {size} bytes"))),
            Ok(None) | Err(_) => return Err(damaged(&"no zstd frame with its size")),
        };
        let decompressor = match &mut self.decompressor {
            Some(decompressor) => decompressor,
            empty => empty.insert(
                zstd::bulk::Decompressor::with_prepared_dictionary(decoder_dictionary())
                    .map_err(|err| damaged(&err))?,
            ),
        };
        let capacity = usize::try_from(size).map_err(|err| damaged(&err))?;
        let out = decompressor
            .decompress(stored, capacity)
            .map_err(|err| damaged(&err))?;
        if out.len() == capacity {
            Ok(out)
        } else {
            Err(damaged(&"shorter than its frame says"))
        }
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

    /// A row as schema versions 4 and 5 packed it: raw DEFLATE, level 6, the same dictionary.
    fn deflate_v1(json: &[u8]) -> Vec<u8> {
        let mut compress = flate2::Compress::new(flate2::Compression::new(6), false);
        let mut out = Vec::new();
        deflate_v1_into(&mut compress, json, &mut out);
        out
    }

    /// `json` packed into `out` as the writer of versions 4 and 5 did, reusing `compress`.
    fn deflate_v1_into(compress: &mut flate2::Compress, json: &[u8], out: &mut Vec<u8>) {
        compress.reset();
        compress.set_dictionary(DICTIONARY_V1).expect("dictionary");
        out.clear();
        out.reserve(json.len() + 64);
        let status = compress
            .compress_vec(json, out, flate2::FlushCompress::Finish)
            .expect("deflates");
        assert_eq!(status, Status::StreamEnd);
    }

    #[test]
    fn a_clock_reading_is_rebuilt_byte_for_byte_from_a_quarter_of_its_size() {
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
            unpacker.unpack(Packer::PACKING, &packed).expect("unpacks"),
            CLOCK
        );
        // The same objects serve the next row.
        let other = CLOCK.replace("6212", "6213");
        let packed = packer.pack(other.as_bytes()).expect("packs").to_vec();
        assert_eq!(
            unpacker.unpack(Packer::PACKING, &packed).expect("unpacks"),
            other
        );
    }

    #[test]
    fn rows_packed_by_older_versions_are_still_read() {
        let mut unpacker = Unpacker::new();
        let deflated = deflate_v1(CLOCK.as_bytes());
        assert_eq!(
            unpacker.unpack(DEFLATE_V1, &deflated).expect("unpacks"),
            CLOCK
        );
        assert_eq!(
            unpacker.unpack(PLAIN, b"{\"v\":1}").expect("plain"),
            "{\"v\":1}"
        );
        // One reader meets every packing in one page of rows.
        let packed = Packer::new()
            .pack(CLOCK.as_bytes())
            .expect("packs")
            .to_vec();
        assert_eq!(unpacker.unpack(ZSTD_V1, &packed).expect("zstd"), CLOCK);
        assert_eq!(
            unpacker.unpack(DEFLATE_V1, &deflated).expect("again"),
            CLOCK
        );
    }

    #[test]
    fn unknown_or_damaged_rows_are_refused() {
        let mut unpacker = Unpacker::new();
        assert!(matches!(
            unpacker.unpack(7, b"x"),
            Err(UnpackError::Unknown(7))
        ));
        let packed = Packer::new()
            .pack(CLOCK.as_bytes())
            .expect("packs")
            .to_vec();
        let truncated = &packed[..packed.len() / 2];
        assert!(unpacker.unpack(ZSTD_V1, truncated).is_err());
        assert!(unpacker.unpack(ZSTD_V1, b"\xff\xff\xff\xff").is_err());
        assert!(unpacker.unpack(ZSTD_V1, &[]).is_err());
        // A packing read as another is refused, not served altered.
        assert!(unpacker.unpack(DEFLATE_V1, &packed).is_err());
        assert!(
            unpacker
                .unpack(ZSTD_V1, &deflate_v1(CLOCK.as_bytes()))
                .is_err()
        );
        let deflated = deflate_v1(CLOCK.as_bytes());
        assert!(
            unpacker
                .unpack(DEFLATE_V1, &deflated[..deflated.len() / 2])
                .is_err()
        );
        assert!(unpacker.unpack(DEFLATE_V1, b"\xff\xff\xff\xff").is_err());
    }

    /// Time per row of packing and unpacking a clock reading, zstd and the DEFLATE it
    /// replaced: prints figures (docs/performance.md).
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
                unpacker.unpack(ZSTD_V1, &packed).expect("unpacks").len(),
                CLOCK.len()
            );
        }
        let unpack = started.elapsed() / ROWS;
        let mut compress = flate2::Compress::new(flate2::Compression::new(6), false);
        let mut out = Vec::new();
        let started = std::time::Instant::now();
        for _ in 0..ROWS {
            deflate_v1_into(&mut compress, CLOCK.as_bytes(), &mut out);
        }
        let deflate = started.elapsed() / ROWS;
        println!(
            "clock reading {} bytes -> {stored} stored (DEFLATE: {}); pack {pack:?} (DEFLATE: \
             {deflate:?}), unpack {unpack:?} per row",
            CLOCK.len(),
            out.len()
        );
    }

    proptest::proptest! {
        #[test]
        fn any_text_round_trips(text in "\\PC{0,3000}") {
            let mut packer = Packer::new();
            let packed = packer.pack(text.as_bytes()).expect("packs").to_vec();
            let rebuilt = Unpacker::new().unpack(Packer::PACKING, &packed).expect("unpacks");
            proptest::prop_assert_eq!(&rebuilt, &text);
            let old = Unpacker::new().unpack(DEFLATE_V1, &deflate_v1(text.as_bytes()));
            proptest::prop_assert_eq!(old.expect("old rows unpack"), text);
        }
    }
}
