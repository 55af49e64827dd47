//! The referee's sub-machines: each owns its state behind its own methods and never sees the referee that composes them.

pub(crate) mod audit;
pub(crate) mod devices;
pub(crate) mod ending;
pub(crate) mod outbox;
pub(crate) mod sight;
