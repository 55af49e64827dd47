//! Time control arithmetic: the time-control grammar and the game clock state machine (CN2002 art. 12, 14, 22).
//!
//! Pure and sans-IO like the rest of the referee: every call takes the host
//! [`Timestamp`](crate::Timestamp) of its input, `poll_timeout` names the
//! next instant at which something happens (a count-out call, a byo-yomi
//! period end, a flag fall) and `handle_timeout` produces the events due.
//!
//! ```
//! use goban_referee::Timestamp;
//! use goban_referee::clock::{Clock, Color, TimeControl};
//!
//! let tc: TimeControl = "byoyomi-cn:main=60m,reserve=5".parse()?;
//! let mut clock = Clock::new(tc);
//! clock.start(Timestamp(0), Color::Black)?;
//! let record = clock.complete_move(Timestamp(12_000), Color::Black)?;
//! assert_eq!(record.left.main_ms, 3_600_000 - 12_000);
//! assert_eq!(clock.reading(Timestamp(12_000)).running, Some(Color::White));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod announce;
mod control;
mod countout;
mod duration;
mod errors;
mod events;
mod late_start;
mod machine;
mod reading;
mod side;
mod systems;
mod tick;
mod time_control;
mod venue;

pub use announce::{Announcement, CallCode};
pub use countout::CountOutCall;
pub use duration::Millis;
pub use errors::{ClockError, DurationError, TimeControlError};
pub use events::ClockEvent;
pub use late_start::LateStart;
pub use machine::{Adjustment, AdjustmentReason, Clock, Ledger};
pub use reading::{ClockReading, MoveTime, Show, SideReading};
pub use side::Color;
pub use tick::{ClockTick, SideTick};
pub use time_control::{DEFAULT_CN_PERIOD, TimeControl};
pub use venue::Venue;
