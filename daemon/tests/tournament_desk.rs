//! The tournament desk in-process over real HTTP and a real SQLite file: OpenGotha file in and out,
//! `start = "clock"`, re-seating, arbiter rulings that stand, standings over the whole event, CSV
//! rounds, refusals, desk alerts (on `/health`, `/tournament/alerts` and MQTT) and the OpenAPI entries.

mod pairgoth;
mod support;

use std::path::Path;
use std::time::Duration;

use goban_tournament::opengotha::OpenGothaTournament;
use goban_tournament::{Outcome, TableNo};
use serde_json::{Value, json};

const TOKEN: &str = "desk-token";
const CLUB: &str = include_str!("data/club_2026.xml");

fn config_text(work: &Path, http_port: u16, prefix: &str) -> String {
    let mut text = format!(
        "[server]\nlisten = \"127.0.0.1:{http_port}\"\narbiter_tokens = [\"{TOKEN}\"]\n\
         [journal]\npath = {:?}\n[mqtt]\nurl = \"mqtt://127.0.0.1:1883\"\nprefix = \"{prefix}\"\nclient_id = \"{prefix}\"\n\
         [tournament]\nsystem = \"round_robin\"\nstart = \"clock\"\nretry = \"200ms\"\nopengotha_file = {:?}\n\
         [tournament.tables]\n\"2\" = \"table-2\"\n",
        work.join("journal.sqlite").display().to_string(),
        work.join("club.xml").display().to_string(),
    );
    for i in 1..=3 {
        let table = if i == 1 { "table = 1\n" } else { "" };
        text.push_str(&format!(
            "[[board]]\nid = \"table-{i}\"\nboard_port = {:?}\n{table}",
            work.join(format!("absent-{i}")).display().to_string()
        ));
    }
    text
}

struct Api {
    base: String,
    http: reqwest::Client,
}

impl Api {
    async fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> (u16, Value) {
        let mut request = self
            .http
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(TOKEN);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.expect("request");
        let status = response.status().as_u16();
        let text = response.text().await.expect("text");
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }

    async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        self.call(reqwest::Method::POST, path, Some(body)).await
    }

    async fn get(&self, path: &str) -> (u16, Value) {
        self.call(reqwest::Method::GET, path, None).await
    }

    /// `GET /tournament/opengotha` as an arbiter.
    async fn opengotha(&self) -> reqwest::Response {
        let url = format!("{}/tournament/opengotha", self.base);
        self.http.get(url).bearer_auth(TOKEN).send().await.unwrap()
    }

    /// An arbiter's ruling `outcome` at `table`; answers the status.
    async fn rule(&self, table: u32, outcome: &str) -> u16 {
        let path = format!("/tournament/tables/{table}/result");
        self.post(&path, json!({ "outcome": outcome })).await.0
    }
}

