//! The tournament desk in-process over real HTTP and a real SQLite file: OpenGotha file in and out,
//! `start = "clock"`, re-seating, arbiter decisions, CSV rounds, refusals and the OpenAPI entries.

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
        (Some("Aurélie Morel"), Some("Loïc Le Gall"))
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

    // An arbiter's decision (White wins by default) and a board's confirmed result reach the file.
    let (status, decided) = api
        .post(
            "/tournament/tables/2/result",
            json!({"outcome": "white_wins", "by_default": true, "note": "absent"}),
        )
        .await;
    assert_eq!(status, 200, "{decided}");
    assert_eq!(decided["opengotha"], "RESULT_WHITEWINS_BYDEF");
    let (status, _) = api
        .post(
            "/boards/table-1/result",
            json!({"result": "B+R", "force": true}),
        )
        .await;
    assert_eq!(status, 200);
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

    // Round robin standings: ZHANGMIN won at table 1 (Black), LE GALLLOÏC by default at table 2.
    let (_, standings) = api.get("/tournament/standings").await;
    assert_eq!(standings["system"], "round_robin");
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

    // Upload the file itself: the export carries every confirmed result.
    let (status, _) = api
        .post(
            "/tournament/round",
            json!({"source": "opengotha", "round": 2, "document": CLUB}),
        )
        .await;
    assert_eq!(status, 200);
    let export = api
        .http
        .get(format!("{}/tournament/opengotha", api.base))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
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
