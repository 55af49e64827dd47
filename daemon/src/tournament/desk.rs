//! The tournament desk: the current round and its seating, confirmed results, standings; the state behind the routes.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use goban_rules::GameResult;
use goban_tournament::{Decision, Round, TableNo, TournamentError, csv_round, opengotha};
use serde::Deserialize;
use tokio::sync::Notify;
use utoipa::ToSchema;

use super::alerts::{DeskAlert, DeskAlertKind, DeskAlerts};
use super::announce::Announce;
use super::boards::{self, StateView};
use super::pairgoth::{PairgothClient, PairgothError};
use super::store::{Push, Store, StoreError, StoredResult, StoredRound};
use super::views::{ResultView, RoundView, TableView};
use crate::config::{BoardConfig, StartMode, TableKey, TournamentConfig};
use crate::publish::hub::Hub;

/// Why the desk refused.
#[derive(Debug, thiserror::Error)]
pub enum DeskError {
    /// No round is loaded yet.
    #[error("no round is loaded")]
    NoRound,
    /// The table is not in the current round.
    #[error("table {0} is not in the current round")]
    UnknownTable(u32),
    /// The board is not one of this daemon's.
    #[error("unknown board {0}")]
    UnknownBoard(String),
    /// The request does not fit the desk's state (another table's board, a started game).
    #[error("{0}")]
    Conflict(String),
    /// The round file or answer could not be read.
    #[error(transparent)]
    Source(#[from] TournamentError),
    /// Pairgoth could not be reached or refused.
    #[error(transparent)]
    Pairgoth(#[from] PairgothError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The desk's configuration is wrong.
    #[error("tournament config: {0}")]
    Config(String),
}

/// `POST /tournament/round`: where the round comes from.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(tag = "source", rename_all = "snake_case", deny_unknown_fields)]
pub enum LoadRequest {
    /// An OpenGotha file: `document` uploaded, or the configured `opengotha_file` when absent.
    Opengotha {
        /// Round number.
        #[schema(minimum = 1, maximum = 4_294_967_295.0)]
        #[serde(deserialize_with = "crate::http::whole_number::u32")]
        round: u32,
        /// The file's text.
        #[serde(default)]
        document: Option<String>,
    },
    /// A CSV `table,black,white,handicap,komi`.
    Csv {
        /// Round number.
        #[schema(minimum = 1, maximum = 4_294_967_295.0)]
        #[serde(deserialize_with = "crate::http::whole_number::u32")]
        round: u32,
        /// The file's text.
        document: String,
    },
    /// The configured Pairgoth server.
    Pairgoth {
        /// Round number.
        #[schema(minimum = 1, maximum = 4_294_967_295.0)]
        #[serde(deserialize_with = "crate::http::whole_number::u32")]
        round: u32,
        /// Tournament id; default: the configured one.
        #[schema(minimum = 0, maximum = 4_294_967_295.0)]
        #[serde(default, deserialize_with = "crate::http::whole_number::option_u32")]
        tournament: Option<u32>,
    },
}

/// Round `number` of an OpenGotha document; what OpenGotha's import would leave out of
/// that round (a game naming an unknown player) is logged.
fn opengotha_round(document: &str, number: u32) -> Result<Round, DeskError> {
    let file = opengotha::OpenGothaTournament::parse(document)?;
    for skipped in file
        .skipped()
        .iter()
        .filter(|s| s.round == number || s.round == 0)
    {
        tracing::warn!(round = number, reason = %skipped.reason, "OpenGotha file: left out as OpenGotha leaves it out");
    }
    Ok(file.round(number)?)
}

/// The desk. Cheap to share behind an `Arc`.
pub struct Desk {
    pub(crate) config: TournamentConfig,
    tables: BTreeMap<TableNo, String>,
    store: Mutex<Store>,
    hub: Hub,
    pub(crate) pairgoth: Option<PairgothClient>,
    /// Wakes the pusher when a result is queued.
    pub(crate) wake: Notify,
    alerts: DeskAlerts,
    /// Where alerts are announced on MQTT, once connected.
    announce: std::sync::OnceLock<Arc<dyn Announce>>,
}

impl std::fmt::Debug for Desk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Desk")
            .field("tables", &self.tables.len())
            .finish_non_exhaustive()
    }
}

pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

impl Desk {
    /// Opens the desk over the journal file at `journal`.
    pub fn open(
        config: TournamentConfig,
        boards: &[BoardConfig],
        journal: &Path,
        hub: Hub,
    ) -> Result<Arc<Self>, DeskError> {
        let tables = table_map(&config, boards).map_err(DeskError::Config)?;
        let pairgoth = match &config.pairgoth {
            Some(p) => Some(PairgothClient::from_config(p)?),
            None => None,
        };
        let store = Mutex::new(Store::open(journal)?);
        Ok(Arc::new(Self {
            config,
            tables,
            store,
            hub,
            pairgoth,
            wake: Notify::new(),
            alerts: DeskAlerts::default(),
            announce: std::sync::OnceLock::new(),
        }))
    }

    /// Gives the desk its MQTT voice for alerts (set once, at start).
    pub(crate) fn set_announce(&self, announce: Arc<dyn Announce>) {
        // Set once by `start`; a second call would find it set and change nothing.
        let _ = self.announce.set(announce);
        self.publish_alerts();
    }

    pub(crate) fn store(&self) -> std::sync::MutexGuard<'_, Store> {
        // A poisoned lock means a panic mid-call; SQLite's transaction kept the file whole.
        self.store.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Loads and seats a round; under `start = "clock"` its games are set up at once.
    pub async fn load(&self, request: LoadRequest) -> Result<RoundView, DeskError> {
        let stored = self.read_round(request).await?;
        let seats: Vec<(TableNo, String)> = stored
            .round
            .pairings
            .iter()
            .filter_map(|p| self.tables.get(&p.table).map(|b| (p.table, b.clone())))
            .collect();
        self.check_boards_free(stored.round.number, &seats)?;
        self.store().save_round(&stored, &seats, now_ms())?;
        tracing::info!(round = stored.round.number, source = %stored.source, seated = seats.len(), "tournament round loaded");
        if self.config.start == StartMode::Clock {
            return self.start_all().await;
        }
        self.round_view()
    }

    async fn read_round(&self, request: LoadRequest) -> Result<StoredRound, DeskError> {
        Ok(match request {
            LoadRequest::Csv { round, document } => StoredRound {
                round: csv_round::read_round(&document, round)?,
                source: "csv".into(),
                document: None,
            },
            LoadRequest::Opengotha {
                round,
                document: Some(document),
            } => StoredRound {
                round: opengotha_round(&document, round)?,
                source: "opengotha".into(),
                document: Some(document),
            },
            LoadRequest::Opengotha {
                round,
                document: None,
            } => {
                let path = self.config.opengotha_file.clone().ok_or_else(|| {
                    DeskError::Config("no opengotha_file configured; upload the document".into())
                })?;
                let text = tokio::fs::read_to_string(&path)
                    .await
                    .map_err(|e| DeskError::Config(format!("{}: {e}", path.display())))?;
                let round = opengotha_round(&text, round)?;
                StoredRound {
                    round,
                    source: "opengotha-file".into(),
                    document: None,
                }
            }
            LoadRequest::Pairgoth { round, tournament } => {
                let client = self.pairgoth.as_ref().ok_or_else(|| {
                    DeskError::Config("no [tournament.pairgoth] configured".into())
                })?;
                let tid = tournament
                    .map(u64::from)
                    .or_else(|| self.config.pairgoth.as_ref().map(|p| p.tournament))
                    .unwrap_or_default();
                let round = client.load_round(tid, round).await?;
                StoredRound {
                    round,
                    source: format!("pairgoth:{tid}"),
                    document: None,
                }
            }
        })
    }

    /// Refuses a round whose boards still play another round's game: loading it
    /// would start its games over those. Any other load makes that round the current one.
    fn check_boards_free(&self, round: u32, seats: &[(TableNo, String)]) -> Result<(), DeskError> {
        let live = self.store().live_seats_elsewhere(round)?;
        let busy: Vec<String> = live
            .iter()
            .filter(|(_, _, board)| seats.iter().any(|(_, b)| b == board))
            .map(|(r, t, board)| format!("{board} (round {r}, table {t})"))
            .collect();
        if busy.is_empty() {
            return Ok(());
        }
        Err(DeskError::Conflict(format!(
            "round {round} not loaded: these boards still play a game without a result: {}; \
             let them finish or record a decision first",
            busy.join(", ")
        )))
    }

