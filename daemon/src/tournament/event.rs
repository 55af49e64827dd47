//! The whole event: the imported OpenGotha file's rounds plus the rounds the desk confirmed, for standings (CN2002 art. 27) and the OpenGotha export.
//!
//! Art. 27 ranks over the whole event: a tournament run in OpenGotha
//! before the boards were set up (rounds 1-6 in its file) counts as much
//! as the rounds the desk confirmed. The file is the configured
//! `opengotha_file` when the current round came from it (read afresh: the
//! desk writes results into it, OpenGotha writes new rounds), otherwise the
//! last uploaded OpenGotha document. A result the desk confirmed wins over
//! the file's for the same round and table.

use std::collections::{BTreeMap, BTreeSet};

use goban_tournament::opengotha::OpenGothaTournament;
use goban_tournament::standings::{self, GameRecord, Rules};
use goban_tournament::{Decision, Outcome, PlayerId, TableNo, opengotha};

use super::desk::{Desk, DeskError};
use super::store::StoredResult;
use super::views::{StandingView, StandingsView};

impl Desk {
    /// The OpenGotha document of the event, if any: the configured file when the
    /// current round came from it or nothing was uploaded, else the last upload.
    fn event_document(&self) -> Result<Option<String>, DeskError> {
        let from_file = self
            .store()
            .latest_round()?
            .is_some_and(|r| r.source == "opengotha-file");
        let uploaded = self.store().documents()?.pop();
        match (&self.config.opengotha_file, uploaded) {
            (Some(path), uploaded) if from_file || uploaded.is_none() => {
                std::fs::read_to_string(path)
                    .map(Some)
                    .map_err(|e| DeskError::Config(format!("{}: {e}", path.display())))
            }
            (_, uploaded) => Ok(uploaded),
        }
    }

    /// Standings over the whole event (CN2002 27): the file's recorded results,
    /// then every confirmed result, with the referee's warnings.
    pub fn standings(&self) -> Result<StandingsView, DeskError> {
        let confirmed = self.store().results()?;
        let file = self.event_file();
        let (games, byes) = event_games(file.as_ref(), &confirmed, &self.desk_byes()?);
        let mut warnings: BTreeMap<PlayerId, u32> = BTreeMap::new();
        for r in &confirmed {
            *warnings.entry(PlayerId(r.black.clone())).or_default() += r.warnings[0];
            *warnings.entry(PlayerId(r.white.clone())).or_default() += r.warnings[1];
        }
        let mut names: BTreeMap<PlayerId, String> = file
            .as_ref()
            .map(|f| {
                f.players()
                    .iter()
                    .map(|(id, p)| (id.clone(), p.name.clone()))
                    .collect()
            })
            .unwrap_or_default();
        if let Ok(current) = self.store().latest_round()
            && let Some(current) = current
        {
            names.extend(
                current
                    .round
                    .players
                    .into_iter()
                    .map(|(id, p)| (id, p.name)),
            );
        }
        let lines = standings::compute(Rules::new(self.config.system), &games, &byes, &warnings);
        let system = match self.config.system {
            standings::System::Swiss => "swiss",
            standings::System::RoundRobin => "round_robin",
        };
        Ok(StandingsView {
            v: 1,
            system: system.to_owned(),
            standings: lines
                .iter()
                .map(|s| {
                    let name = names
                        .get(&s.player)
                        .cloned()
                        .unwrap_or_else(|| s.player.to_string());
                    StandingView::new(s, name)
                })
                .collect(),
        })
    }

    /// The event's OpenGotha file, read; one that cannot be read or parsed leaves the
    /// standings to the confirmed rounds, with a warning (they must not stop for it).
    fn event_file(&self) -> Option<OpenGothaTournament> {
        let parsed = self.event_document().and_then(|text| {
            text.map(|t| OpenGothaTournament::parse(&t).map_err(DeskError::from))
                .transpose()
        });
        parsed.unwrap_or_else(|error| {
            tracing::warn!(cause = %error, "standings without the OpenGotha file's rounds");
            None
        })
    }

    /// The byes of every round the desk loaded, as (round, player).
    fn desk_byes(&self) -> Result<Vec<(u32, PlayerId)>, DeskError> {
        let store = self.store();
        let mut byes = Vec::new();
        for number in store.round_numbers()? {
            if let Some(stored) = store.round(number)? {
                byes.extend(stored.round.byes.into_iter().map(|p| (number, p)));
            }
        }
        Ok(byes)
    }