async fn wait_for_json(api: &Api, path: &str, check: impl Fn(&Value) -> bool) -> Value {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        let (_, body) = api.get(path).await;
        if check(&body) {
            return body;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{path} never showed it: {body}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn wait_for_file(path: &Path, what: &str, check: impl Fn(&OpenGothaTournament) -> bool) {
    for _ in 0..100 {
        let parsed = std::fs::read_to_string(path)
            .ok()
            .and_then(|t| OpenGothaTournament::parse(&t).ok());
        if parsed.as_ref().is_some_and(&check) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the OpenGotha file never showed {what}");
}

fn decision_at(t: &OpenGothaTournament, round: u32, table: u32) -> Option<(Outcome, bool)> {
    t.games()
        .iter()
        .find(|g| g.round == round && g.pairing.table == TableNo(table))
        .map(|g| (g.decision.outcome, g.decision.by_default))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_desk_reads_and_writes_opengotha_reseats_and_records_decisions() {
    let work = tempfile::tempdir().expect("tempdir");
    let file = work.path().join("club.xml");
    std::fs::write(&file, CLUB).expect("write club.xml");
    let http_port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let prefix = format!("goban-desk-{}", std::process::id());
    let config =
        goban_bridge::config::parse(&config_text(work.path(), http_port, &prefix)).expect("config");
    let daemon = goban_bridge::app::start(config).await.expect("daemon");
    let api = Api {
        base: format!("http://127.0.0.1:{http_port}/api/v1"),
        http: reqwest::Client::new(),
    };

    // Nothing loaded yet: 404; no token: 401.
    assert_eq!(api.get("/tournament/round").await.0, 404);
    let anonymous = api
        .http
        .post(format!("{}/tournament/start", api.base))
        .send()
        .await
        .unwrap();
    assert_eq!(anonymous.status().as_u16(), 401);

    // Round 2 of the configured OpenGotha file; start = "clock" sets both games up at once.
    let (status, round) = api
        .post(
            "/tournament/round",
            json!({"source": "opengotha", "round": 2}),
        )
        .await;
    assert_eq!(status, 200, "{round}");
    assert_eq!(round["source"], "opengotha-file");
    let tables = round["tables"].as_array().unwrap();
    assert_eq!(
        (tables[0]["board"].as_str(), tables[1]["board"].as_str()),
        (Some("table-1"), Some("table-2"))
    );
    assert!(tables.iter().all(|t| t["status"] == "started"), "{round}");
    assert_eq!(tables[1]["handicap"], 3);
    let (_, board2) = api.get("/boards/table-2").await;
    assert_eq!(
        (board2["black"].as_str(), board2["white"].as_str()),
        (Some("Morel Aurélie"), Some("Le Gall Loïc"))
    );

    // Re-seat table 2 on the spare board; the board of table 1 is refused.
    assert_eq!(
        api.post("/tournament/tables/2/seat", json!({"board": "table-1"}))
            .await
            .0,
        409
    );
    assert_eq!(
        api.post("/tournament/tables/2/seat", json!({"board": "nowhere"}))
            .await
            .0,
        404
    );
    let (status, moved) = api
        .post("/tournament/tables/2/seat", json!({"board": "table-3"}))
        .await;
    assert_eq!(status, 200, "{moved}");
    assert_eq!(moved["tables"][1]["board"], "table-3");
    assert_eq!(moved["tables"][1]["status"], "started");

    // A ruling while table 1 is still on the board: White wins. The board then ends B+R: the
    // ruling stands, and the disagreement is a desk alert on /health, the API and MQTT.
    let mut mqtt = support::Subscriber::connect(1883, &prefix).await;
    let (status, ruled) = api
        .post(
            "/tournament/tables/1/result",
            json!({"outcome": "white_wins"}),
        )
        .await;
    assert_eq!(
        (status, ruled["outcome"].as_str()),
        (200, Some("white_wins")),
        "{ruled}"
    );
    let (status, _) = api
        .post(
            "/boards/table-1/result",
            json!({"result": "B+R", "force": true}),
        )
        .await;
    assert_eq!(status, 200);
    let alerts = wait_for_json(&api, "/tournament/alerts", |a| {
        a.as_array()
            .is_some_and(|l| l.iter().any(|x| x["kind"] == "ruling_disagrees"))
    })
    .await;
    assert_eq!(alerts[0]["table"], 1, "{alerts}");
    let (_, health) = api.get("/health").await;
    assert_eq!(
        health["tournament"]["alerts"][0]["kind"], "ruling_disagrees",
        "{health}"
    );
    assert_eq!(health["status"], "degraded");
    mqtt.wait("/tournament/alerts", Duration::from_secs(20), |p| {
        p.contains("ruling_disagrees")
    })
    .await;
    let (_, results) = api.get("/tournament/results").await;
    let table1 = results
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["table"] == 1)
        .cloned();
    assert_eq!(
        table1.unwrap()["outcome"],
        "white_wins",
        "the ruling stands: {results}"
    );
    wait_for_file(&file, "the ruling at table 1", |t| {
        decision_at(t, 2, 1) == Some((Outcome::WhiteWins, false))
    })
    .await;
    // Only a ruling changes a ruling; the alert then goes.
    assert_eq!(api.rule(1, "black_wins").await, 200);
    let (_, alerts) = api.get("/tournament/alerts").await;
    assert_eq!(alerts, json!([]));

    // An arbiter's decision (White wins by default) reaches the file with the ruling.
    let (status, decided) = api
        .post(
            "/tournament/tables/2/result",
            json!({"outcome": "white_wins", "by_default": true, "note": "absent"}),
        )
        .await;
    assert_eq!(status, 200, "{decided}");
    assert_eq!(decided["opengotha"], "RESULT_WHITEWINS_BYDEF");
    wait_for_file(&file, "both round-2 results", |t| {
        decision_at(t, 2, 2) == Some((Outcome::WhiteWins, true))
            && decision_at(t, 2, 1) == Some((Outcome::BlackWins, false))
    })
    .await;
    let written = std::fs::read_to_string(&file).unwrap();
    assert_eq!(
        decision_at(&OpenGothaTournament::parse(&written).unwrap(), 1, 2),
        Some((Outcome::BlackWins, true)),
        "round 1 kept"
    );

    // The configured file with its results, without an upload.
    let export = api.opengotha().await;
    assert_eq!(export.status().as_u16(), 200);
    let exported = OpenGothaTournament::parse(&export.text().await.unwrap()).unwrap();
    assert_eq!(
        decision_at(&exported, 2, 1),
        Some((Outcome::BlackWins, false))
    );

    // Round robin standings over the whole event (CN2002 27): round 1 from the file counts.
    // Round 1: LIWEI beat MORELAURÉLIE, WANGFANG won by default, ZHANGMIN had the bye;
    // round 2: ZHANGMIN won table 1, LEGALLLOÏC table 2 by default, WANGFANG had the bye.
    let (_, standings) = api.get("/tournament/standings").await;
    assert_eq!(standings["system"], "round_robin");
    let line = |key: &str| {
        standings["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["player"] == key)
            .cloned()
            .unwrap_or_else(|| panic!("{key} missing: {standings}"))
    };
    assert_eq!(
        (
            line("LIWEI")["games"].as_u64(),
            line("LIWEI")["points"].as_u64()
        ),
        (Some(2), Some(2))
    );
    assert_eq!(line("LIWEI")["name"], "Li Wei");
    assert_eq!(line("MORELAURÉLIE")["games"], 2);
    assert_eq!(
        (
            line("ZHANGMIN")["points"].as_u64(),
            line("WANGFANG")["points"].as_u64()
        ),
        (Some(4), Some(4))
    );
    let top: Vec<&str> = standings["standings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["place"] == 1)
        .filter_map(|l| l["player"].as_str())
        .collect();
    assert_eq!(top.len(), 2, "{standings}");

    // A CSV round replaces the current one; a file that is not a round is a 422 naming the line.
    let (status, bad) = api
        .post(
            "/tournament/round",
            json!({"source": "csv", "round": 3, "document": "1,A,B\nx,C,D\n"}),
        )
        .await;
    assert_eq!(
        (status, bad["error"].as_str()),
        (422, Some("unreadable_document")),
        "{bad}"
    );
    assert!(
        bad["detail"].as_str().unwrap_or("").contains("line"),
        "{bad}"
    );
    let (status, csv) = api.post("/tournament/round", json!({"source": "csv", "round": 3, "document": "1,Ann,Bob,0,6.5\n2,Cy,Di\n7,Ed,Fay\n"})).await;
    assert_eq!(status, 200, "{csv}");
    assert_eq!(
        csv["tables"][2]["status"], "off_board",
        "no board stands at table 7"
    );
    assert_eq!(
        api.post(
            "/tournament/round",
            json!({"source": "csv", "round": 0, "document": "1,A,B"})
        )
        .await
        .0,
        400
    );
    assert_eq!(
        api.post(
            "/tournament/round",
            json!({"source": "pairgoth", "round": 1})
        )
        .await
        .0,
        409
    );

    // Round 2 again while round 3's games are on the boards: refused, naming them.
    let upload = json!({"source": "opengotha", "round": 2, "document": CLUB});
    let (status, refused) = api.post("/tournament/round", upload.clone()).await;
    assert_eq!(status, 409, "{refused}");
    let why = refused["detail"].as_str().unwrap_or("");
    assert!(why.contains("table-1 (round 3, table 1)"), "{refused}");
    assert_eq!(api.get("/tournament/round").await.1["round"], 3);
    // Once they have results, round 2 loads and is the current round, although 3 > 2.
    for table in [1, 2] {
        assert_eq!(api.rule(table, "draw").await, 200);
    }
    let (status, reloaded) = api.post("/tournament/round", upload).await;
    assert_eq!(
        (status, reloaded["round"].as_u64()),
        (200, Some(2)),
        "{reloaded}"
    );
    assert_eq!(api.get("/tournament/round").await.1["round"], 2);
    let export = api.opengotha().await;
    assert!(
        export.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/xml")
    );
    let exported =
        OpenGothaTournament::parse(&export.text().await.unwrap()).expect("OpenGotha reads it back");
    assert_eq!(
        decision_at(&exported, 2, 2),
        Some((Outcome::WhiteWins, true))
    );

    let (_, doc) = api.get("/openapi.json").await;
    for path in [
        "/api/v1/tournament/round",
        "/api/v1/tournament/standings",
        "/api/v1/tournament/tables/{table}/seat",
    ] {
        assert!(
            doc["paths"].get(path).is_some(),
            "{path} missing from OpenAPI"
        );
    }
    daemon.stop().await;
}

/// Pairgoth with its token authentication; a result it refuses the same way twice is one desk
/// alert, and that push stops instead of looping while other results still go.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_result_pairgoth_refuses_is_one_alert_not_a_loop() {
    const SECRET: &str = "0123456789abcdef";
    let server = pairgoth::server::PairgothServer::start(Some(SECRET)).await;
    server.add_tournament(
        5,
        &[
            (1, "Li", "Wei"),
            (2, "Wang", "Fang"),
            (3, "Ma", "Chao"),
            (4, "Zhang", "Min"),
        ],
        7.5,
    );
    server.set_round(5, 1, &[(101, 1, 1, 2, 0), (102, 2, 3, 4, 0)]);
    let work = tempfile::tempdir().expect("tempdir");
    let http_port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let prefix = format!("goban-desk-pg-{}", std::process::id());
    let text = format!(
        "[server]\nlisten = \"127.0.0.1:{http_port}\"\narbiter_tokens = [\"{TOKEN}\"]\n\
         [journal]\npath = {:?}\n[mqtt]\nurl = \"mqtt://127.0.0.1:1883\"\nprefix = \"{prefix}\"\nclient_id = \"{prefix}\"\n\
         [tournament]\nretry = \"200ms\"\nopengotha_file = {:?}\n\
         [tournament.pairgoth]\nurl = \"{}\"\ntournament = 5\nauth = \"token\"\nshared_secret = \"{SECRET}\"\n\
         [[board]]\nid = \"table-1\"\nboard_port = {:?}\ntable = 1\n",
        work.path().join("journal.sqlite").display().to_string(),
        work.path().join("not-yet-saved.xml").display().to_string(),
        server.api_url(),
        work.path().join("absent").display().to_string(),
    );
    let config = goban_bridge::config::parse(&text).expect("config");
    let daemon = goban_bridge::app::start(config).await.expect("daemon");
    let api = Api {
        base: format!("http://127.0.0.1:{http_port}/api/v1"),
        http: reqwest::Client::new(),
    };
    let (status, round) = api
        .post(
            "/tournament/round",
            json!({"source": "pairgoth", "round": 1}),
        )
        .await;
    assert_eq!(status, 200, "{round}");
    assert_eq!(round["tables"][0]["black_name"], "Wang Fang");
    // Pairgoth re-paired table 1 meanwhile: game 101 is gone, its result is refused (400).
    server.set_round(5, 1, &[(201, 1, 2, 1, 0), (102, 2, 3, 4, 0)]);
    assert_eq!(api.rule(1, "black_wins").await, 200);
    let alerts = wait_for_json(&api, "/tournament/alerts", |a| {
        a.as_array()
            .is_some_and(|l| l.iter().any(|x| x["kind"] == "push_refused"))
    })
    .await;
    assert_eq!(
        (alerts[0]["target"].as_str(), alerts[0]["table"].as_u64()),
        (Some("pairgoth"), Some(1))
    );
    assert!(
        alerts[0]["message"]
            .as_str()
            .unwrap()
            .contains("invalid game id"),
        "{alerts}"
    );
    let (_, health) = api.get("/health").await;
    assert_eq!(
        health["tournament"]["alerts"][0]["kind"], "push_refused",
        "{health}"
    );
    // Another table's result still goes; the refused one was tried twice, not again.
    assert_eq!(api.rule(2, "white_wins").await, 200);
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while server.puts().is_empty() {
        assert!(std::time::Instant::now() < deadline, "table 2 never pushed");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(server.puts(), vec![(5, 1, 102, "w".to_owned())]);
    let refusals = server
        .rejected()
        .iter()
        .filter(|r| r.contains("invalid game id"))
        .count();
    assert_eq!(refusals, 2, "{:?}", server.rejected());
    assert_eq!(server.tokens_given(), 1);
    // An OpenGotha file configured but not saved yet: standings still come (a warning in
    // the log), the file's download says why it cannot.
    let (status, standings) = api.get("/tournament/standings").await;
    assert_eq!(status, 200, "{standings}");
    assert_eq!(standings["standings"].as_array().map(Vec::len), Some(4));
    let (status, missing) = api.get("/tournament/opengotha").await;
    assert_eq!(status, 409, "{missing}");
    assert!(
        missing["detail"]
            .as_str()
            .unwrap_or("")
            .contains("not-yet-saved.xml"),
        "{missing}"
    );
    daemon.stop().await;
    server.stop();
}

/// The CdFO2020: rounds 1-6 played in OpenGotha, round 7 at the desk. Standings count all
/// seven (CN2002 27). The file is OpenGotha's own `tournamentfiles/CdFO2020.xml`, not in this
/// repository: `GOBAN_OPENGOTHA_FILES` names a directory holding it, else the test is skipped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn standings_after_round_seven_count_the_six_rounds_in_the_file() {
    let Some(dir) = std::env::var_os("GOBAN_OPENGOTHA_FILES") else {
        println!("skipped: GOBAN_OPENGOTHA_FILES is not set (OpenGotha's CdFO2020.xml)");
        return;
    };
    let Some(path) = find_file(Path::new(&dir), "CdFO2020.xml") else {
        println!("skipped: no CdFO2020.xml under {dir:?}");
        return;
    };
    let text = std::fs::read_to_string(&path).expect("read CdFO2020.xml");
    let file = OpenGothaTournament::parse(&text).expect("OpenGotha file");
    let work = tempfile::tempdir().expect("tempdir");
    let http_port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let prefix = format!("goban-desk-cdfo-{}", std::process::id());
    let config = format!(
        "[server]\nlisten = \"127.0.0.1:{http_port}\"\narbiter_tokens = [\"{TOKEN}\"]\n\
         [journal]\npath = {:?}\n[mqtt]\nurl = \"mqtt://127.0.0.1:1883\"\nprefix = \"{prefix}\"\nclient_id = \"{prefix}\"\n\
         [[board]]\nid = \"table-99\"\nboard_port = {:?}\ntable = 99\n",
        work.path().join("journal.sqlite").display().to_string(),
        work.path().join("absent").display().to_string(),
    );
    let daemon = goban_bridge::app::start(goban_bridge::config::parse(&config).expect("config"))
        .await
        .expect("daemon");
    let api = Api {
        base: format!("http://127.0.0.1:{http_port}/api/v1"),
        http: reqwest::Client::new(),
    };
    let load = json!({"source": "opengotha", "round": 7, "document": text});
    let (status, round) = api.post("/tournament/round", load).await;
    assert_eq!(status, 200, "{round}");
    let tables: Vec<u64> = round["tables"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["table"].as_u64())
        .collect();
    for table in &tables {
        let table = u32::try_from(*table).unwrap();
        assert_eq!(api.rule(table, "black_wins").await, 200);
    }
    // Expected from the file itself: each player's games with a result in rounds 1-6, plus round 7.
    let mut expected: std::collections::BTreeMap<String, u64> = Default::default();
    for g in file.games() {
        let counted = if g.round == 7 {
            true
        } else {
            !matches!(g.decision.outcome, Outcome::Unknown | Outcome::Cancelled)
        };
        if counted {
            for p in [&g.pairing.black, &g.pairing.white] {
                *expected.entry(p.to_string()).or_default() += 1;
            }
        }
    }
    let (_, standings) = api.get("/tournament/standings").await;
    let lines = standings["standings"].as_array().unwrap();
    let mut seven = 0;
    for line in lines {
        let player = line["player"].as_str().unwrap();
        assert_eq!(
            line["games"].as_u64(),
            Some(expected.get(player).copied().unwrap_or(0)),
            "{player}: {line}"
        );
        seven += usize::from(line["games"] == 7);
    }
    println!(
        "CdFO2020: {} players in the standings, {seven} with 7 games",
        lines.len()
    );
    assert!(seven > 0, "nobody has seven games: {standings}");
    daemon.stop().await;
}

fn find_file(dir: &Path, name: &str) -> Option<std::path::PathBuf> {
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if let Some(found) = find_file(&path, name) {
                return Some(found);
            }
        } else if path.file_name().is_some_and(|n| n == name) {
            return Some(path);
        }
    }
    None
}
