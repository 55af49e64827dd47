//! Arbiter rulings on seki (JK): groups ruled in seki, or not, overriding the count's heuristic.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::{Board, Point, RulesError};

/// An arbiter's ruling on one group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum SekiRuling {
    /// The group is in seki: under JK the points it surrounds are not territory.
    InSeki,
    /// The group is not in seki, whatever the heuristic says.
    NotInSeki,
}

/// Rulings on seki, by a point of each group ruled (CN2002 art. 21.2 and JK: a seki the
/// count cannot decide is settled by the arbiter).
///
/// A ruling covers the living block through its point: the chain there and every chain of
/// its colour sharing an eye with it. It covers only that block: to rule a whole seki, rule
/// each group in it, of both colours. Rulings matter only where seki changes the count
/// (JK territory); area counting counts seki eyes anyway.
///
/// ```
/// use goban_rules::score::{SekiMarks, SekiRuling};
/// use goban_rules::{BoardSize, Point};
/// let d4 = Point::parse_human("D4", BoardSize::NINETEEN).unwrap();
/// let mut marks = SekiMarks::new();
/// marks.rule(d4, SekiRuling::InSeki);
/// assert_eq!(marks.ruling(d4), Some(SekiRuling::InSeki));
/// marks.clear(d4);
/// assert!(marks.is_empty());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SekiMarks(BTreeMap<Point, SekiRuling>);

impl SekiMarks {
    /// No rulings: the heuristic decides.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Rules the group through `p` (replacing an earlier ruling on `p`).
    pub fn rule(&mut self, p: Point, ruling: SekiRuling) {
        self.0.insert(p, ruling);
    }

    /// Withdraws the ruling on `p`: the heuristic decides again.
    pub fn clear(&mut self, p: Point) {
        self.0.remove(&p);
    }

    /// The ruling on `p`, if any.
    #[must_use]
    pub fn ruling(&self, p: Point) -> Option<SekiRuling> {
        self.0.get(&p).copied()
    }

    /// The rulings in point order.
    pub fn iter(&self) -> impl Iterator<Item = (Point, SekiRuling)> + '_ {
        self.0.iter().map(|(&p, &r)| (p, r))
    }

    /// Whether there is no ruling.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Checks that every ruled point holds a living stone of `live` (dead stones removed).
    ///
    /// # Errors
    /// [`RulesError::BadSekiMarks`] naming the first point without a living stone.
    pub fn check(&self, live: &Board) -> Result<(), RulesError> {
        match self.0.keys().find(|&&p| live.get(p).is_none()) {
            Some(&p) => Err(RulesError::BadSekiMarks(format!(
                "{} holds no living stone",
                p.to_human(live.size())
            ))),
            None => Ok(()),
        }
    }
}
