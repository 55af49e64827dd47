//! The tournament desk: the current round and its seating, confirmed results, standings; the state behind the routes.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use goban_rules::GameResult;
use goban_tournament::standings::{self, GameRecord, Rules};
use goban_tournament::{Decision, PlayerId, Round, TableNo, TournamentError, csv_round, opengotha};
use serde::Deserialize;
use tokio::sync::Notify;
use utoipa::ToSchema;

use super::boards::{self, StateView};
use super::config::{StartMode, TournamentConfig};
use super::pairgoth::{PairgothClient, PairgothError};
use super::store::{Store, StoreError, StoredResult, StoredRound};
use super::views::{ResultView, RoundView, StandingView, StandingsView, TableView};
use crate::config::BoardConfig;
use crate::hub::Hub;

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

/// The desk. Cheap to share behind an `Arc`.
pub struct Desk {
    pub(crate) config: TournamentConfig,
    tables: BTreeMap<TableNo, String>,
    store: Mutex<Store>,
    hub: Hub,
    pub(crate) pairgoth: Option<PairgothClient>,
    /// Wakes the pusher when a result is queued.
    pub(crate) wake: Notify,
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
        let tables = config.table_map(boards).map_err(DeskError::Config)?;
        let pairgoth = match &config.pairgoth {
            Some(p) => Some(PairgothClient::new(
                &p.url,
                p.authorization.as_deref(),
                p.timeout.0,
            )?),
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
        }))
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
                round: opengotha::OpenGothaTournament::parse(&document)?.round(round)?,
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
                let round = opengotha::OpenGothaTournament::parse(&text)?.round(round)?;
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
        };
        self.record(&current, &result)?;
        Ok(ResultView::new(&result))
    }

    /// A board state from the bus: a seated game that finished is a confirmed result.
    pub(crate) fn handle_state(&self, state: &StateView) -> Result<(), DeskError> {
        let (Some(game), Some(text), goban_referee::Phase::Finished) =
            (&state.game, &state.result, state.phase)
        else {
            return Ok(());
        };
        let Ok(current) = self.current() else {
            return Ok(());
        };
        let seats = self.store().seats(current.round.number)?;
        let Some((table, _, _)) = seats
            .into_iter()
            .find(|(_, b, g)| b == &state.board && g.as_ref() == Some(game))
        else {
            return Ok(());
        };
        let Some(pairing) = current.round.at_table(table) else {
            return Ok(());
        };
        let parsed = GameResult::parse_sgf(text)
            .map_err(|e| DeskError::Conflict(format!("result {text:?}: {e}")))?;
        let result = StoredResult {
            round: current.round.number,
            table,
            black: pairing.black.to_string(),
            white: pairing.white.to_string(),
            decision: Decision::from_game(&parsed, state.move_number),
            warnings: state.warnings,
            game: Some(game.clone()),
        };
        self.record(&current, &result)
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
                    black_rank: round.players.get(&p.black).and_then(|x| x.rank.clone()),
                    white_rank: round.players.get(&p.white).and_then(|x| x.rank.clone()),
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

    /// Standings over every confirmed result (CN2002 27), with the referee's warnings.
    pub fn standings(&self) -> Result<StandingsView, DeskError> {
        let results = self.store().results()?;
        let mut warnings: BTreeMap<PlayerId, u32> = BTreeMap::new();
        let games: Vec<GameRecord> = results
            .iter()
            .map(|r| {
                *warnings.entry(PlayerId(r.black.clone())).or_default() += r.warnings[0];
                *warnings.entry(PlayerId(r.white.clone())).or_default() += r.warnings[1];
                GameRecord {
                    round: r.round,
                    black: PlayerId(r.black.clone()),
                    white: PlayerId(r.white.clone()),
                    outcome: r.decision.outcome,
                }
            })
            .collect();
        let names = self.current().map(|c| c.round.players).unwrap_or_default();
        let lines = standings::compute(Rules::new(self.config.system), &games, &[], &warnings);
        let system = match self.config.system {
            standings::System::Swiss => "swiss",
            standings::System::RoundRobin => "round_robin",
        };
        Ok(StandingsView {
            v: 1,
            system: system.to_owned(),
            standings: lines
                .iter()
                .map(|s| {
                    let name = names
                        .get(&s.player)
                        .map_or_else(|| s.player.to_string(), |p| p.name.clone());
                    StandingView::new(s, name)
                })
                .collect(),
        })
    }

    /// The last uploaded OpenGotha document with every confirmed result written in.
    pub fn opengotha_export(&self) -> Result<String, DeskError> {
        let document = self
            .store()
            .documents()?
            .pop()
            .ok_or_else(|| DeskError::Conflict("no OpenGotha document was uploaded".into()))?;
        let results = self.store().results()?;
        let parsed = opengotha::OpenGothaTournament::parse(&document)?;
        let wanted: BTreeMap<(u32, TableNo), Decision> = results
            .iter()
            .filter(|r| {
                parsed
                    .games()
                    .iter()
                    .any(|g| g.round == r.round && g.pairing.table == r.table)
            })
            .map(|r| ((r.round, r.table), r.decision))
            .collect();
        Ok(opengotha::write_results(&document, &wanted)?)
    }

    /// The hub, for the watcher and the pusher.
    pub(crate) const fn hub(&self) -> &Hub {
        &self.hub
    }
}
