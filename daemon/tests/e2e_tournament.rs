//! End-to-end tournament loop: import round 1 from a server answering as Pairgoth's code (with its
//! token authentication), seat and start it on two simulated boards (the real binary,
//! pseudo-terminals, Mosquitto, SQLite), confirm the results, see them pushed once to Pairgoth and
//! published on MQTT, the archive named by round and table, survive kill -9 without pushing
//! again, then import round 2.

mod pairgoth;
mod support;

use std::path::Path;
use std::time::Duration;

use goban_hardware::sim::{FaultScript, HumanProfile, SimGame, SimulateOptions, Transport};
use goban_rules::{BoardSize, Color, Move, Point};
use pairgoth::server::PairgothServer;
use serde_json::{Value, json};
use support::*;
use tokio_util::sync::CancellationToken;

const TID: u64 = 3;
/// Pairgoth's `auth.shared_secret`.
const SECRET: &str = "e2e-pairgoth-key";

/// Six quick moves on 19x19, then the players stop: the arbiter records the result.
fn short_game() -> SimGame {
    let size = BoardSize::NINETEEN;
    let p = |s: &str| Move::Play(Point::parse_human(s, size).expect("point"));
    let moves = ["Q16", "D4", "Q4", "D16", "C3", "R3"];
    let colours = [Color::Black, Color::White];
    let list = moves
        .iter()
        .enumerate()
        .map(|(i, m)| (colours[i % 2], p(m)))
        .collect();
    SimGame::from_moves("tournament-short", 19, list)
}

fn spawn_boards(ports: &Path, cancel: &CancellationToken) -> Vec<goban_hardware::sim::SimTable> {
    let options = SimulateOptions {
        boards: 2,
        profile: HumanProfile {
            speed: 20.0,
            ..HumanProfile::default()
        },
        script: FaultScript::default(),
        seed: 5,
        shared_port: false,
        diffs: true,
        transport: Transport::Pty(ports.to_path_buf()),
    };
    goban_hardware::sim::spawn_tables(&[short_game()], &options, cancel).expect("tables")
}

fn write_config(work: &Path, http_port: u16, prefix: &str, pairgoth: &str) -> std::path::PathBuf {
    let ports = work.join("ports");
    let mut text = format!(
        "[server]\nlisten = \"127.0.0.1:{http_port}\"\narbiter_tokens = [\"{TOKEN}\"]\n\
         [journal]\npath = {:?}\n[mqtt]\nurl = \"mqtt://127.0.0.1:1883\"\nprefix = \"{prefix}\"\n\
         client_id = \"{prefix}\"\nmax_backoff = \"500ms\"\n\
         [tournament]\nsystem = \"swiss\"\nevent = \"Test Open\"\nplace = \"Hall [B]\"\n\
         retry = \"200ms\"\n\
         [tournament.pairgoth]\nurl = \"{pairgoth}\"\ntournament = {TID}\nauth = \"token\"\n\
         shared_secret = \"{SECRET}\"\n",
        work.join("journal.sqlite").display().to_string()
    );
    for i in 1..=2 {
        let (board, clock) = sim_paths(&ports, &format!("table-{i}"));
        text.push_str(&format!(
            "[[board]]\nid = \"table-{i}\"\nboard_port = {:?}\nclock_port = {:?}\ntable = {i}\n\
             time_control = \"byoyomi-cn:main=20m,reserve=3,period=30s\"\n",
            board.display().to_string(),
            clock.display().to_string()
        ));
    }
    let path = work.join("goban-bridge.toml");
    std::fs::write(&path, text).expect("write config");
    path
}

async fn arbiter_post(url: &str, body: Value) -> Value {
    let response = http()
        .post(url)
        .bearer_auth(TOKEN)
        .json(&body)
        .timeout(Duration::from_secs(20))
        .send()
        .await
        .expect("post");
    let status = response.status();
    let text = response.text().await.expect("text");
    assert!(status.is_success(), "{url}: {status} {text}");
    serde_json::from_str(&text).expect("json")
}

