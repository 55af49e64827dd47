//! The Pairgoth client against a strict server written to Pairgoth's API reference, over real HTTP on loopback.

mod pairgoth;

use std::time::Duration;

use goban_bridge::tournament::pairgoth::{PairgothClient, PairgothError};
use goban_tournament::pairgoth::ResultBody;
use goban_tournament::{Decision, Outcome, PlayerId, TableNo};
use pairgoth::server::PairgothServer;

const AUTH: &str = "Bearer pairgoth-test";

async fn build_server() -> PairgothServer {
    let server = PairgothServer::start(Some(AUTH)).await;
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

fn build_client(server: &PairgothServer, auth: Option<&str>) -> PairgothClient {
    PairgothClient::new(&server.api_url(), auth, Duration::from_secs(5)).unwrap()
}

#[tokio::test]
async fn loads_a_round_with_names_handicap_komi_clock_and_byes() {
    let server = build_server().await;
    let round = build_client(&server, Some(AUTH))
        .load_round(7, 1)
        .await
        .unwrap();
    assert_eq!(round.pairings.len(), 2);
    let t1 = round.at_table(TableNo(1)).unwrap();
    assert_eq!(
        (t1.black.as_str(), t1.white.as_str(), t1.game_id),
        ("2", "1", Some(101))
    );
    assert_eq!(round.display_name(&t1.black), "Fang Wang");
    assert_eq!(t1.komi, Some(7.5));
    assert_eq!(
        t1.time_control.unwrap().to_string(),
        "fischer:main=10m,increment=5s"
    );
    let t2 = round.at_table(TableNo(2)).unwrap();
    assert_eq!((t2.handicap, t2.komi), (2, Some(0.0)));
    assert_eq!(round.byes, vec![PlayerId::from("5")]);
    assert!(server.rejected().is_empty(), "{:?}", server.rejected());
    server.stop();
}

#[tokio::test]
async fn pushes_results_in_the_documented_shape() {
    let server = build_server().await;
    let client = build_client(&server, Some(AUTH));
    let body = ResultBody::new(101, Decision::played(Outcome::WhiteWins));
    client.put_result(7, 1, &body).await.unwrap();
    let draw = ResultBody::new(102, Decision::played(Outcome::Draw));
    client.put_result(7, 1, &draw).await.unwrap();
    assert_eq!(
        server.puts(),
        vec![(7, 1, 101, "w".to_owned()), (7, 1, 102, "=".to_owned())]
    );
    let read_back = client.results(7, 1).await.unwrap();
    assert!(read_back.contains(&ResultBody {
        id: 102,
        res: "=".into()
    }));
    assert!(server.rejected().is_empty(), "{:?}", server.rejected());
    server.stop();
}

#[tokio::test]
async fn errors_are_typed_and_say_whether_to_retry() {
    let server = build_server().await;
    let client = build_client(&server, Some(AUTH));
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
    let no_auth = build_client(&server, None).load_round(7, 1).await;
    assert!(matches!(
        no_auth,
        Err(PairgothError::Status { status: 401, .. })
    ));
    let missing = client.load_round(8, 1).await;
    assert!(matches!(
        missing,
        Err(PairgothError::Status { status: 404, .. })
    ));
    server.stop();
    let gone = client.load_round(7, 1).await;
    assert!(gone.is_err_and(|e| e.is_transient()));
}

/// The server itself is strict: what the reference does not allow is refused.
#[tokio::test]
async fn the_test_server_rejects_what_the_reference_does_not_allow() {
    let server = build_server().await;
    let http = reqwest::Client::new();
    let url = format!("{}/tour/7/res/1", server.api_url());
    let send = |builder: reqwest::RequestBuilder| async move {
        builder.send().await.unwrap().status().as_u16()
    };
    // No Accept header.
    assert_eq!(
        send(http.get(&url).header("Authorization", AUTH)).await,
        406
    );
    let put = || {
        http.put(&url)
            .header("Authorization", AUTH)
            .header("Accept", "application/json")
    };
    // Extra field, unknown code, uppercase code, missing id, not JSON.
    assert_eq!(
        send(put().json(&serde_json::json!({"id": 101, "res": "b", "note": "x"}))).await,
        400
    );
    assert_eq!(
        send(put().json(&serde_json::json!({"id": 101, "res": "B+R"}))).await,
        400
    );
    assert_eq!(
        send(put().json(&serde_json::json!({"id": 101, "res": "B"}))).await,
        400
    );
    assert_eq!(
        send(put().json(&serde_json::json!({"res": "b"}))).await,
        400
    );
    assert_eq!(send(put().body("id=101&res=b")).await, 415);
    // Undocumented method and path.
    let post = http
        .post(&url)
        .header("Authorization", AUTH)
        .header("Accept", "application/json");
    assert_eq!(send(post).await, 405);
    let other = format!("{}/tour/7/results/1", server.api_url());
    assert_eq!(
        send(
            http.get(other)
                .header("Authorization", AUTH)
                .header("Accept", "application/json")
        )
        .await,
        404
    );
    assert_eq!(server.rejected().len(), 8);
    assert!(server.puts().is_empty());
    server.stop();
}
