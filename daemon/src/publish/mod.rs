//! The publish side: the hub every publisher reads, one channel per followed board, and the broadcast delay.
//!
//! The board runtime hands each journaled message to [`hub::Hub::publish`]; arbiters
//! read the hub, the public reads [`delay::Feed`] (the hub itself, or the hub
//! released late). `http` and `mqtt` are the publishers proper.

pub mod delay;
pub mod doubles;
pub mod followers;
pub mod hub;