    /// The event's OpenGotha document with every confirmed result written in:
    /// the configured `opengotha_file` (as it is now), or the last uploaded document.
    pub fn opengotha_export(&self) -> Result<String, DeskError> {
        let document = self.event_document()?.ok_or_else(|| {
            DeskError::Conflict(
                "no OpenGotha document: no opengotha_file is configured and none was uploaded"
                    .into(),
            )
        })?;
        let results = self.store().results()?;
        let parsed = OpenGothaTournament::parse(&document)?;
        let wanted: BTreeMap<(u32, TableNo), Decision> = results
            .iter()
            .filter(|r| {
                parsed
                    .games()
                    .iter()
                    .any(|g| g.round == r.round && g.pairing.table == r.table)
            })
            .map(|r| ((r.round, r.table), r.decision))
            .collect();
        Ok(opengotha::write_results(&document, &wanted)?)
    }
}

/// The games and byes standings count: the file's games with a known result
/// that the desk did not confirm again, then the desk's; byes of the rounds
/// that have a counted result.
fn event_games(
    file: Option<&OpenGothaTournament>,
    confirmed: &[StoredResult],
    desk_byes: &[(u32, PlayerId)],
) -> (Vec<GameRecord>, Vec<(u32, PlayerId)>) {
    let mine: BTreeSet<(u32, TableNo)> = confirmed.iter().map(|r| (r.round, r.table)).collect();
    let mut games: Vec<GameRecord> = file
        .map(OpenGothaTournament::games)
        .unwrap_or_default()
        .iter()
        .filter(|g| g.decision.outcome != Outcome::Unknown)
        .filter(|g| !mine.contains(&(g.round, g.pairing.table)))
        .map(|g| GameRecord {
            round: g.round,
            black: g.pairing.black.clone(),
            white: g.pairing.white.clone(),
            outcome: g.decision.outcome,
        })
        .collect();
    games.extend(confirmed.iter().map(|r| GameRecord {
        round: r.round,
        black: PlayerId(r.black.clone()),
        white: PlayerId(r.white.clone()),
        outcome: r.decision.outcome,
    }));
    let played: BTreeSet<u32> = games.iter().map(|g| g.round).collect();
    let mut byes: BTreeSet<(u32, PlayerId)> = file
        .map(OpenGothaTournament::byes)
        .unwrap_or_default()
        .iter()
        .cloned()
        .collect();
    byes.extend(desk_byes.iter().cloned());
    let byes = byes
        .into_iter()
        .filter(|(r, _)| played.contains(r))
        .collect();
    (games, byes)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<Tournament dataVersion="201">
<Players>
<Player name="Ma" firstName="Chao" rank="1D"/>
<Player name="Li" firstName="Wei" rank="2K"/>
<Player name="Zhang" firstName="San" rank="3K"/>
</Players>
<Games>
<Game roundNumber="1" tableNumber="1" whitePlayer="MACHAO" blackPlayer="LIWEI" result="RESULT_WHITEWINS"/>
<Game roundNumber="2" tableNumber="1" whitePlayer="LIWEI" blackPlayer="MACHAO" result="RESULT_UNKNOWN"/>
</Games>
<ByePlayers><ByePlayer roundNumber="1" player="ZHANGSAN"/><ByePlayer roundNumber="2" player="ZHANGSAN"/></ByePlayers>
</Tournament>"#;

    fn build_confirmed(round: u32, black: &str, white: &str, outcome: Outcome) -> StoredResult {
        StoredResult {
            round,
            table: TableNo(1),
            black: black.into(),
            white: white.into(),
            decision: Decision::played(outcome),
            warnings: [0, 0],
            game: None,
            ruled: false,
        }
    }

    #[test]
    fn the_files_rounds_count_with_the_confirmed_ones() {
        let file = OpenGothaTournament::parse(FILE).unwrap();
        let confirmed = [build_confirmed(2, "MACHAO", "LIWEI", Outcome::BlackWins)];
        let (games, byes) = event_games(Some(&file), &confirmed, &[]);
        assert_eq!(games.len(), 2, "round 1 from the file, round 2 confirmed");
        assert_eq!(byes.len(), 2, "Zhang's byes in rounds 1 and 2, both played");
        let lines = standings::compute(
            Rules::new(standings::System::Swiss),
            &games,
            &byes,
            &BTreeMap::new(),
        );
        let ma = lines
            .iter()
            .find(|l| l.player.as_str() == "MACHAO")
            .unwrap();
        assert_eq!((ma.games, ma.points), (2, 4));
    }

    #[test]
    fn a_confirmed_result_wins_over_the_files() {
        let file = OpenGothaTournament::parse(FILE).unwrap();
        let confirmed = [build_confirmed(1, "LIWEI", "MACHAO", Outcome::BlackWins)];
        let (games, byes) = event_games(Some(&file), &confirmed, &[]);
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].outcome, Outcome::BlackWins);
        assert_eq!(byes, vec![(1, PlayerId::from("ZHANGSAN"))]);
    }
}
