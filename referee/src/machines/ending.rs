//! The end-signal machine: the off-board zones, the agreed-end sequence and a resignation's stones, per game.

use goban_rules::Color;

use crate::Timestamp;
use crate::end_signals::{AgreedEnd, EndSignal, EndStep, ZoneReader};
use crate::input::Reading;

/// The end signals of the game in progress (reset when a new game starts). It is told the
/// game's number at each call: signals of an earlier game are dropped the first time a
/// later game's number is seen; the zones, being physical, outlive a game.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct Ending {
    /// The off-board zones, debounced (physical: they outlive a game).
    zones: ZoneReader,
    /// The game these signals belong to (the referee's count of games started).
    game: u32,
    agreed: AgreedEnd,
    /// Moves played when the agreed end was proposed.
    agreed_at: u32,
    /// The signal the state shows.
    signal: Option<EndSignal>,
    /// The points of a resignation proposal, with the colour.
    stones: Vec<(usize, Color)>,
}

impl Ending {
    /// The signals of game number `game`, fresh when it is a new game.
    fn of_game(&mut self, game: u32) -> &mut Self {
        if self.game != game {
            *self = Self {
                zones: self.zones.clone(),
                game,
                ..Self::default()
            };
        }
        self
    }

    /// The signal the state shows, if it belongs to game number `game`.
    pub(crate) fn signal(&self, game: u32) -> Option<EndSignal> {
        (self.game == game).then(|| self.signal.clone()).flatten()
    }

    /// The stones of the standing resignation proposal, with their colour.
    pub(crate) fn resignation_stones(&self) -> &[(usize, Color)] {
        &self.stones
    }

    /// A resignation proposed by `stones` in game number `game`; `signal` is what the state shows.
    pub(crate) fn handle_resignation(
        &mut self,
        game: u32,
        stones: Vec<(usize, Color)>,
        signal: EndSignal,
    ) {
        let ending = self.of_game(game);
        ending.stones = stones;
        ending.signal = Some(signal);
    }

    /// The standing signal of game number `game` lapsed.
    pub(crate) fn handle_lapse(&mut self, game: u32) {
        let ending = self.of_game(game);
        ending.signal = None;
        ending.stones.clear();
    }

    /// A `$ZONE` reading (Black's zone, White's zone) at `now`.
    pub(crate) fn handle_zones(&mut self, now: Timestamp, zones: [Reading; 2]) {
        self.zones.handle_reading(now, zones);
    }

    /// When the zones' pending readings settle.
    pub(crate) fn poll_timeout(&self, settle_ms: u64) -> Option<Timestamp> {
        self.zones.poll_timeout(settle_ms)
    }

    /// Settles the zones' readings: the stones that appeared, as (zone owner, stone colour).
    pub(crate) fn poll_zone_stones(&mut self) -> Vec<(Color, Color)> {
        self.zones.settle()
    }

    /// A stone of `stone`'s colour appeared in `zone` during game number `game`, with
    /// `to_move` to play after `move_number` moves: returns the agreed end's next step
    /// (CN2002 21.1) and keeps the signal the state shows from now on.
    pub(crate) fn handle_zone_stone(
        &mut self,
        game: u32,
        (zone, stone): (Color, Color),
        to_move: Color,
        move_number: u32,
    ) -> EndStep {
        let ending = self.of_game(game);
        // CN2002 21.1: play went on since the first signal; it lapsed.
        if ending.agreed.pending().is_some() && ending.agreed_at != move_number {
            ending.agreed.handle_move();
        }
        let step = ending.agreed.handle_zone(zone, stone, to_move);
        ending.signal = match step {
            EndStep::Proposed(color) => {
                ending.agreed_at = move_number;
                Some(EndSignal::AgreedEndProposed { color, move_number })
            }
            EndStep::Agreed => None,
            EndStep::WrongOrder => Some(EndSignal::OutOfOrder {
                zone,
                stone,
                move_number,
            }),
        };
        step
    }
}
