//! Tournament rounds for goban-bridge: pairings in, results out, standings by CN2002 art. 27.
//!
//! Pure and sans-IO like `goban-rules` and `goban-referee`: every function
//! takes text or values and returns values; the daemon does the files, the
//! HTTP and the journal.
//!
//! - [`Round`]: table number → [`Pairing`] (black, white, handicap, komi,
//!   time control), read from [`opengotha`] XML, a plain [`csv`](mod@csv_round)
//!   file or [`pairgoth`] JSON.
//! - [`Decision`]: a confirmed result, mapped from the referee's
//!   [`goban_rules::GameResult`] and onto OpenGotha's and Pairgoth's codes.
//! - [`standings`]: individual standings by CN2002 art. 27 (round robin and
//!   Swiss, method B), with the referee's warnings as the third criterion.
//! - [`teams`]: team standings by art. 27 (场分, then 局分, then board order).
#![warn(missing_docs)]

mod error;
mod model;
mod outcome;
mod places;

pub mod csv_round;
pub mod opengotha;
pub mod pairgoth;
pub mod standings;
pub mod teams;

pub use error::TournamentError;
pub use model::{MAX_HANDICAP, Pairing, Player, PlayerId, Round, TableNo, full_name};
pub use outcome::{Decision, Outcome};
