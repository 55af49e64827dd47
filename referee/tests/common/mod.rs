//! Shared test support: the virtual-time table, the corpus reader and the noisy physical player.
#![allow(dead_code, unreachable_pub)]

pub mod corpus;
pub mod hall;
pub mod inject;
pub mod physical;
pub mod table;
