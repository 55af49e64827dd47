//! The event archive through the real binary (issue 14): a game finished on real ptys, then `backup` while the daemon runs, `export` of the backup, and the arbiter's zip download.

#[path = "support/harness/mod.rs"]
mod harness;

use std::io::Read as _;
use std::process::Command;

use harness::daemon::{BOARD, Daemon, Setup, TOKEN};
use harness::device::Device;
use harness::game::{OPENING, play, point_name};

fn goban_bridge(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_goban-bridge"))
        .args(args)
        .output()
        .expect("run goban-bridge")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_backed_up_exported_and_downloaded() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (board, clock) = (Device::board(9), Device::clock());
    let setup = Setup::new(dir.path(), board.path(), clock.path(), 1883);
    let daemon = Daemon::start(&setup, 1).await;
    for p in &OPENING[..4] {
        play(&daemon, &board, &clock, *p).await;
    }
    clock.key("RESIGN_R"); // White (button R) resigns
    let state = daemon
        .wait_state("the game finished by resignation", |s| {
            s["phase"] == "finished"
        })
        .await;
    assert_eq!(state["result"], "B+R");
    let game = state["game"].as_str().expect("game id").to_owned();

    // Backup while the daemon runs, then export from the copy.
    let journal = dir.path().join("journal.sqlite");
    let copy = dir.path().join("backup.sqlite");
    let out = goban_bridge(&[
        "backup",
        "--journal",
        &journal.to_string_lossy(),
        "--out",
        &copy.to_string_lossy(),
    ]);
    assert!(
        out.status.success(),
        "backup: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let again = goban_bridge(&[
        "backup",
        "--journal",
        &journal.to_string_lossy(),
        "--out",
        &copy.to_string_lossy(),
    ]);
    assert!(!again.status.success(), "a backup never overwrites");

    let export = dir.path().join("export");
    let out = goban_bridge(&[
        "export",
        "--journal",
        &copy.to_string_lossy(),
        "--out",
        &export.to_string_lossy(),
    ]);
    assert!(
        out.status.success(),
        "export: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sgf = std::fs::read_to_string(export.join(format!("{game}.sgf"))).expect("the game's SGF");
    assert!(sgf.contains("RE[B+R]"), "{sgf}");
    // Export writes exactly the record the journal keeps for the game (the moves
    // themselves are the referee's business: see the start-up note of 2026-12-01).
    let kept = reqwest::get(format!("{}/games/{game}/sgf", daemon.base()))
        .await
        .expect("GET the archived SGF")
        .text()
        .await
        .expect("SGF text");
    assert_eq!(sgf, kept, "export equals the journal's record");
    // The final state as GET /games/{game} keeps it carries `v` and `seq` like every
    // board state (api.md "Conventions"): the seq of the state that finished the game.
    let kept: serde_json::Value = reqwest::get(format!("{}/games/{game}", daemon.base()))
        .await
        .expect("GET the archived state")
        .json()
        .await
        .expect("a JSON state");
    assert_eq!(
        (kept["game"].as_str(), kept["result"].as_str()),
        (Some(game.as_str()), Some("B+R")),
        "{kept}"
    );
    let (kept_seq, live_seq) = (kept["seq"].as_u64(), state["seq"].as_u64());
    assert!(
        kept_seq.is_some_and(|seq| seq > 0 && Some(seq) <= live_seq),
        "seq {kept_seq:?} of the archived state, {live_seq:?} live: {kept}"
    );
    assert_eq!(kept["v"], state["v"], "{kept}");
    for p in &OPENING[1..4] {
        let sgf_point = format!(
            "[{}{}]",
            (b'a' + p.2 as u8) as char,
            (b'a' + p.1 as u8) as char
        );
        assert!(
            sgf.contains(&sgf_point),
            "move {} missing from {sgf}",
            point_name(p.1, p.2)
        );
    }
    let csv = std::fs::read_to_string(export.join("index.csv")).expect("index.csv");
    let row = csv.lines().nth(1).expect("one game row");
    assert!(
        row.contains(&game) && row.contains("E2E Black") && row.contains("B+R"),
        "{csv}"
    );
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(export.join("index.json")).expect("index.json"),
    )
    .expect("json index");
    assert_eq!(json[0]["moves"], 4);
    assert_eq!(json[0]["board"], BOARD);

    // The arbiter's download: the same files in one zip; nobody else gets it.
    let http = reqwest::Client::new();
    let url = format!("{}/archive.zip", daemon.base());
    let anonymous = http.get(&url).send().await.expect("GET");
    assert_eq!(anonymous.status(), 401);
    let resp = http.get(&url).bearer_auth(TOKEN).send().await.expect("GET");
    assert_eq!(resp.status(), 200);
    let bytes = resp.bytes().await.expect("body");
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes.to_vec())).expect("a zip");
    let mut zipped = String::new();
    zip.by_name(&format!("{game}.sgf"))
        .expect("the game in the zip")
        .read_to_string(&mut zipped)
        .expect("read");
    assert_eq!(zipped, sgf, "the zip holds what export writes");
}
