//! Arbitration of physical play: turns board readings, clock presses and arbiter commands into moves, infractions, times and results.
#![warn(missing_docs)]
