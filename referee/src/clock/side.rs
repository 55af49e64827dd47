//! The clock's players are the rules core's colours: `goban_rules::Color`, serialised `"black"` / `"white"`.

pub use goban_rules::Color;
