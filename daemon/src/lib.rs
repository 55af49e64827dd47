//! goban-bridge as a library: config, journal, board runtime, publishers (HTTP, MQTT) and the commands the binary runs.
//!
//! The binary (`main.rs`) is a thin shell over [`cli`]; tests use these
//! modules directly. Data path: device links → [`runtime`] (referee) →
//! [`journal`] (committed first) → [`hub`] → `http` and [`mqtt`]; see
//! docs/architecture.md.
#![warn(missing_docs)]

pub mod analysis;
pub mod app;
pub mod archive;
pub mod broker;
pub mod cli;
pub mod commands;
pub mod config;
pub mod delay;
mod demo_tables;
pub mod doubles;
pub mod followers;
mod http;
pub mod hub;
pub mod journal;
pub mod logging;
pub mod mqtt;
pub mod open_files;
mod runtime;
mod telemetry;
pub mod tournament;
