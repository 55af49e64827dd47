//! The Pairgoth client against a server that answers as Pairgoth's code does (`pairgoth/server.rs`), over real HTTP on loopback, with and without its authentication.

mod pairgoth;

use std::time::Duration;

use goban_bridge::config::PairgothConfig;
use goban_bridge::tournament::pairgoth::{PairgothClient, PairgothError};
use goban_tournament::pairgoth::ResultBody;
use goban_tournament::{Decision, Outcome, PlayerId, TableNo};
use pairgoth::server::PairgothServer;

/// Pairgoth's `auth.shared_secret`: 16 ASCII characters.
const SECRET: &str = "s3cr3t-for-tests";

async fn build_server() -> PairgothServer {
    let server = PairgothServer::start(Some(SECRET)).await;
    server.add_tournament(
        7,
        &[
            (1, "Li", "Wei"),
            (2, "Wang", "Fang"),
            (3, "Zhang", "Min"),
            (4, "Chen", "Jie"),
            (5, "Odd", "One"),
        ],
        7.5,
    );
    server.set_round(
        7,
        1,
        &[(101, 1, 1, 2, 0), (102, 2, 3, 4, 2), (103, 0, 5, 0, 0)],
    );
    server
}

/// A client with Pairgoth's token flow and `secret`.
fn build_client(server: &PairgothServer, secret: &str) -> PairgothClient {
    let config: PairgothConfig = toml::from_str(&format!(
        "url = \"{}\"\ntournament = 7\nauth = \"token\"\nshared_secret = \"{secret}\"\n",
        server.api_url()
    ))
    .unwrap();
    PairgothClient::from_config(&config).unwrap()
}

#[tokio::test]
async fn loads_a_round_with_names_handicap_komi_clock_and_byes() {
    let server = build_server().await;
    let round = build_client(&server, SECRET)
        .load_round(7, 1)
        .await
        .unwrap();
    assert_eq!(round.pairings.len(), 2);
    let t1 = round.at_table(TableNo(1)).unwrap();
    assert_eq!(
        (t1.black.as_str(), t1.white.as_str(), t1.game_id),
        ("2", "1", Some(101))
    );
    assert_eq!(round.display_name(&t1.black), "Wang Fang");
    assert_eq!(t1.komi, Some(7.5));
    assert_eq!(
        t1.time_control.unwrap().to_string(),
        "fischer:main=10m,increment=5s"
    );
    let t2 = round.at_table(TableNo(2)).unwrap();
    assert_eq!((t2.handicap, t2.komi), (2, Some(0.0)));
    assert_eq!(round.byes, vec![PlayerId::from("5")]);
    assert_eq!(server.tokens_given(), 1, "one token for the three requests");
    assert!(server.rejected().is_empty(), "{:?}", server.rejected());
    server.stop();
}

#[tokio::test]
async fn pushes_results_as_results_handler_reads_them() {
    let server = build_server().await;
    let client = build_client(&server, SECRET);
    let body = ResultBody::new(101, Decision::played(Outcome::WhiteWins));
    client.put_result(7, 1, &body).await.unwrap();
    let draw = ResultBody::new(102, Decision::played(Outcome::Draw));
    client.put_result(7, 1, &draw).await.unwrap();
    assert_eq!(
        server.puts(),
        vec![(7, 1, 101, "w".to_owned()), (7, 1, 102, "=".to_owned())]
    );
    let read_back = client.results(7, 1).await.unwrap();
    let g102 = read_back.iter().find(|g| g.id == 102).unwrap();
    assert_eq!(g102.r.as_deref(), Some("="));
    assert!(server.rejected().is_empty(), "{:?}", server.rejected());
    server.stop();
}

#[tokio::test]
async fn a_restarted_pairgoth_is_logged_into_again_once() {
    let server = build_server().await;
    let client = build_client(&server, SECRET);
    client.load_round(7, 1).await.unwrap();
    server.forget_tokens();
    let body = ResultBody::new(101, Decision::played(Outcome::BlackWins));
    client.put_result(7, 1, &body).await.unwrap();
    assert_eq!(server.tokens_given(), 2);
    assert_eq!(server.result(7, 1, 101).as_deref(), Some("b"));
    server.stop();
}

#[tokio::test]
async fn a_wrong_shared_secret_is_an_authentication_error_not_a_retry() {
    let server = build_server().await;
    let client = build_client(&server, "not-the-secret!!");
    let refused = client.load_round(7, 1).await;
    let error = refused.unwrap_err();
    assert!(matches!(error, PairgothError::Auth(_)), "{error:?}");
    assert!(!error.is_transient());
    assert!(error.to_string().contains("shared_secret"), "{error}");
    assert_eq!(server.tokens_given(), 0);
    server.stop();
}

