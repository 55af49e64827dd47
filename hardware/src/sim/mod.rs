//! Simulated board and clock devices speaking wire protocol v1, human-like players and scripted faults.
//!
//! A [`Scenario`] (game, [`HumanProfile`], [`FaultScript`], seed) builds a [`Timeline`] of
//! physical acts; [`spawn_table`] plays it on a board and a clock plugged into
//! pseudo-terminals or in-memory pipes, on one shared port or two.

mod board;
mod chatter;
mod clock;
mod devices;
mod firmware;
mod game;
mod player;
mod port;
mod pty;
mod run;
mod scenario;
mod script;
mod stage;
mod table;
mod timeline;

pub use board::{BoardIdentity, BoardModel};
pub use clock::ClockModel;
pub use game::SimGame;
pub use player::HumanProfile;
pub use port::PortSide;
pub use pty::{PtyDevice, StableLink};
pub use run::{SimTable, SimulateOptions, simulate, spawn_tables};
pub use scenario::Scenario;
pub use script::{ChatterAt, Device, Fault, FaultScript, INFRACTION_IDS, ScriptStep};
pub use table::{Endpoint, Table, TableConfig, Transport, spawn_table};
pub use timeline::{Act, Step, Timeline};
