//! A round as plain CSV, `table,black,white,handicap,komi`, for organisers without a pairing program.
//!
//! One game per line. `handicap` and `komi` may be left empty or left off
//! (0 stones; the board's komi). A first line starting with `table` is a
//! header; lines starting with `#` are comments. Names are kept as written
//! and are the players' keys.

use serde::Deserialize;

use crate::{Pairing, Player, PlayerId, Round, TableNo, TournamentError};

#[derive(Deserialize)]
struct Row {
    table: u32,
    black: String,
    white: String,
    #[serde(default)]
    handicap: Option<u8>,
    #[serde(default)]
    komi: Option<f64>,
}

/// Reads round `number` from CSV text.
///
/// # Errors
/// [`TournamentError::Csv`] naming the line for a malformed row,
/// [`TournamentError::EmptyRound`] for a file without games, or a
/// validation error of [`Round::validated`].
pub fn read_round(text: &str, number: u32) -> Result<Round, TournamentError> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .comment(Some(b'#'))
        .from_reader(text.as_bytes());
    let columns = csv::StringRecord::from(vec!["table", "black", "white", "handicap", "komi"]);
    let mut round = Round {
        number,
        ..Round::default()
    };
    for record in reader.records() {
        let record = record?;
        if record
            .get(0)
            .is_some_and(|f| f.eq_ignore_ascii_case("table"))
        {
            continue;
        }
        let row: Row = record.deserialize(Some(&columns))?;
        let mut pairing = Pairing::new(row.table, &row.black, &row.white);
        pairing.handicap = row.handicap.unwrap_or(0);
        pairing.komi = row.komi;
        for name in [&row.black, &row.white] {
            let id = PlayerId(name.clone());
            round
                .players
                .insert(id.clone(), Player::named(id, name.clone()));
        }
        round.pairings.push(pairing);
    }
    if round.pairings.is_empty() {
        return Err(TournamentError::EmptyRound(number));
    }
    round.validated()
}

/// Writes a round back as CSV with a header line (handicap and komi always present).
///
/// # Errors
/// [`TournamentError::Csv`] if a name cannot be written.
pub fn write_round(round: &Round) -> Result<String, TournamentError> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(["table", "black", "white", "handicap", "komi"])?;
    for p in &round.pairings {
        let TableNo(table) = p.table;
        let komi = p.komi.map(|k| k.to_string()).unwrap_or_default();
        writer.write_record([
            table.to_string(),
            p.black.to_string(),
            p.white.to_string(),
            p.handicap.to_string(),
            komi,
        ])?;
    }
    let bytes = writer
        .into_inner()
        .map_err(|e| TournamentError::Csv(e.into_error().into()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_header_comments_optional_columns_and_quotes() {
        let text = "table,black,white,handicap,komi\n# round 1\n2,\"Li, Wei\",Chen Jie\n1,Wang Fang,Zhang Min,0,7.5\n3,A,B,3,\n";
        let r = read_round(text, 1).unwrap();
        assert_eq!(r.pairings.len(), 3);
        assert_eq!(r.pairings[0].black.as_str(), "Wang Fang");
        assert_eq!(r.pairings[0].komi, Some(7.5));
        assert_eq!(r.pairings[1].black.as_str(), "Li, Wei");
        assert_eq!(r.pairings[1].komi, None);
        assert_eq!(r.pairings[2].handicap, 3);
        assert_eq!(r.display_name(&PlayerId::from("Chen Jie")), "Chen Jie");
    }

    #[test]
    fn round_trips_through_write_round() {
        let text = "1,Wang Fang,Zhang Min,0,7.5\n2,\"Li, Wei\",Chen Jie,2,0\n";
        let r = read_round(text, 4).unwrap();
        let again = read_round(&write_round(&r).unwrap(), 4).unwrap();
        assert_eq!(again.pairings, r.pairings);
    }

    #[test]
    fn names_the_line_of_a_bad_row() {
        let err = read_round("1,A,B\nx,C,D\n", 1).unwrap_err().to_string();
        assert!(err.contains("line: 2"), "{err}");
        assert!(matches!(
            read_round("# nothing\n", 1),
            Err(TournamentError::EmptyRound(1))
        ));
        assert!(read_round("1,A,B,12\n", 1).is_err(), "12 handicap stones");
    }
}
