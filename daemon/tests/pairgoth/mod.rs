//! Test support for the Pairgoth integration: a strict server written to Pairgoth's API reference.
pub mod server;
