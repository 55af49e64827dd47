//! Pairgoth's JSON shapes, as its code reads and writes them, and their conversion into a [`Round`].
//!
//! Where Pairgoth's `doc/reference.md` and its code disagree, the code
//! wins (it is what answers): the files named are under
//! `api-webapp/src/main/kotlin/org/jeudego/pairgoth/`.
//! - `GET /api/tour/#tid`: `Tournament.toJson` (`model/Tournament.kt`),
//!   with `timeSystem` from `model/TimeSystem.kt`.
//! - `GET /api/tour/#tid/part`: `Player.toJson` (`model/Pairable.kt`).
//! - `GET /api/tour/#tid/pair/#rn`: `{"games", "pairables", "unpairables"}`
//!   (`api/PairingHandler.kt`), each game `Game.toJson` (`model/Game.kt`):
//!   `{"id","t","w","b","h","r"}`.
//! - `GET /api/tour/#tid/res/#rn`: the round's games, `Game.toJson` again
//!   (`api/ResultsHandler.kt`).
//! - `PUT /api/tour/#tid/res/#rn`: `{"id", "result"}`: `ResultsHandler.put`
//!   reads `payload.getChar("result")`, and Pairgoth's own results page
//!   sends `{ id: id, result: result }` (`view-webapp/.../js/tour-results.inc.js`);
//!   the reference's `res` is answered 400 "missing result".
//! - Answers `{"success": true}`, or `{"success": false, "error": …}` with
//!   the status (`server/ApiServlet.kt`, `error`).
//!
//! The HTTP client lives in the daemon; this module only says what the bytes mean.

use std::str::FromStr;

use goban_referee::clock::{Millis, TimeControl};
use serde::{Deserialize, Serialize};

use crate::{Decision, Pairing, Player, PlayerId, Round, TableNo, TournamentError};

/// `GET /api/tour/#tid/pair/#rn`: the round's games and who is (un)pairable.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairingsAnswer {
    /// The games of the round.
    pub games: Vec<PairgothGame>,
    /// Players that could still be paired.
    #[serde(default)]
    pub pairables: Vec<u64>,
    /// Players skipping the round.
    #[serde(default)]
    pub unpairables: Vec<u64>,
}

/// One game as Pairgoth lists it (`Game.toJson`): id, table, white, black,
/// handicap, result. A player id of 0 is a bye; a table of 0 is "unpaired".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairgothGame {
    /// Game id, used to send the result back.
    pub id: u64,
    /// Table number.
    pub t: u32,
    /// White player id.
    pub w: u64,
    /// Black player id.
    pub b: u64,
    /// Handicap stones.
    #[serde(default)]
    pub h: u8,
    /// The result's symbol (`Game.Result`: `?`, `b`, `w`, `=`, `X`, `#`, `0`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub r: Option<String>,
}

/// One registered player (`GET /api/tour/#tid/part`). Unlisted fields are ignored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairgothPlayer {
    /// Player id.
    pub id: u64,
    /// Last name.
    pub name: String,
    /// First name.
    #[serde(default)]
    pub firstname: String,
    /// Rank, -30 (30k) to 8 (9D).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank: Option<i32>,
    /// Country code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
    /// Club.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub club: Option<String>,
}

/// The tournament fields this crate uses (`GET /api/tour/#tid`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PairgothTournament {
    /// Tournament id.
    #[serde(default)]
    pub id: u64,
    /// Full name.
    #[serde(default)]
    pub name: String,
    /// Number of rounds.
    #[serde(default)]
    pub rounds: u32,
    /// Komi (default 7.5 in Pairgoth).
    #[serde(default)]
    pub komi: Option<f64>,
    /// The time system.
    #[serde(default)]
    pub time_system: Option<PairgothTimeSystem>,
}

