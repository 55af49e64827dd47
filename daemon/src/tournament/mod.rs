//! Tournament desk of the daemon: load a round, seat it on the boards, send confirmed results out, serve standings.
//!
//! The pure work (file formats, result codes, CN2002 art. 27) is in the
//! `goban-tournament` crate; this module does the IO around it.

pub mod pairgoth;
