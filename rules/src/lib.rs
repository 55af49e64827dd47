//! The game of Go as the rules texts define it: board, play, ko, scoring and SGF, with no IO.
#![warn(missing_docs)]
