//! Wire protocol v1 of the sensor board and the game clock: frames, decoder, encoder, sequence tracking.
#![warn(missing_docs)]