#[tokio::test]
async fn pairgoth_without_authentication_needs_no_token() {
    let server = PairgothServer::start(None).await;
    server.add_tournament(7, &[(1, "Li", "Wei"), (2, "Wang", "Fang")], 6.5);
    server.set_round(7, 1, &[(101, 1, 1, 2, 0)]);
    let client = PairgothClient::new(&server.api_url(), None, Duration::from_secs(5)).unwrap();
    let round = client.load_round(7, 1).await.unwrap();
    assert_eq!(round.pairings.len(), 1);
    let body = ResultBody::new(101, Decision::played(Outcome::WhiteWins));
    client.put_result(7, 1, &body).await.unwrap();
    assert_eq!(server.puts(), vec![(7, 1, 101, "w".to_owned())]);
    server.stop();
}

#[tokio::test]
async fn errors_are_typed_and_say_whether_to_retry() {
    let server = build_server().await;
    let client = build_client(&server, SECRET);
    let unknown_game = client
        .put_result(
            7,
            1,
            &ResultBody::new(999, Decision::played(Outcome::BlackWins)),
        )
        .await;
    assert!(
        matches!(
            &unknown_game,
            Err(PairgothError::Status { status: 400, .. })
        ),
        "{unknown_game:?}"
    );
    assert!(!unknown_game.unwrap_err().is_transient());
    server.fail_next_puts(1);
    let down = client
        .put_result(
            7,
            1,
            &ResultBody::new(101, Decision::played(Outcome::BlackWins)),
        )
        .await;
    assert!(
        down.as_ref().is_err_and(PairgothError::is_transient),
        "{down:?}"
    );
    let no_auth = PairgothClient::new(&server.api_url(), None, Duration::from_secs(5))
        .unwrap()
        .load_round(7, 1)
        .await;
    assert!(matches!(
        no_auth,
        Err(PairgothError::Status { status: 401, .. })
    ));
    // TournamentHandler.get: "no tournament with id #8", a 400.
    let missing = client.load_round(8, 1).await;
    assert!(
        matches!(&missing, Err(PairgothError::Status { status: 400, body }) if body.contains("no tournament with id #8")),
        "{missing:?}"
    );
    server.stop();
    let gone = client.load_round(7, 1).await;
    assert!(gone.is_err_and(|e| e.is_transient()));
}

/// The server answers as Pairgoth's code does: the reference's `res` is "missing result".
#[tokio::test]
async fn the_test_server_answers_as_pairgoths_code() {
    let server = PairgothServer::start(None).await;
    server.add_tournament(7, &[(1, "Li", "Wei"), (2, "Wang", "Fang")], 7.5);
    server.set_round(7, 1, &[(101, 1, 1, 2, 0)]);
    let http = reqwest::Client::new();
    let url = format!("{}/tour/7/res/1", server.api_url());
    let send = |builder: reqwest::RequestBuilder| async move {
        let answer = builder.send().await.unwrap();
        (answer.status().as_u16(), answer.text().await.unwrap())
    };
    // ApiServlet.validateAccept: reqwest's default `Accept: */*` is not JSON.
    let (status, body) = send(http.get(&url)).await;
    assert_eq!(
        (status, body.contains("Invalid 'Accept' header")),
        (400, true),
        "{body}"
    );
    let put = || http.put(&url).header("Accept", "application/json");
    // ResultsHandler.put: `res` (Pairgoth's doc/reference.md) is not what the code reads.
    let (status, body) = send(put().json(&serde_json::json!({"id": 101, "res": "b"}))).await;
    assert_eq!(
        (status, body.contains("missing result")),
        (400, true),
        "{body}"
    );
    let (status, body) = send(put().json(&serde_json::json!({"id": 999, "result": "b"}))).await;
    assert_eq!((status, body.contains("invalid game id")), (400, true));
    let (status, _) = send(put().json(&serde_json::json!({"id": 101, "result": "B"}))).await;
    assert_eq!(status, 500, "Game.Result.fromSymbol throws an Error");
    let (status, body) = send(put().body("{}")).await;
    assert_eq!(
        (status, body.contains("no content type header")),
        (400, true)
    );
    assert!(server.puts().is_empty());
    let (status, _) = send(put().json(&serde_json::json!({"id": 101, "result": "w"}))).await;
    assert_eq!(status, 200);
    assert_eq!(server.result(7, 1, 101).as_deref(), Some("w"));
    server.stop();
}