    fn current(&self) -> Result<StoredRound, DeskError> {
        self.store().latest_round()?.ok_or(DeskError::NoRound)
    }

    /// Sets up every seated game that has not started.
    pub async fn start_all(&self) -> Result<RoundView, DeskError> {
        let current = self.current()?;
        let number = current.round.number;
        let seats = self.store().seats(number)?;
        for (table, board, game) in seats {
            if game.is_some() {
                continue;
            }
            self.start_table(&current.round, table, &board).await?;
        }
        self.round_view()
    }

    async fn start_table(
        &self,
        round: &Round,
        table: TableNo,
        board: &str,
    ) -> Result<(), DeskError> {
        let pairing = round
            .at_table(table)
            .ok_or(DeskError::UnknownTable(table.0))?;
        let setup = boards::setup(
            round,
            pairing,
            self.config.event.as_deref(),
            self.config.place.as_deref(),
        );
        let game = boards::start(&self.hub, board, setup)
            .await
            .map_err(|e| DeskError::Conflict(format!("table {table} on {board}: {e}")))?;
        if let Some(game) = game {
            self.store().set_game(round.number, table, &game)?;
        }
        tracing::info!(round = round.number, %table, board, "tournament game set up");
        Ok(())
    }

    /// Moves one table of the current round to another board.
    pub async fn reseat(&self, table: u32, board: &str) -> Result<RoundView, DeskError> {
        let current = self.current()?;
        let number = current.round.number;
        let table = TableNo(table);
        current
            .round
            .at_table(table)
            .ok_or(DeskError::UnknownTable(table.0))?;
        if !boards::exists(&self.hub, board) {
            return Err(DeskError::UnknownBoard(board.to_owned()));
        }
        let seats = self.store().seats(number)?;
        if let Some((other, _, _)) = seats.iter().find(|(t, b, _)| b == board && *t != table) {
            return Err(DeskError::Conflict(format!(
                "board {board} already seats table {other}"
            )));
        }
        if seats.iter().any(|(t, _, _)| *t == table) {
            self.store().reseat(number, table, board)?;
        } else {
            return Err(DeskError::Conflict(format!(
                "table {table} is not seated on a board"
            )));
        }
        if self.config.start == StartMode::Clock {
            self.start_table(&current.round, table, board).await?;
        }
        self.round_view()
    }

    /// An arbiter's decision for a table of the current round (forfeit, both lose, ...).
    pub fn decide(&self, table: u32, decision: Decision) -> Result<ResultView, DeskError> {
        let current = self.current()?;
        let table = TableNo(table);
        let pairing = current
            .round
            .at_table(table)
            .ok_or(DeskError::UnknownTable(table.0))?;
        let seat = self
            .store()
            .seats(current.round.number)?
            .into_iter()
            .find(|s| s.0 == table);
        let state = seat
            .as_ref()
            .and_then(|(_, board, _)| boards::current(&self.hub, board));
        let warnings = state.as_ref().map_or([0, 0], |s| s.warnings);
        let result = StoredResult {
            round: current.round.number,
            table,
            black: pairing.black.to_string(),
            white: pairing.white.to_string(),
            decision,
            warnings,
            game: seat.and_then(|s| s.2),
            ruled: true,
        };
        self.record(&current, &result)?;
        if self.alerts.clear(
            DeskAlertKind::RulingDisagrees,
            "board",
            result.round,
            table.0,
        ) {
            self.publish_alerts();
        }
        Ok(ResultView::new(&result))
    }