/// Pairgoth's `TimeSystem`; times in seconds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PairgothTimeSystem {
    /// `CANADIAN`, `JAPANESE`, `FISCHER` or `SUDDEN_DEATH`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Main time.
    #[serde(default)]
    pub main_time: u64,
    /// Fischer increment.
    #[serde(default)]
    pub increment: u64,
    /// Fischer maximum time (0: none).
    #[serde(default)]
    pub max_time: u64,
    /// Byo-yomi period (Japanese) or block (Canadian).
    #[serde(default)]
    pub byoyomi: u64,
    /// Japanese periods.
    #[serde(default)]
    pub periods: u32,
    /// Canadian stones per block.
    #[serde(default)]
    pub stones: u32,
}

/// The body of `PUT /api/tour/#tid/res/#rn`: `ResultsHandler.put` reads
/// `payload.getInt("id")` and `payload.getChar("result")`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultBody {
    /// Game id.
    pub id: u64,
    /// Result symbol (`Game.Result`): `b`, `w`, `=`, `X`, `?`, `#`, `0`.
    pub result: String,
}

impl ResultBody {
    /// The body that records `decision` for game `id`.
    #[must_use]
    pub fn new(id: u64, decision: Decision) -> Self {
        Self {
            id,
            result: decision.pairgoth_code().to_owned(),
        }
    }
}

/// Pairgoth's answer to a POST, PUT or DELETE.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SuccessAnswer {
    /// True when the request was applied.
    pub success: bool,
    /// The new object's id, for some POSTs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u64>,
    /// The error message when `success` is false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl PairgothTimeSystem {
    /// In the referee's terms; `None` for an unknown type or an invalid combination.
    #[must_use]
    pub fn time_control(&self) -> Option<TimeControl> {
        let main = Millis::seconds(self.main_time);
        let tc = match self.kind.as_str() {
            "SUDDEN_DEATH" => TimeControl::Absolute { main },
            "JAPANESE" => TimeControl::ByoyomiJp {
                main,
                periods: self.periods,
                period: Millis::seconds(self.byoyomi),
            },
            "CANADIAN" => TimeControl::Canadian {
                main,
                moves: self.stones,
                block: Millis::seconds(self.byoyomi),
            },
            "FISCHER" => TimeControl::Fischer {
                main,
                increment: Millis::seconds(self.increment),
                max: (self.max_time > 0).then(|| Millis::seconds(self.max_time)),
            },
            _ => return None,
        };
        TimeControl::from_str(&tc.to_string()).ok()
    }
}

/// Pairgoth's rank number as players write it: -30 → "30k", -1 → "1k", 0 → "1d", 8 → "9d".
#[must_use]
pub fn rank_text(rank: i32) -> String {
    if rank < 0 {
        format!("{}k", -rank)
    } else {
        format!("{}d", rank + 1)
    }
}

