//! The venue of a tournament, which sets how late a player may arrive (CN2002 22.1-22.2).

use serde::{Deserialize, Serialize};

const MINUTE_MS: u64 = 60_000;

/// How far the players lodge from the hall, which sets the late limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Venue {
    /// Hall and lodging in the same place: 15 minutes (CN2002 22.2).
    #[default]
    SameSite,
    /// Hall and lodging apart: 1 hour (CN2002 22.1).
    Separate,
    /// A limit the tournament set itself, in ms (its regulations replace 22.1-22.2's figure).
    Limit(u64),
}

impl Venue {
    /// The longest absence that does not lose the game (the limit itself is allowed: "不得超过1小时(含)").
    #[must_use]
    pub fn limit_ms(self) -> u64 {
        match self {
            Self::SameSite => 15 * MINUTE_MS,
            Self::Separate => 60 * MINUTE_MS,
            Self::Limit(ms) => ms,
        }
    }

    /// The article that sets the limit.
    #[must_use]
    pub fn article(self) -> &'static str {
        match self {
            Self::SameSite => "CN2002 22.2",
            Self::Separate => "CN2002 22.1",
            Self::Limit(_) => "CN2002 22.1-22.2",
        }
    }
}