    /// A board state from the bus: a seated game that finished is a confirmed result,
    /// in whichever round seated it, unless an arbiter's ruling is already recorded
    /// for its table: the ruling stands, and a board result that disagrees is an alert.
    pub(crate) fn handle_state(&self, state: &StateView) -> Result<(), DeskError> {
        let (Some(game), Some(text), goban_referee::Phase::Finished) =
            (&state.game, &state.result, state.phase)
        else {
            return Ok(());
        };
        let Some((number, table)) = self.store().seat_of_game(&state.board, game)? else {
            return Ok(());
        };
        let Some(seated) = self.store().round(number)? else {
            return Ok(());
        };
        let Some(pairing) = seated.round.at_table(table) else {
            return Ok(());
        };
        let parsed = GameResult::parse_sgf(text)
            .map_err(|e| DeskError::Conflict(format!("result {text:?}: {e}")))?;
        let result = StoredResult {
            round: number,
            table,
            black: pairing.black.to_string(),
            white: pairing.white.to_string(),
            decision: Decision::from_game(&parsed, state.move_number),
            warnings: state.warnings,
            game: Some(game.clone()),
            ruled: false,
        };
        let ruling = self
            .store()
            .results()?
            .into_iter()
            .find(|r| r.round == number && r.table == table && r.ruled);
        if let Some(ruling) = ruling {
            if ruling.decision.outcome != result.decision.outcome {
                self.ruling_disagrees(&ruling, &state.board, text);
            }
            return Ok(());
        }
        self.record(&seated, &result)
    }

    fn ruling_disagrees(&self, ruling: &StoredResult, board: &str, text: &str) {
        let now = now_ms();
        let message = format!(
            "round {} table {}: board {board} ended the game {text}, but the arbiter's ruling {} \
             stands; rule again to change it",
            ruling.round, ruling.table, ruling.decision
        );
        tracing::warn!(round = ruling.round, table = %ruling.table, board, result = text, "board result disagrees with the ruling, which stands");
        self.raise(DeskAlert {
            kind: DeskAlertKind::RulingDisagrees,
            target: "board".into(),
            round: ruling.round,
            table: ruling.table.0,
            message,
            count: 1,
            since_ms: now,
            last_ms: now,
        });
    }

    /// Raises `alert` (or counts it again); announces it when it is new. True when new.
    fn raise(&self, alert: DeskAlert) -> bool {
        let raised = self.alerts.raise(alert);
        if raised {
            self.publish_alerts();
        }
        raised
    }

    /// A target accepted `push`: its refusal alert, if any, goes.
    pub(crate) fn push_accepted(&self, push: &Push) {
        if self.alerts.clear(
            DeskAlertKind::PushRefused,
            &push.target,
            push.round,
            push.table.0,
        ) {
            self.publish_alerts();
        }
    }

    /// A target refused `push` twice the same way.
    pub(crate) fn push_refused(&self, push: &Push, error: &str) {
        let now = now_ms();
        let message = format!(
            "{} refuses the result of round {} table {} ({}) with the same answer each time: {error}; \
             no more automatic retries until the cause is fixed (then restart or rule again)",
            push.target, push.round, push.table, push.decision
        );
        let alert = DeskAlert {
            kind: DeskAlertKind::PushRefused,
            target: push.target.clone(),
            round: push.round,
            table: push.table.0,
            message,
            count: 1,
            since_ms: now,
            last_ms: now,
        };
        if self.raise(alert) {
            tracing::error!(target = %push.target, round = push.round, table = %push.table, cause = error, "tournament desk alert: result refused again");
        }
    }

    /// Where the desk seated each started game: (board, game) → (round, table).
    pub fn seated_games(&self) -> Result<crate::archive::Seats, DeskError> {
        Ok(self.store().seated_games()?)
    }

    /// The desk's alerts up now.
    pub fn alerts(&self) -> Vec<DeskAlert> {
        self.alerts.list()
    }

    fn publish_alerts(&self) {
        let Some(announce) = self.announce.get() else {
            return;
        };
        let payload = serde_json::json!({"v": 1, "alerts": self.alerts.list()}).to_string();
        if let Err(error) = announce.publish("alerts", payload, true) {
            tracing::warn!(cause = %error, "tournament alerts not published");
        }
    }

    fn record(&self, current: &StoredRound, result: &StoredResult) -> Result<(), DeskError> {
        let targets = self.targets(&current.source);
        let queued = self.store().record_result(result, &targets, now_ms())?;
        if !queued.is_empty() {
            tracing::info!(round = result.round, table = %result.table, result = %result.decision, "tournament result confirmed");
            self.wake.notify_one();
        }
        Ok(())
    }

