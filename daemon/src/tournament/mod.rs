//! Tournament desk of the daemon: load a round, seat it on the boards, send confirmed results out, serve standings.
//!
//! The pure work (file formats, result codes, CN2002 art. 27) is in the
//! `goban-tournament` crate; this module does the IO around it:
//! [`desk::Desk`] holds the round, its seating and results in the journal
//! file ([`store`]); [`runner::watch`] turns finished seated games into
//! results; [`runner::push`] sends each result to Pairgoth, the OpenGotha
//! file and MQTT until accepted, never twice, and raises a desk alert
//! ([`alerts`]) when a target refuses the same way twice; [`boards`] is the
//! only code that knows the board runtime's interface.

pub mod alerts;
pub mod announce;
pub(crate) mod boards;
pub mod desk;
mod event;
pub mod pairgoth;
pub mod pairgoth_auth;
pub mod runner;
pub mod store;
pub mod views;

pub use desk::{Desk, DeskError, LoadRequest};

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use crate::config::Config;
use crate::mqtt::MqttSettings;
use crate::publish::hub::Hub;

/// Opens the desk over the journal file and starts its watcher and pusher
/// under `cancel`. The desk always runs: without a `[tournament]` section
/// it still takes uploaded rounds.
pub fn start(
    config: &Config,
    hub: &Hub,
    mqtt: &MqttSettings,
    cancel: &CancellationToken,
) -> Result<Arc<Desk>, DeskError> {
    let desk = Desk::open(
        config.tournament.clone(),
        &config.boards,
        &config.journal.path,
        hub.clone(),
    )?;
    let announce = match announce::MqttAnnounce::spawn(mqtt, cancel.child_token()) {
        Ok(announce) => {
            let announce = Arc::new(announce) as Arc<dyn announce::Announce>;
            desk.set_announce(announce.clone());
            Some(announce)
        }
        Err(error) => {
            tracing::warn!(cause = %error, "tournament results will not be published on MQTT");
            None
        }
    };
    let bus = boards::subscribe(hub);
    tokio::spawn(runner::watch(desk.clone(), bus, cancel.child_token()));
    tokio::spawn(runner::push(desk.clone(), announce, cancel.child_token()));
    Ok(desk)
}
