//! Arbitration of physical play: turns board readings, clock presses and arbiter commands into moves, infractions, times and results.
#![warn(missing_docs)]

pub mod checkpoint;
pub mod clock;
mod command;
mod config;
mod debounce;
mod device_alert;
mod diff;
pub mod end_signals;
mod error;
mod event;
mod guidance;
pub mod infraction;
mod input;
mod state;
mod timestamp;

mod acts;
mod alerts;
mod arbiter;
mod audit;
mod block_order;
mod ending;
mod flip_history;
mod game_image;
mod go;
mod interpret;
mod late_arrival;
mod lifecycle;
mod machines;
mod match_state;
mod move_name;
mod move_records;
mod play;
mod port_lag;
mod press;
mod reconcile;
mod referee;
mod replay;
mod rewrite;
mod scoring;
mod setup_block;
mod sgf;
mod sgf_header;
mod sight;
mod snapshot;
mod step;
mod timekeeper;
mod timeline;
mod unseen_block;

pub use audit::AuditEntry;
pub use command::{DeviceCommand, Running};
pub use config::RefereeConfig;
pub use debounce::{ChatterRule, Debouncer, Feed, Quiet};
pub use device_alert::{DeviceAlert, DeviceAlertKind};
pub use error::RefereeError;
pub use event::{Event, EventKind};
pub use guidance::{Guidance, StoneAt};
pub use infraction::{Evidence, Infraction, InfractionId, InfractionKind, InfractionStatus};
pub use input::{
    ArbiterAct, ArbiterCommand, Button, ClockKey, Device, GameSetup, Input, PointChange, Reading,
    RulingAction,
};
pub use move_name::MoveName;
pub use move_records::{MoveRecord, MoveRecords, Tail as MoveRecordsTail};
pub use referee::Referee;
pub use sgf::{MoveNotes, SgfError};
pub use sgf_header::SgfHeader;
pub use state::{
    BoardState, DeviceState, Interpretation, LIVE_SCHEMA_VERSION, LastMove, Link, LiveState,
    PerColor, Phase, SCHEMA_VERSION, SekiMark,
};
pub use timestamp::Timestamp;
