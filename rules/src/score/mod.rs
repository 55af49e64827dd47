//! Counting a finished game under CN2002, JK, Ing and the historical rules.
//!
//! Dead stones come in as [`DeadStones`] (CN2002 art. 8: agreed by the players; art. 21.4),
//! warnings as [`Warnings`] (CN2002 art. 24: one stone each at the count). Margins are in
//! stones for CN2002 and the historical rules (the texts' unit, 1 stone = 2 points) and in
//! points for JK and Ing.

mod dead;
mod regions;
mod seki;
mod territory;

pub use dead::DeadStones;
pub use seki::{SekiMarks, SekiRuling};
pub use territory::Territory;

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::{Board, Color, Game, GameResult, GameSetup, Margin, RulesError, Ruleset};
use regions::{Blocks, Region, empty_regions, seki_chains};

/// Warnings given during the game (CN2002 art. 24.1); each costs one stone at the count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Warnings {
    /// Warnings to Black.
    pub black: u32,
    /// Warnings to White.
    pub white: u32,
}

impl Warnings {
    /// The warnings of `color`.
    #[must_use]
    pub const fn of(&self, color: Color) -> u32 {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }
}

/// What the count needs beyond the position: dead stones, warnings, seki rulings.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CountInput {
    /// Stones agreed dead.
    pub dead: DeadStones,
    /// Warnings per colour.
    pub warnings: Warnings,
    /// The arbiter's seki rulings, overriding the heuristic (JK).
    #[serde(default)]
    pub seki: SekiMarks,
}

/// The unit of a margin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum ScoreUnit {
    /// 子, CN2002 and historical (1 stone = 2 points).
    Stones,
    /// 目 / points, JK and Ing.
    Points,
}

/// One side's count (`black` and `white` of a [`Score`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SideCount {
    /// Living stones on the board.
    pub stones: u32,
    /// Empty points surrounded by this side alone (JK: seki eyes excluded).
    pub territory: u32,
    /// Prisoners: stones captured in play plus the opponent's dead stones (JK only counts them).
    pub prisoners: u32,
    /// Separate living blocks (还棋头, historical rules only; 0 otherwise).
    pub blocks: u32,
    /// The side's count in its ruleset's terms, in points, before komi, give-back and warnings:
    /// area plus half the dame (CN2002, historical), area (Ing), territory plus prisoners (JK).
    pub total: f64,
}

/// A complete count: what each side has and what is added or taken away.
// The daemon's OpenAPI document has always called it `Count`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = Count))]
pub struct Score {
    /// The rules counted under.
    pub ruleset: Ruleset,
    /// The unit of `margin`, `komi` and `handicap_giveback`.
    pub unit: ScoreUnit,
    /// Black's count.
    pub black: SideCount,
    /// White's count.
    pub white: SideCount,
    /// Empty points bordered by both colours.
    pub dame: u32,
    /// Empty points surrounded by one colour but not territory because of seki (JK).
    pub seki_points: u32,
    /// Komi in `unit` (CN2002: 7.5 points = 3.75 stones).
    pub komi: f64,
    /// What Black gives back for a handicap, in `unit` (CN2002: half a stone per handicap stone).
    pub handicap_giveback: f64,
    /// Warnings counted, one stone each (CN2002 24).
    pub warnings: Warnings,
    /// Black's lead after everything, in `unit` (negative: White leads), keyed by its unit:
    /// `{"stones": -3.75}`.
    pub margin: Margin,
    /// The result this count gives, SGF `RE` form in points (`W+7.5`) whatever `unit` is.
    // Read back, its margin is in points: [`GameResult::of_lead`] of `margin` gives it in `unit`.
    #[cfg_attr(feature = "openapi", schema(value_type = String, example = "W+7.5"))]
    pub result: GameResult,
}

/// Counts `board` for `setup`, `prisoners` being the stones each colour captured in play.
///
/// # Errors
/// [`RulesError::BadDeadStones`] when a dead point holds no stone;
/// [`RulesError::BadSekiMarks`] when a seki ruling names no living stone.
pub fn score_position(
    board: &Board,
    setup: &GameSetup,
    prisoners: [u32; 2],
    input: &CountInput,
) -> Result<Score, RulesError> {
    input.dead.check(board)?;
    let mut live = Board::new(board.size());
    let mut dead_of = [0u32; 2];
    for (p, c) in board.stones() {
        if input.dead.contains(p) {
            dead_of[c.index()] += 1;
        } else {
            live.put_setup_stone(p, c);
        }
    }
    input.seki.check(&live)?;
    let regions = empty_regions(&live);
    let mut counts = [SideCount::default(); 2];
    for c in Color::BOTH {
        counts[c.index()].stones = live.stone_count(c);
        counts[c.index()].prisoners = prisoners[c.index()] + dead_of[c.opponent().index()];
    }
    let dame: u32 = regions
        .iter()
        .filter(|r| r.owner.is_none())
        .map(region_len)
        .sum();
    let mut ctx = Ctx {
        live: &live,
        regions: &regions,
        setup,
        input,
        counts,
        dame,
        seki_points: 0,
    };
    Ok(match setup.ruleset {
        Ruleset::Cn2002 => ctx.area(true, false),
        Ruleset::Historical => ctx.area(true, true),
        Ruleset::Ing => ctx.area(false, false),
        Ruleset::Jk => ctx.territory(),
    })
}

fn region_len(r: &Region) -> u32 {
    // A region holds at most 625 points.
    r.points.len() as u32
}

struct Ctx<'a> {
    live: &'a Board,
    regions: &'a [Region],
    setup: &'a GameSetup,
    input: &'a CountInput,
    counts: [SideCount; 2],
    dame: u32,
    seki_points: u32,
}

