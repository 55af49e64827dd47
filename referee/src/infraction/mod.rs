//! Infractions: the digest's kinds with their articles, the alert record, and the sanctions each implies.

mod kind;
mod record;
mod sanction;

pub use kind::{InfractionKind, UnknownKind};
pub use record::{Evidence, Infraction, InfractionId, InfractionStatus, Seen};
pub use sanction::sanction_text;
