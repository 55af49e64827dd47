//! Serial transports for real devices and simulated devices on pseudo-terminals, both speaking wire protocol v1.
#![warn(missing_docs)]