/// Builds round `number` from Pairgoth's answers. Games with a player id of
/// 0 are byes; games with table 0 are not seated yet and are refused.
///
/// # Errors
/// [`TournamentError::UnknownPlayer`] for an id `players` does not list,
/// [`TournamentError::EmptyRound`] when no game is paired, or a
/// validation error of [`Round::validated`].
pub fn round_from(
    number: u32,
    pairings: &PairingsAnswer,
    players: &[PairgothPlayer],
    tournament: Option<&PairgothTournament>,
) -> Result<Round, TournamentError> {
    let komi = tournament.and_then(|t| t.komi);
    let time_control = tournament
        .and_then(|t| t.time_system.as_ref())
        .and_then(PairgothTimeSystem::time_control);
    let player = |id: u64| {
        players
            .iter()
            .find(|p| p.id == id)
            .ok_or_else(|| TournamentError::UnknownPlayer(id.to_string()))
    };
    let mut round = Round {
        number,
        ..Round::default()
    };
    for g in &pairings.games {
        let seated: Vec<u64> = [g.b, g.w].into_iter().filter(|id| *id != 0).collect();
        for id in &seated {
            let p = player(*id)?;
            let name = crate::full_name(&p.name, &p.firstname);
            let key = PlayerId(id.to_string());
            round.players.insert(
                key.clone(),
                Player {
                    id: key,
                    name,
                    rank: p.rank.map(rank_text),
                    club: p.club.clone().filter(|c| !c.is_empty()),
                    country: p.country.clone().filter(|c| !c.is_empty()),
                },
            );
        }
        if seated.len() < 2 {
            round
                .byes
                .extend(seated.into_iter().map(|id| PlayerId(id.to_string())));
            continue;
        }
        round.pairings.push(Pairing {
            table: TableNo(g.t),
            black: PlayerId(g.b.to_string()),
            white: PlayerId(g.w.to_string()),
            handicap: g.h,
            komi: if g.h > 0 { Some(0.0) } else { komi },
            time_control,
            colors_known: true,
            game_id: Some(g.id),
        });
    }
    if round.pairings.is_empty() {
        return Err(TournamentError::EmptyRound(number));
    }
    round.validated()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build_players() -> Vec<PairgothPlayer> {
        serde_json::from_str(
            r#"[{"id":2,"name":"Dupont","firstname":"Anne","rank":-3,"country":"FR","club":"75Pa","rating":1700,"final":true},
                {"id":3,"name":"Martin","firstname":"Luc","rank":1},
                {"id":4,"name":"Bye","firstname":"Odd","rank":-10}]"#,
        )
        .unwrap()
    }

    #[test]
    fn builds_a_round_with_byes_komi_and_clock() {
        let pair: PairingsAnswer = serde_json::from_str(
            r#"{"games":[{"id":11,"t":1,"w":2,"b":3,"h":0,"r":"?"},{"id":12,"t":0,"w":4,"b":0,"h":0,"r":"?","dd":1}],"pairables":[],"unpairables":[5]}"#,
        )
        .unwrap();
        let tour: PairgothTournament = serde_json::from_str(
            r#"{"id":1,"name":"Open","rounds":5,"komi":7.5,"gobanSize":19,
                "timeSystem":{"type":"JAPANESE","mainTime":3600,"byoyomi":30,"periods":5}}"#,
        )
        .unwrap();
        let r = round_from(2, &pair, &build_players(), Some(&tour)).unwrap();
        assert_eq!(r.pairings.len(), 1);
        let p = &r.pairings[0];
        assert_eq!(
            (p.black.as_str(), p.white.as_str(), p.game_id),
            ("3", "2", Some(11))
        );
        assert_eq!(p.komi, Some(7.5));
        assert_eq!(
            p.time_control.unwrap().to_string(),
            "byoyomi-jp:main=60m,periods=5,period=30s"
        );
        assert_eq!(r.byes, vec![PlayerId::from("4")]);
        assert_eq!(r.display_name(&PlayerId::from("3")), "Martin Luc");
        assert_eq!(r.players[&PlayerId::from("2")].rank.as_deref(), Some("3k"));
        assert_eq!(
            r.players[&PlayerId::from("2")].club.as_deref(),
            Some("75Pa")
        );
        assert_eq!(
            r.players[&PlayerId::from("2")].country.as_deref(),
            Some("FR")
        );
        assert_eq!(r.players[&PlayerId::from("3")].club, None);
    }

    #[test]
    fn refuses_unknown_players_and_unseated_games() {
        let pair: PairingsAnswer =
            serde_json::from_str(r#"{"games":[{"id":1,"t":1,"w":2,"b":9,"h":0}]}"#).unwrap();
        assert!(matches!(
            round_from(1, &pair, &build_players(), None),
            Err(TournamentError::UnknownPlayer(_))
        ));
        let unseated: PairingsAnswer =
            serde_json::from_str(r#"{"games":[{"id":1,"t":0,"w":2,"b":3,"h":0}]}"#).unwrap();
        assert!(round_from(1, &unseated, &build_players(), None).is_err());
    }

    #[test]
    fn result_body_is_what_results_handler_reads() {
        let body = ResultBody::new(7, Decision::played(crate::Outcome::Draw));
        assert_eq!(
            serde_json::to_string(&body).unwrap(),
            r#"{"id":7,"result":"="}"#
        );
        assert!(serde_json::from_str::<ResultBody>(r#"{"id":7,"result":"b","extra":1}"#).is_err());
        assert_eq!(rank_text(-30), "30k");
        assert_eq!(rank_text(0), "1d");
    }
}