    /// Where results of a round from `source` go.
    fn targets(&self, source: &str) -> Vec<&'static str> {
        let mut targets = vec!["mqtt"];
        if source.starts_with("pairgoth:") && self.pairgoth.is_some() {
            targets.push("pairgoth");
        }
        if source == "opengotha-file" && self.config.opengotha_file.is_some() {
            targets.push("opengotha");
        }
        targets
    }

    /// The current round with its seating and results.
    pub fn round_view(&self) -> Result<RoundView, DeskError> {
        let current = self.current()?;
        let round = &current.round;
        let seats = self.store().seats(round.number)?;
        let results = self.store().results()?;
        let tables = round
            .pairings
            .iter()
            .map(|p| {
                let seat = seats.iter().find(|s| s.0 == p.table);
                let (black, white) = (round.players.get(&p.black), round.players.get(&p.white));
                let result = results
                    .iter()
                    .find(|r| r.round == round.number && r.table == p.table)
                    .map(ResultView::new);
                let status = match (seat, &result) {
                    (_, Some(_)) => "finished",
                    (None, None) => "off_board",
                    (Some((_, _, Some(_))), None) => "started",
                    (Some(_), None) => "waiting",
                };
                TableView {
                    table: p.table.0,
                    board: seat.map(|s| s.1.clone()),
                    black: p.black.to_string(),
                    white: p.white.to_string(),
                    black_name: round.display_name(&p.black).to_owned(),
                    white_name: round.display_name(&p.white).to_owned(),
                    black_rank: black.and_then(|x| x.rank.clone()),
                    white_rank: white.and_then(|x| x.rank.clone()),
                    black_club: black.and_then(|x| x.club.clone()),
                    white_club: white.and_then(|x| x.club.clone()),
                    black_country: black.and_then(|x| x.country.clone()),
                    white_country: white.and_then(|x| x.country.clone()),
                    handicap: p.handicap,
                    komi: p.komi,
                    time_control: p.time_control.map(|t| t.to_string()),
                    game: seat.and_then(|s| s.2.clone()),
                    status: status.to_owned(),
                    result,
                }
            })
            .collect();
        Ok(RoundView {
            round: round.number,
            event: self.config.event.clone(),
            source: current.source.clone(),
            tables,
            byes: round.byes.iter().map(ToString::to_string).collect(),
        })
    }

    /// Every confirmed result, all rounds.
    pub fn results(&self) -> Result<Vec<ResultView>, DeskError> {
        Ok(self
            .store()
            .results()?
            .iter()
            .map(ResultView::new)
            .collect())
    }

    /// The hub, for the watcher and the pusher.
    pub(crate) const fn hub(&self) -> &Hub {
        &self.hub
    }
}

/// Table → board: `[tournament.tables]` first, then `table = N` on each
/// `[[board]]`. Two boards claiming one table is an error naming both.
fn table_map(
    config: &TournamentConfig,
    boards: &[BoardConfig],
) -> Result<BTreeMap<TableNo, String>, String> {
    let mut map: BTreeMap<TableNo, String> = config
        .tables
        .iter()
        .map(|(k, b)| (TableNo(k.0), b.as_str().to_owned()))
        .collect();
    for board in boards {
        let Some(table) = board.table else { continue };
        let explicit = config.tables.contains_key(&TableKey(table));
        match map.get(&TableNo(table)) {
            Some(other) if !explicit && other != board.id.as_str() => {
                return Err(format!(
                    "table {table} is claimed by boards {other} and {}",
                    board.id.as_str()
                ));
            }
            Some(_) => {}
            None => {
                map.insert(TableNo(table), board.id.as_str().to_owned());
            }
        }
    }
    let known: Vec<&str> = boards.iter().map(|b| b.id.as_str()).collect();
    if let Some((table, board)) = map.iter().find(|(_, b)| !known.contains(&b.as_str())) {
        return Err(format!(
            "[tournament.tables] maps table {table} to unknown board {board}"
        ));
    }
    Ok(map)
}
