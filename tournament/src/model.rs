//! The round model: who plays whom at which table, with what handicap, komi and clock.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use goban_referee::clock::TimeControl;
use serde::{Deserialize, Serialize};

use crate::TournamentError;

/// The most handicap stones a pairing may give (CN2002 handicap tables stop at 9).
pub const MAX_HANDICAP: u8 = 9;

/// A player's key in the pairing program: OpenGotha's upper-case
/// `NAMEFIRSTNAME`, Pairgoth's numeric id as text, or the CSV's name.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlayerId(pub String);

impl PlayerId {
    /// The key as text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for PlayerId {
    fn from(text: &str) -> Self {
        Self(text.to_owned())
    }
}

/// A table number as the pairing program prints it (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TableNo(pub u32);

impl fmt::Display for TableNo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A registered player: key and the name to show and to write in the SGF.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The key the games use.
    pub id: PlayerId,
    /// The display name, "First Last" or the CSV's text.
    pub name: String,
    /// The rank as the program writes it ("3K", "1D"), if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank: Option<String>,
    /// The player's club as the program writes it (OpenGotha's `club`, Pairgoth's `club`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub club: Option<String>,
    /// The player's country code ("FR", "CN"), if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
}

impl Player {
    /// A player known by key and name only (a CSV round).
    pub fn named(id: PlayerId, name: String) -> Self {
        Self {
            id,
            name,
            rank: None,
            club: None,
            country: None,
        }
    }
}

/// One game of a round: the seating of one table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pairing {
    /// The table.
    pub table: TableNo,
    /// Black's key.
    pub black: PlayerId,
    /// White's key.
    pub white: PlayerId,
    /// Handicap stones (0 for an even game).
    pub handicap: u8,
    /// Komi in points, when the source sets one; `None` keeps the board's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub komi: Option<f64>,
    /// The time control, when the source sets one; `None` keeps the board's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_control: Option<TimeControl>,
    /// False when the pairing program left the colours to a nigiri
    /// (OpenGotha `knownColor="false"`).
    pub colors_known: bool,
    /// The pairing program's game id (Pairgoth's `id`), needed to send the result back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_id: Option<u64>,
}

impl Pairing {
    /// An even game at `table` with colours known and the board's komi and clock.
    #[must_use]
    pub fn new(table: u32, black: &str, white: &str) -> Self {
        Self {
            table: TableNo(table),
            black: black.into(),
            white: white.into(),
            handicap: 0,
            komi: None,
            time_control: None,
            colors_known: true,
            game_id: None,
        }
    }

    /// Whether `player` sits at this table.
    #[must_use]
    pub fn seats(&self, player: &PlayerId) -> bool {
        &self.black == player || &self.white == player
    }
}

/// A round: its number, its games by table, the players with a bye, and the
/// players' names.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Round {
    /// The round number (1-based).
    pub number: u32,
    /// The games, in table order.
    pub pairings: Vec<Pairing>,
    /// Players with a bye this round.
    #[serde(default)]
    pub byes: Vec<PlayerId>,
    /// Names by key, for every player the games or byes mention.
    #[serde(default)]
    pub players: BTreeMap<PlayerId, Player>,
}

impl Round {
    /// Sorts the games by table and checks the round can be seated: tables
    /// from 1, each once; each player once; no one playing themself; handicap
    /// at most 9; a finite, non-negative komi under 100.
    ///
    /// # Errors
    /// [`TournamentError::Inconsistent`] or [`TournamentError::BadField`] naming the clash.
    pub fn validated(mut self) -> Result<Self, TournamentError> {
        self.pairings.sort_by_key(|p| p.table);
        let round = self.number;
        let clash = |detail: String| TournamentError::Inconsistent { round, detail };
        let mut tables = BTreeSet::new();
        let mut seated = BTreeSet::new();
        for p in &self.pairings {
            check_fields(p)?;
            if !tables.insert(p.table) {
                return Err(clash(format!("table {} is paired twice", p.table)));
            }
            if p.black == p.white {
                return Err(clash(format!(
                    "{} plays themself at table {}",
                    p.black, p.table
                )));
            }
            for who in [&p.black, &p.white] {
                if !seated.insert(who.clone()) {
                    return Err(clash(format!("{who} is seated at two tables")));
                }
            }
        }
        if let Some(bye) = self.byes.iter().find(|b| seated.contains(*b)) {
            return Err(clash(format!("{bye} has a bye and a table")));
        }
        Ok(self)
    }

