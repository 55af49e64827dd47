//! goban-bridge as a library: config, journal, board runtime, publishers (HTTP, MQTT) and the commands the binary runs.
//!
//! The binary (`main.rs`) is a thin shell over [`cli`]; tests use these
//! modules directly. Data path: device links → [`runtime`] (referee) →
//! [`journal`] (committed first) → [`publish`] (hub, broadcast delay) → `http`
//! and [`mqtt`]; see docs/architecture.md.
#![warn(missing_docs)]

pub mod analysis;
pub mod app;
pub mod archive;
pub mod broker;
pub mod cli;
pub mod config;
mod http;
pub mod journal;
pub mod message;
pub mod mqtt;
pub mod publish;
mod runtime;
mod telemetry;
pub mod tournament;
