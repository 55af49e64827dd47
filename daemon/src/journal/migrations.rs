//! The journal file's schema versions: ordered migrations applied on open, recorded in `PRAGMA user_version`.
//!
//! Version N means migrations 1..=N have run. A file written before
//! versioning reads as version 0; migration 1 is the schema of that time
//! written with `IF NOT EXISTS`, so such a file is adopted unchanged. A file
//! from a newer daemon (version above ours) is refused before anything is
//! written: an older daemon cannot know what the newer tables mean.

use rusqlite::{Connection, TransactionBehavior};

/// One step of the schema, in order; never edit a released one, add another.
struct Migration {
    /// What the step brings, for the log.
    what: &'static str,
    /// The step, run in the migration's transaction.
    apply: Apply,
}

/// How a step changes the file.
enum Apply {
    /// A fixed SQL batch.
    Sql(&'static str),
    /// A function of its own (steps that do more than one statement's worth, or compute).
    Step(fn(&rusqlite::Transaction<'_>) -> rusqlite::Result<()>),
}

const MIGRATIONS: &[Migration] = &[
    Migration {
        what: "epochs, inputs, events and games",
        apply: Apply::Sql(
            "
CREATE TABLE IF NOT EXISTS epochs (
    board TEXT NOT NULL,
    epoch INTEGER NOT NULL,
    opened_ms INTEGER NOT NULL,
    closed_ms INTEGER,
    PRIMARY KEY (board, epoch)
);
CREATE TABLE IF NOT EXISTS inputs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    board TEXT NOT NULL,
    epoch INTEGER NOT NULL,
    at_ms INTEGER NOT NULL,
    input TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS inputs_by_epoch ON inputs (board, epoch, id);
CREATE TABLE IF NOT EXISTS events (
    board TEXT NOT NULL,
    seq INTEGER NOT NULL,
    topic TEXT NOT NULL,
    at_ms INTEGER NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (board, seq)
);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    board TEXT NOT NULL,
    finished_ms INTEGER NOT NULL,
    summary TEXT NOT NULL,
    state TEXT NOT NULL,
    sgf TEXT NOT NULL
);
",
        ),
    },
    Migration {
        what: "the tournament desk's rounds, seats, results and pushes",
        apply: Apply::Sql(
            "
CREATE TABLE IF NOT EXISTS tournament_rounds (
    round INTEGER PRIMARY KEY,
    source TEXT NOT NULL,
    loaded_ms INTEGER NOT NULL,
    round_json TEXT NOT NULL,
    document TEXT
);
CREATE TABLE IF NOT EXISTS tournament_seats (
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    board TEXT NOT NULL,
    game TEXT,
    PRIMARY KEY (round, table_no)
);
CREATE TABLE IF NOT EXISTS tournament_results (
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    black TEXT NOT NULL,
    white TEXT NOT NULL,
    decision TEXT NOT NULL,
    warnings_black INTEGER NOT NULL,
    warnings_white INTEGER NOT NULL,
    game TEXT,
    confirmed_ms INTEGER NOT NULL,
    PRIMARY KEY (round, table_no)
);
CREATE TABLE IF NOT EXISTS tournament_pushes (
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    target TEXT NOT NULL,
    decision TEXT NOT NULL,
    pushed_ms INTEGER,
    attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    PRIMARY KEY (round, table_no, target)
);
",
        ),
    },
    Migration {
        what: "the last seq of each closed epoch, so a finished game's events can be compacted",
        apply: Apply::Sql("ALTER TABLE epochs ADD COLUMN last_seq INTEGER;"),
    },
    Migration {
        what: "packed event payloads, and the game each epoch archived (for retention)",
        apply: Apply::Step(packed_payloads_and_epoch_games),
    },
    Migration {
        what: "referee checkpoints of open games, so a restart replays only the inputs after them",
        apply: Apply::Sql(
            "
CREATE TABLE IF NOT EXISTS checkpoints (
    board TEXT NOT NULL,
    epoch INTEGER NOT NULL,
    input_id INTEGER NOT NULL,
    at_ms INTEGER NOT NULL,
    format INTEGER NOT NULL,
    packing INTEGER NOT NULL,
    state BLOB NOT NULL,
    PRIMARY KEY (board, epoch)
);
",
        ),
    },
    Migration {
        what: "payloads packed with zstd (packing 2, packing.rs); a daemon before this version \
               cannot read them, so it must refuse the file",
        apply: Apply::Sql(""),
    },
    Migration {
        what: "which tournament results are an arbiter's ruling, which a board result never replaces",
        apply: Apply::Sql(
            "ALTER TABLE tournament_results ADD COLUMN ruled INTEGER NOT NULL DEFAULT 0;",
        ),
    },
];

/// Step 4: `events.packing` says how a payload is stored (`packing.rs`; every older row is
/// JSON text, 0); `epochs.game` names the game an epoch archived, so that compaction
/// removes only finished games' rows. Epochs of older files are matched to their game by
/// the id the daemon gives games, `<date>-<board>-<epoch>`.
fn packed_payloads_and_epoch_games(tx: &rusqlite::Transaction<'_>) -> rusqlite::Result<()> {
    tx.execute_batch(
        "ALTER TABLE events ADD COLUMN packing INTEGER NOT NULL DEFAULT 0;
         ALTER TABLE epochs ADD COLUMN game TEXT;
         UPDATE epochs SET game = (
             SELECT g.id FROM games g
             WHERE g.board = epochs.board AND g.id LIKE '%-' || epochs.board || '-' || epochs.epoch
             ORDER BY g.finished_ms DESC LIMIT 1
         );",
    )
}

/// The schema version this daemon writes.
pub(crate) const CURRENT: u32 = MIGRATIONS.len() as u32;

/// Why the schema could not be brought to [`CURRENT`].
#[derive(Debug, thiserror::Error)]
pub enum SchemaError {
    /// The file was written by a newer daemon; nothing was changed in it.
    #[error(
        "the journal file has schema version {found}, newer than this daemon's {supported}; \
         it was left untouched: run the newer goban-bridge, or restore a backup made for this version"
    )]
    TooNew {
        /// `PRAGMA user_version` of the file.
        found: u32,
        /// The newest version this daemon knows.
        supported: u32,
    },
    /// SQLite refused while reading the version or running a migration.
    #[error("schema migration: {0}")]
    Sqlite(#[from] rusqlite::Error),
}

/// The file's schema version (`PRAGMA user_version`).
pub(crate) fn version(conn: &Connection) -> rusqlite::Result<u32> {
    conn.query_row("PRAGMA user_version", [], |row| row.get(0))
}

/// Brings the file to [`CURRENT`], each step in its own transaction, or refuses a newer file.
///
/// The version is read again inside an immediate (write-locked)
/// transaction, so two connections opening one file at once (the journal
/// and the tournament store) never run a step twice.
pub(crate) fn migrate(conn: &mut Connection) -> Result<u32, SchemaError> {
    let found = version(conn)?;
    refuse_newer(found)?;
    if found == CURRENT {
        // The common case, and every reader's: no write lock taken.
        return Ok(found);
    }
    loop {
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let found = version(&tx)?;
        refuse_newer(found)?;
        let Some(step) = MIGRATIONS.get(found as usize) else {
            return Ok(found);
        };
        match step.apply {
            Apply::Sql(sql) => tx.execute_batch(sql)?,
            Apply::Step(apply) => apply(&tx)?,
        }
        // PRAGMA takes no bound parameters; `found + 1` is our own integer.
        tx.execute_batch(&format!("PRAGMA user_version = {}", found + 1))?;
        tx.commit()?;
        tracing::info!(
            version = found + 1,
            what = step.what,
            "journal schema migrated"
        );
    }
}

fn refuse_newer(found: u32) -> Result<(), SchemaError> {
    if found > CURRENT {
        return Err(SchemaError::TooNew {
            found,
            supported: CURRENT,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build_file(dir: &tempfile::TempDir) -> (std::path::PathBuf, Connection) {
        let path = dir.path().join("journal.sqlite");
        let conn = Connection::open(&path).expect("open");
        (path, conn)
    }

    fn tables(conn: &Connection) -> Vec<String> {
        let mut stmt = conn
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            .expect("prepare");
        let rows = stmt.query_map([], |row| row.get(0)).expect("query");
        rows.map(|row| row.expect("row")).collect()
    }

    #[test]
    fn a_new_file_gets_every_table_and_the_current_version() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (_, mut conn) = build_file(&dir);
        assert_eq!(migrate(&mut conn).expect("migrate"), CURRENT);
        assert_eq!(version(&conn).expect("version"), CURRENT);
        let names = tables(&conn);
        for table in ["epochs", "inputs", "events", "games", "tournament_pushes"] {
            assert!(
                names.iter().any(|n| n == table),
                "{table} missing: {names:?}"
            );
        }
    }

    #[test]
    fn an_unversioned_journal_keeps_its_rows_and_gains_the_tournament_tables() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (_, mut conn) = build_file(&dir);
        // The file as the daemon wrote it before versioning: migration 1's tables, user_version 0.
        let Apply::Sql(first) = MIGRATIONS[0].apply else {
            panic!("migration 1 is SQL")
        };
        conn.execute_batch(first).expect("old schema");
        conn.execute(
            "INSERT INTO events (board, seq, topic, at_ms, payload) VALUES ('t1', 7, 'moves', 1, '{}')",
            [],
        )
        .expect("old row");
        assert_eq!(version(&conn).expect("version"), 0);

        assert_eq!(migrate(&mut conn).expect("migrate"), CURRENT);
        let kept: i64 = conn
            .query_row("SELECT seq FROM events WHERE board = 't1'", [], |r| {
                r.get(0)
            })
            .expect("row kept");
        assert_eq!(kept, 7);
        assert!(tables(&conn).iter().any(|n| n == "tournament_rounds"));
        // Opening again is a no-op.
        assert_eq!(migrate(&mut conn).expect("again"), CURRENT);
    }

    #[test]
    fn a_file_from_a_newer_daemon_is_refused_and_left_unchanged() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (path, conn) = build_file(&dir);
        conn.execute_batch("CREATE TABLE future (x); PRAGMA user_version = 99;")
            .expect("future file");
        drop(conn);
        let before = std::fs::read(&path).expect("read");

        let mut conn = Connection::open(&path).expect("reopen");
        let err = migrate(&mut conn).expect_err("a newer file must be refused");
        assert!(
            matches!(
                err,
                SchemaError::TooNew {
                    found: 99,
                    supported: CURRENT
                }
            ),
            "{err:?}"
        );
        assert!(err.to_string().contains("newer than this daemon"), "{err}");
        assert_eq!(tables(&conn), vec!["future".to_owned()]);
        drop(conn);
        assert_eq!(
            std::fs::read(&path).expect("read"),
            before,
            "the file changed"
        );
    }

    /// A file of version 3 (the schema before packed payloads), with a finished and an open game.
    fn build_version_3(conn: &mut Connection) {
        for step in &MIGRATIONS[..3] {
            let Apply::Sql(sql) = step.apply else {
                panic!("steps 1 to 3 are SQL")
            };
            conn.execute_batch(sql).expect("old step");
        }
        conn.execute_batch(
            "PRAGMA user_version = 3;
             INSERT INTO epochs (board, epoch, opened_ms, closed_ms, last_seq) VALUES
                 ('table-1', 1, 10, 90, 3), ('table-1', 2, 100, NULL, NULL), ('table-12', 1, 10, 90, 2);
             INSERT INTO games (id, board, finished_ms, summary, state, sgf) VALUES
                 ('2026-11-30-table-1-1', 'table-1', 80, '{}', '{}', '(;)'),
                 ('2026-11-30-table-12-1', 'table-12', 70, '{}', '{}', '(;)');
             INSERT INTO events (board, seq, topic, at_ms, payload) VALUES
                 ('table-1', 3, 'clock', 50, '{\"v\":1,\"seq\":3}');",
        )
        .expect("version 3 rows");
    }

    #[test]
    fn version_3_gains_packing_and_the_game_of_each_epoch() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (_, mut conn) = build_file(&dir);
        build_version_3(&mut conn);
        assert_eq!(version(&conn).expect("version"), 3);

        assert_eq!(migrate(&mut conn).expect("migrate"), CURRENT);
        let (packing, payload): (i64, String) = conn
            .query_row(
                "SELECT packing, payload FROM events WHERE board = 'table-1' AND seq = 3",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .expect("old row");
        assert_eq!((packing, payload.as_str()), (0, "{\"v\":1,\"seq\":3}"));
        let games: Vec<(String, i64, Option<String>)> = {
            let mut stmt = conn
                .prepare("SELECT board, epoch, game FROM epochs ORDER BY board, epoch")
                .expect("prepare");
            let rows = stmt
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                .expect("query");
            rows.map(|row| row.expect("row")).collect()
        };
        assert_eq!(
            games,
            vec![
                ("table-1".into(), 1, Some("2026-11-30-table-1-1".into())),
                ("table-1".into(), 2, None),
                ("table-12".into(), 1, Some("2026-11-30-table-12-1".into())),
            ],
            "each epoch is matched to its own board's game only"
        );
    }

    #[test]
    fn version_4_gains_an_empty_checkpoints_table_and_keeps_its_rows() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (_, mut conn) = build_file(&dir);
        build_version_3(&mut conn);
        {
            let tx = conn.transaction().expect("tx");
            let Apply::Step(step_4) = MIGRATIONS[3].apply else {
                panic!("step 4 is a function")
            };
            step_4(&tx).expect("step 4");
            tx.execute_batch("PRAGMA user_version = 4")
                .expect("version");
            tx.commit().expect("commit");
        }
        conn.execute(
            "INSERT INTO inputs (board, epoch, at_ms, input) VALUES ('table-1', 2, 120, '{}')",
            [],
        )
        .expect("an open game's input");
        assert_eq!(version(&conn).expect("version"), 4);

        assert_eq!(migrate(&mut conn).expect("migrate"), CURRENT);
        assert!(tables(&conn).iter().any(|n| n == "checkpoints"));
        let (inputs, checkpoints): (i64, i64) = conn
            .query_row(
                "SELECT (SELECT COUNT(*) FROM inputs), (SELECT COUNT(*) FROM checkpoints)",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .expect("counts");
        assert_eq!(
            (inputs, checkpoints),
            (1, 0),
            "the open game is replayed in full"
        );
    }
}
