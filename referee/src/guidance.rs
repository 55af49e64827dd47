//! The restore list: which points must change so the physical board shows the game position (the LEDs a board would light).

use goban_rules::Color;
use serde::{Deserialize, Serialize};

use crate::input::Reading;

/// A stone to put on the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StoneAt {
    /// "D4" notation.
    #[cfg_attr(feature = "openapi", schema(example = "D4"))]
    pub point: String,
    /// Its colour.
    pub color: Color,
}

/// What to change on the physical board to restore the game position (CN2002 17.5, 17.6).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Guidance {
    /// Stones to put back.
    pub add: Vec<StoneAt>,
    /// Points to clear ("D4" notation).
    pub remove: Vec<String>,
    /// Wire indices to light, in index order (`$LED`).
    pub leds: Vec<u16>,
}

impl Guidance {
    /// Whether the board already shows the game position.
    pub fn is_empty(&self) -> bool {
        self.leds.is_empty()
    }

    /// Compares `physical` with `game`, skipping unreadable points; `name`
    /// writes an index in "D4" notation.
    pub fn between(game: &[Reading], physical: &[Reading], name: impl Fn(usize) -> String) -> Self {
        let mut out = Self::default();
        for (index, (g, p)) in game.iter().zip(physical).enumerate() {
            if g == p || *p == Reading::Unknown {
                continue;
            }
            if p.color().is_some() {
                out.remove.push(name(index));
            }
            if let Some(color) = g.color() {
                out.add.push(StoneAt {
                    point: name(index),
                    color,
                });
            }
            // Invariant: indices come from a board of at most 25x25 points, far below u16::MAX.
            out.leds.push(u16::try_from(index).unwrap_or(u16::MAX));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(points: &str) -> Vec<Reading> {
        points.chars().filter_map(Reading::from_char).collect()
    }

    #[test]
    fn lists_stones_to_add_and_remove() {
        let g = Guidance::between(&build("B.W."), &build(".BB?"), |i| format!("p{i}"));
        assert_eq!(g.remove, vec!["p1", "p2"]);
        assert_eq!(
            g.add,
            vec![
                StoneAt {
                    point: "p0".into(),
                    color: Color::Black
                },
                StoneAt {
                    point: "p2".into(),
                    color: Color::White
                }
            ]
        );
        assert_eq!(g.leds, vec![0, 1, 2]);
    }

    #[test]
    fn unreadable_points_are_not_guided() {
        let g = Guidance::between(&build("B"), &build("?"), |i| format!("p{i}"));
        assert!(g.is_empty());
    }
}
