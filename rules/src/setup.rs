//! The settings a game starts from: size, ruleset, komi, handicap, ko rule, opening.

use serde::{Deserialize, Serialize};

use crate::{BoardSize, KoRule, Ruleset};

/// How handicap stones are placed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HandicapPlacement {
    /// On the fixed star points (9x9, 13x13, 19x19 only).
    #[default]
    Fixed,
    /// Anywhere Black chooses, given with [`crate::Game::place_free_handicap`].
    Free,
}

/// Whether free handicap stones are still to be placed when a game starts from a position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FreeHandicap {
    /// Nothing to place: the board given is the starting position.
    #[default]
    Placed,
    /// Black must still place the free handicap stones
    /// ([`crate::Game::place_free_handicap`]); moves are refused until then.
    Pending,
}

/// The opening position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Opening {
    /// An empty board (CN2002 art. 2.2), apart from handicap stones.
    #[default]
    Empty,
    /// The historical 座子: two stones each on the corner star points; White moves first.
    Zuozi,
}

/// Everything a game is set up with.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSetup {
    /// Board size.
    pub size: BoardSize,
    /// Rules of play and counting.
    pub ruleset: Ruleset,
    /// Komi in points (CN2002: 7.5 points = 3¾ stones). 0 with a handicap.
    pub komi: f64,
    /// Handicap stones; 0 (or 1, meaning none placed) for an even game.
    pub handicap: u8,
    /// How the handicap stones are placed.
    pub handicap_placement: HandicapPlacement,
    /// Repetition rule.
    pub ko_rule: KoRule,
    /// Opening position.
    pub opening: Opening,
}

impl GameSetup {
    /// An even game with the ruleset's default komi, ko rule and opening
    /// (座子 for [`Ruleset::Historical`]).
    #[must_use]
    pub const fn new(size: BoardSize, ruleset: Ruleset) -> Self {
        let opening = match ruleset {
            Ruleset::Historical => Opening::Zuozi,
            _ => Opening::Empty,
        };
        Self {
            size,
            ruleset,
            komi: ruleset.default_komi(),
            handicap: 0,
            handicap_placement: HandicapPlacement::Fixed,
            ko_rule: ruleset.default_ko_rule(),
            opening,
        }
    }

    /// A handicap game: `stones` placed as `placement` says, komi set to 0.
    #[must_use]
    pub const fn with_handicap(mut self, stones: u8, placement: HandicapPlacement) -> Self {
        self.handicap = stones;
        self.handicap_placement = placement;
        if stones >= 2 {
            self.komi = 0.0;
        }
        self
    }

    /// Another ruleset, and only that: komi, ko rule, handicap and opening stay as they are
    /// (use [`GameSetup::new`] for a ruleset's defaults). For counting a game under
    /// another ruleset see [`crate::Game::score_as`].
    #[must_use]
    pub const fn with_ruleset(mut self, ruleset: Ruleset) -> Self {
        self.ruleset = ruleset;
        self
    }

    /// Another komi, in points.
    #[must_use]
    pub const fn with_komi(mut self, komi: f64) -> Self {
        self.komi = komi;
        self
    }

    /// Another ko rule.
    #[must_use]
    pub const fn with_ko_rule(mut self, ko_rule: KoRule) -> Self {
        self.ko_rule = ko_rule;
        self
    }

    /// Another opening.
    #[must_use]
    pub const fn with_opening(mut self, opening: Opening) -> Self {
        self.opening = opening;
        self
    }

    /// Whether handicap stones are given (2 or more).
    #[must_use]
    pub const fn has_handicap(&self) -> bool {
        self.handicap >= 2
    }
}