async fn wait_until(limit: Duration, mut check: impl FnMut() -> bool, what: &str) {
    let deadline = std::time::Instant::now() + limit;
    while !check() {
        assert!(
            std::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn round_one_is_played_pushed_once_and_round_two_imported() {
    let server = PairgothServer::start(Some(SECRET)).await;
    server.add_tournament(
        TID,
        &[
            (1, "Li", "Wei"),
            (2, "Wang", "Fang"),
            (3, "Zhang", "Min"),
            (4, "Chen", "Jie"),
        ],
        7.5,
    );
    server.set_round(TID, 1, &[(11, 1, 2, 1, 0), (12, 2, 4, 3, 0)]);
    let work = tempfile::tempdir().expect("tempdir");
    let http_port = free_port();
    let prefix = format!("goban-tour-{}", std::process::id());
    let config = write_config(work.path(), http_port, &prefix, &server.api_url());
    let mut mqtt = Subscriber::connect(1883, &prefix).await;
    let mut daemon = Daemon::run(&config);
    let base = format!("http://127.0.0.1:{http_port}/api/v1");
    wait_for(&format!("{base}/health"), Duration::from_secs(30), |_| true).await;

    // Round 1 from Pairgoth: both tables seated, waiting for the arbiter.
    let seated = arbiter_post(
        &format!("{base}/tournament/round"),
        json!({"source": "pairgoth", "round": 1}),
    )
    .await;
    assert_eq!(seated["round"], 1);
    assert_eq!(seated["tables"][0]["board"], "table-1");
    assert_eq!(seated["tables"][0]["black_name"], "Li Wei");
    assert_eq!(seated["tables"][1]["status"], "waiting");
    let started = arbiter_post(&format!("{base}/tournament/start"), json!({})).await;
    assert!(
        started["tables"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["status"] == "started"),
        "{started}"
    );
    let board1 = wait_for(
        &format!("{base}/boards/table-1"),
        Duration::from_secs(10),
        |s| s["phase"] == "playing",
    )
    .await;
    assert_eq!(board1["black"], "Li Wei");
    assert_eq!(board1["white"], "Wang Fang");

    // The record names the event, round and place of the config and the round, and the
    // time system the game runs (Pairgoth's, 10 min + 5 s Fischer, not the board's
    // byo-yomi), and the rules core's own reader reads them back.
    let sgf = http()
        .get(format!("{base}/boards/table-1/sgf"))
        .send()
        .await
        .expect("GET sgf")
        .text()
        .await
        .expect("sgf text");
    for needle in [
        "EV[Test Open]",
        "RO[1]",
        "PC[Hall [B\\]]",
        "TM[600]",
        "OT[Fischer +5s per move]",
    ] {
        assert!(sgf.contains(needle), "{needle} missing in {sgf}");
    }
    let read = goban_rules::sgf::read_sgf(&sgf).expect("the record reads back");
    let info = &read[0].info;
    assert_eq!(
        (
            info.event.as_deref(),
            info.round.as_deref(),
            info.place.as_deref()
        ),
        (Some("Test Open"), Some("1"), Some("Hall [B]"))
    );
    assert_eq!(info.time_limit, Some(600.0));
    assert_eq!(info.overtime.as_deref(), Some("Fischer +5s per move"));

    // The simulated players play six moves on each board.
    let cancel = CancellationToken::new();
    let _tables = spawn_boards(&work.path().join("ports"), &cancel);
    for b in ["table-1", "table-2"] {
        wait_for(
            &format!("{base}/boards/{b}"),
            Duration::from_secs(90),
            |s| s["move_number"].as_u64() >= Some(6),
        )
        .await;
    }

    // The arbiter confirms: Black resigned at table 1, White won by time at table 2.
    arbiter_post(
        &format!("{base}/boards/table-1/result"),
        json!({"result": "W+R", "force": true}),
    )
    .await;
    arbiter_post(
        &format!("{base}/boards/table-2/result"),
        json!({"result": "B+T", "force": true}),
    )
    .await;
    wait_until(
        Duration::from_secs(20),
        || server.puts().len() == 2,
        "two Pairgoth pushes",
    )
    .await;
    let mut puts = server.puts();
    puts.sort();
    assert_eq!(
        puts,
        vec![(TID, 1, 11, "w".to_owned()), (TID, 1, 12, "b".to_owned())]
    );
    assert!(server.rejected().is_empty(), "{:?}", server.rejected());
    assert_eq!(
        server.tokens_given(),
        1,
        "one login for the round and its results"
    );
    let published = mqtt
        .wait("/tournament/results", Duration::from_secs(20), |p| {
            p.contains("\"table\":2")
        })
        .await;
    let published: Value = serde_json::from_str(&published).expect("json");
    assert_eq!(
        (
            published["outcome"].as_str(),
            published["pairgoth"].as_str()
        ),
        (Some("black_wins"), Some("b"))
    );
    mqtt.wait("/tournament/standings", Duration::from_secs(20), |p| {
        p.contains("\"points\":2")
    })
    .await;
    let standings = wait_for(
        &format!("{base}/tournament/standings"),
        Duration::from_secs(5),
        |s| s["standings"].as_array().is_some_and(|l| l.len() == 4),
    )
    .await;
    let winners: Vec<&str> = standings["standings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["points"] == 2)
        .filter_map(|l| l["player"].as_str())
        .collect();
    assert_eq!(winners.len(), 2);
    // Pairgoth lists (id, table, white, black): White 2 won table 1, Black 3 table 2.
    assert!(
        winners.contains(&"2") && winners.contains(&"3"),
        "{standings}"
    );

    // The archive names each game by its round and table, as docs/deploy.md says.
    let zip = http()
        .get(format!("{base}/archive.zip"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("archive.zip")
        .bytes()
        .await
        .expect("zip bytes");
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(zip)).expect("zip");
    assert!(zip.by_name("round-01-table-001.sgf").is_ok());
    assert!(zip.by_name("round-01-table-002.sgf").is_ok());
    let mut index = String::new();
    std::io::Read::read_to_string(&mut zip.by_name("index.csv").expect("index"), &mut index)
        .expect("read index");
    // file, game, board, round, table: the index has the round and the table too.
    assert!(
        index
            .lines()
            .any(|l| l.starts_with("round-01-table-002.sgf,") && l.contains(",table-2,1,2,")),
        "{index}"
    );

    // kill -9 and restart: the results are still there and nothing is pushed twice.
    daemon.kill9();
    let mut daemon = Daemon::run(&config);
    wait_for(&format!("{base}/health"), Duration::from_secs(30), |_| true).await;
    let results = wait_for(
        &format!("{base}/tournament/results"),
        Duration::from_secs(10),
        |r| r.as_array().is_some_and(|a| a.len() == 2),
    )
    .await;
    assert_eq!(results[0]["opengotha"], "RESULT_WHITEWINS");
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(server.puts().len(), 2, "a restart must not push again");

    // Round 2, paired in Pairgoth after round 1's results.
    server.set_round(TID, 2, &[(21, 1, 1, 4, 0), (22, 2, 3, 2, 0)]);
    let round2 = arbiter_post(
        &format!("{base}/tournament/round"),
        json!({"source": "pairgoth", "round": 2}),
    )
    .await;
    assert_eq!(round2["round"], 2);
    assert_eq!(round2["tables"][0]["black_name"], "Chen Jie");
    assert_eq!(round2["tables"][0]["status"], "waiting");
    let public = wait_for(
        &format!("{base}/tournament/round"),
        Duration::from_secs(5),
        |_| true,
    )
    .await;
    assert_eq!(public["round"], 2);
    cancel.cancel();
    daemon.terminate();
    server.stop();
}