    /// The game at `table`.
    #[must_use]
    pub fn at_table(&self, table: TableNo) -> Option<&Pairing> {
        self.pairings.iter().find(|p| p.table == table)
    }

    /// The name to show for `id`: the registered name, else the key itself.
    #[must_use]
    pub fn display_name<'a>(&'a self, id: &'a PlayerId) -> &'a str {
        self.players
            .get(id)
            .map_or(id.as_str(), |p| p.name.as_str())
    }
}

/// A player's name to show, in the order the pairing program gives it:
/// family name, then given name (OpenGotha's `Player.fullName`), joined by
/// a space, or by nothing when both are written in CJK characters (马超).
#[must_use]
pub fn full_name(family: &str, given: &str) -> String {
    let (family, given) = (family.trim(), given.trim());
    let cjk = |s: &str| !s.is_empty() && s.chars().all(is_cjk);
    if cjk(family) && cjk(given) {
        format!("{family}{given}")
    } else {
        format!("{family} {given}").trim().to_owned()
    }
}

/// Han, kana and Hangul: scripts whose names are written without a space.
fn is_cjk(c: char) -> bool {
    matches!(u32::from(c),
        0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF
        | 0xF900..=0xFAFF | 0x20000..=0x3134F)
}

fn check_fields(p: &Pairing) -> Result<(), TournamentError> {
    if p.table.0 == 0 {
        return Err(TournamentError::BadField {
            field: "table",
            detail: "table numbers start at 1".into(),
        });
    }
    if p.handicap > MAX_HANDICAP {
        return Err(TournamentError::BadField {
            field: "handicap",
            detail: format!(
                "{} stones at table {} (at most {MAX_HANDICAP})",
                p.handicap, p.table
            ),
        });
    }
    if let Some(k) = p.komi
        && !(k.is_finite() && (-100.0..100.0).contains(&k))
    {
        return Err(TournamentError::BadField {
            field: "komi",
            detail: format!("{k} at table {}", p.table),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build_round(pairings: Vec<Pairing>) -> Round {
        Round {
            number: 1,
            pairings,
            ..Round::default()
        }
    }

    #[test]
    fn sorts_by_table_and_accepts_a_clean_round() {
        let r = build_round(vec![Pairing::new(2, "C", "D"), Pairing::new(1, "A", "B")])
            .validated()
            .unwrap();
        assert_eq!(r.pairings[0].table, TableNo(1));
        assert_eq!(r.at_table(TableNo(2)).unwrap().white.as_str(), "D");
    }

    #[test]
    fn rejects_a_table_twice_a_player_twice_and_self_play() {
        let twice = build_round(vec![Pairing::new(1, "A", "B"), Pairing::new(1, "C", "D")]);
        assert!(
            twice
                .validated()
                .unwrap_err()
                .to_string()
                .contains("table 1 is paired twice")
        );
        let seated = build_round(vec![Pairing::new(1, "A", "B"), Pairing::new(2, "A", "D")]);
        assert!(
            seated
                .validated()
                .unwrap_err()
                .to_string()
                .contains("two tables")
        );
        let own = build_round(vec![Pairing::new(1, "A", "A")]);
        assert!(own.validated().is_err());
    }

    #[test]
    fn rejects_table_zero_and_ten_stones() {
        assert!(
            build_round(vec![Pairing::new(0, "A", "B")])
                .validated()
                .is_err()
        );
        let mut p = Pairing::new(1, "A", "B");
        p.handicap = 10;
        assert!(build_round(vec![p]).validated().is_err());
    }
}
