//! Checkpoints in the journal: read back with only the inputs after them, a damaged one
//! ignored, and the cost of one late in a game (a measurement, ignored by default).

use super::tests::{build_batch, build_journal};
use super::*;

fn build_checkpoint(at_ms: u64, state: &str) -> CheckpointRecord {
    CheckpointRecord {
        at_ms,
        format: 1,
        state: state.as_bytes().into(),
    }
}

#[tokio::test]
async fn a_checkpoint_is_read_back_with_only_the_inputs_after_it_and_goes_with_its_epoch() {
    let dir = tempfile::tempdir().expect("tempdir");
    let journal = build_journal(&dir, Synchronous::Normal);
    let mut first = build_batch("t1", 1, &["{\"a\":1}", "{\"a\":2}"], &[1]);
    first.open_epoch = true;
    first.checkpoint = Some(build_checkpoint(7, "{\"after\":2}"));
    journal.write(first).await.expect("write");
    journal
        .write(build_batch("t1", 1, &["{\"a\":3}"], &[2]))
        .await
        .expect("write");
    // Another board's rows in between: ids are the file's, not the board's.
    let mut other = build_batch("t2", 1, &["{\"b\":1}"], &[1]);
    other.open_epoch = true;
    other.checkpoint = Some(build_checkpoint(1, "{\"t2\":1}"));
    journal.write(other).await.expect("write");

    let t1 = journal.recover("t1").expect("recover");
    let checkpoint = t1.checkpoint.expect("a checkpoint");
    assert_eq!(
        (
            checkpoint.at_ms,
            checkpoint.format,
            checkpoint.state.as_slice()
        ),
        (7, 1, b"{\"after\":2}".as_slice())
    );
    let inputs: Vec<&str> = t1.inputs.iter().map(|i| i.json.as_str()).collect();
    assert_eq!(
        inputs,
        ["{\"a\":3}"],
        "only the inputs after the checkpoint"
    );
    let full = journal
        .recovery_reader()
        .expect("reader")
        .recover_in_full("t1")
        .expect("recover in full");
    assert!(full.checkpoint.is_none());
    assert_eq!(full.inputs.len(), 3);

    // A later checkpoint replaces the earlier one.
    let mut later = build_batch("t1", 1, &["{\"a\":4}"], &[3]);
    later.checkpoint = Some(build_checkpoint(9, "{\"after\":4}"));
    journal.write(later).await.expect("write");
    let t1 = journal.recover("t1").expect("recover");
    assert_eq!(t1.checkpoint.expect("checkpoint").state, b"{\"after\":4}");
    assert!(t1.inputs.is_empty());
    let rows = |conn: &rusqlite::Connection| -> i64 {
        conn.query_row(
            "SELECT COUNT(*) FROM checkpoints WHERE board = 't1'",
            [],
            |r| r.get(0),
        )
        .expect("count")
    };
    let conn = rusqlite::Connection::open(dir.path().join("journal.sqlite")).expect("open");
    assert_eq!(rows(&conn), 1, "one row per open game");

    // A batch without inputs has no place for a checkpoint; closing the epoch removes it.
    let mut close = build_batch("t1", 1, &[], &[4]);
    close.checkpoint = Some(build_checkpoint(10, "{\"ignored\":1}"));
    close.close_epoch = true;
    journal.write(close).await.expect("write");
    assert_eq!(rows(&conn), 0);
    assert!(journal.recover("t2").expect("recover").checkpoint.is_some());
}

#[tokio::test]
async fn a_damaged_checkpoint_is_ignored_and_the_whole_epoch_is_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    let journal = build_journal(&dir, Synchronous::Normal);
    let mut first = build_batch("t1", 1, &["{\"a\":1}", "{\"a\":2}"], &[1]);
    first.open_epoch = true;
    first.checkpoint = Some(build_checkpoint(7, "{\"after\":2}"));
    journal.write(first).await.expect("write");
    journal.flush().await.expect("flush");
    let conn = rusqlite::Connection::open(dir.path().join("journal.sqlite")).expect("open");
    conn.execute("UPDATE checkpoints SET state = x'ffffffff'", [])
        .expect("damage");
    let t1 = journal.recover("t1").expect("recover");
    assert!(t1.checkpoint.is_none());
    assert_eq!(t1.inputs.len(), 2);
}

/// The cost of one checkpoint late in a game: takes the checkpoint of board `b0` from the
/// journal kept by the `journal_growth` bench (`GOBAN_BENCH_JOURNAL`), then times encoding it
/// (the referee's JSON), packing, unpacking and restoring it. Prints figures (docs/performance.md).
#[test]
#[ignore = "a measurement: run with --ignored --nocapture and GOBAN_BENCH_JOURNAL"]
fn checkpoint_cost_late_in_a_game() {
    const ROUNDS: u32 = 200;
    let path = std::env::var_os("GOBAN_BENCH_JOURNAL").expect("GOBAN_BENCH_JOURNAL");
    let conn = rusqlite::Connection::open(path).expect("open");
    let (input_id, packing, stored): (i64, i64, Vec<u8>) = conn
        .query_row(
            "SELECT input_id, packing, state FROM checkpoints WHERE board = 'b0' \
             ORDER BY epoch DESC LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .expect("b0 has a checkpoint");
    let json = packing::Unpacker::new()
        .unpack(packing, &stored)
        .expect("unpacks");
    let value: serde_json::Value = serde_json::from_str(&json).expect("json");
    let config: goban_referee::RefereeConfig =
        serde_json::from_value(value["referee"]["config"].clone()).expect("config");
    let moves = value["referee"]["game"]["moves"]
        .as_array()
        .map_or(0, Vec::len);

    let started = std::time::Instant::now();
    let mut referee = None;
    for _ in 0..ROUNDS {
        referee = Some(goban_referee::Referee::restore(&config, json.as_bytes()).expect("restore"));
    }
    let restore = started.elapsed() / ROUNDS;
    let referee = referee.expect("restored");
    let started = std::time::Instant::now();
    let mut encoded = Vec::new();
    for _ in 0..ROUNDS {
        encoded = referee.checkpoint().expect("encode");
    }
    let encode = started.elapsed() / ROUNDS;
    let mut packer = packing::Packer::new();
    let started = std::time::Instant::now();
    let mut packed = 0;
    for _ in 0..ROUNDS {
        packed = packer.pack(&encoded).expect("packs").len();
    }
    let pack = started.elapsed() / ROUNDS;
    let mut unpacker = packing::Unpacker::new();
    let started = std::time::Instant::now();
    for _ in 0..ROUNDS {
        assert_eq!(
            unpacker.unpack(packing, &stored).expect("unpacks").len(),
            json.len()
        );
    }
    let unpack = started.elapsed() / ROUNDS;
    println!(
        "b0's checkpoint after input {input_id}, move {moves}: {} bytes of JSON, {packed} packed \
         (stored {}); encode {encode:?}, pack {pack:?}, unpack {unpack:?}, restore {restore:?}",
        encoded.len(),
        stored.len()
    );
}