impl Ctx<'_> {
    fn owned(&self, c: Color) -> u32 {
        self.regions
            .iter()
            .filter(|r| r.owner == Some(c))
            .map(region_len)
            .sum()
    }

    fn warning_balance(&self) -> f64 {
        f64::from(self.input.warnings.black) - f64::from(self.input.warnings.white)
    }

    /// Area counting: CN2002 art. 9/11 (stones + surrounded points, dame halved), the
    /// historical rules (also 还棋头: one stone per living block), Ing (no dame share).
    fn area(&mut self, split_dame: bool, blocks: bool) -> Score {
        let half_dame = if split_dame {
            f64::from(self.dame) / 2.0
        } else {
            0.0
        };
        for c in Color::BOTH {
            let owned = self.owned(c);
            let side = &mut self.counts[c.index()];
            side.territory = owned;
            side.total = f64::from(side.stones + owned) + half_dame;
        }
        if blocks {
            let b = Blocks::new(self.live, self.regions).count(self.live);
            self.counts[0].blocks = b[0];
            self.counts[1].blocks = b[1];
        }
        let diff = self.counts[0].total - self.counts[1].total;
        if self.setup.ruleset == Ruleset::Ing {
            // Ing: points; a warning is one stone = 2 points of difference.
            let margin = diff - self.setup.komi - 2.0 * self.warning_balance();
            return self.finish(ScoreUnit::Points, self.setup.komi, 0.0, margin);
        }
        // Stones: Black's count minus half the board (CN2002 art. 9 par 180.5 on 19x19)
        // equals half the difference, because every point is counted for someone.
        let komi = self.setup.komi / 2.0;
        let giveback = if self.setup.has_handicap() {
            f64::from(self.setup.handicap) / 2.0
        } else {
            0.0
        };
        let block_balance = f64::from(self.counts[0].blocks) - f64::from(self.counts[1].blocks);
        let margin = diff / 2.0 - komi - giveback - block_balance - self.warning_balance();
        self.finish(ScoreUnit::Stones, komi, giveback, margin)
    }

    /// JK territory counting: territory plus prisoners (captures and dead stones); points
    /// surrounded by stones in seki are not territory. A block (chains sharing an eye) with
    /// one chain in seki is in seki as a whole.
    fn territory(&mut self) -> Score {
        let mut blocks = Blocks::new(self.live, self.regions);
        let mut seki: BTreeSet<usize> = seki_chains(self.live, self.regions)
            .into_iter()
            .map(|id| blocks.root(id))
            .collect();
        for (p, ruling) in self.input.seki.iter() {
            // `check` made sure every ruled point holds a living stone.
            let Some(chain) = self.live.chain_id(p) else {
                continue;
            };
            let root = blocks.root(chain);
            match ruling {
                SekiRuling::InSeki => seki.insert(root),
                SekiRuling::NotInSeki => seki.remove(&root),
            };
        }
        for region in self.regions {
            let Some(c) = region.owner else { continue };
            if region
                .chains
                .iter()
                .any(|&id| seki.contains(&blocks.root(id)))
            {
                self.seki_points += region_len(region);
            } else {
                self.counts[c.index()].territory += region_len(region);
            }
        }
        for side in &mut self.counts {
            side.total = f64::from(side.territory + side.prisoners);
        }
        let diff = self.counts[0].total - self.counts[1].total;
        let margin = diff - self.setup.komi - 2.0 * self.warning_balance();
        self.finish(ScoreUnit::Points, self.setup.komi, 0.0, margin)
    }

    fn finish(&self, unit: ScoreUnit, komi: f64, handicap_giveback: f64, margin: f64) -> Score {
        let result = GameResult::of_lead(Margin::new(margin, unit));
        Score {
            ruleset: self.setup.ruleset,
            unit,
            black: self.counts[0],
            white: self.counts[1],
            dame: self.dame,
            seki_points: self.seki_points,
            komi,
            handicap_giveback,
            warnings: self.input.warnings,
            margin: Margin::new(margin, unit),
            result,
        }
    }
}

impl Game {
    /// Counts the current position with the game's setup and captures.
    ///
    /// # Errors
    /// [`RulesError::BadDeadStones`] when a dead point holds no stone;
    /// [`RulesError::BadSekiMarks`] when a seki ruling names no living stone.
    pub fn score(&self, input: &CountInput) -> Result<Score, RulesError> {
        let prisoners = [self.captures(Color::Black), self.captures(Color::White)];
        score_position(self.board(), self.setup(), prisoners, input)
    }

    /// Counts the current position as if the game were played under `ruleset`, with the
    /// game's own komi, handicap and captures (for a second opinion, e.g. JK beside CN2002).
    ///
    /// # Errors
    /// As [`Game::score`].
    pub fn score_as(&self, ruleset: Ruleset, input: &CountInput) -> Result<Score, RulesError> {
        let prisoners = [self.captures(Color::Black), self.captures(Color::White)];
        let setup = self.setup().with_ruleset(ruleset);
        score_position(self.board(), &setup, prisoners, input)
    }

    /// Counts a game stopped by two passes and ends it with the count's result.
    ///
    /// # Errors
    /// [`RulesError::WrongState`] unless the game is being counted; bad dead stones.
    pub fn finish_by_count(&mut self, input: &CountInput) -> Result<Score, RulesError> {
        if self.state() != crate::GameState::Counting {
            return Err(RulesError::WrongState("counting needs two passes first"));
        }
        let score = self.score(input)?;
        self.end_with(score.result)?;
        Ok(score)
    }
}
