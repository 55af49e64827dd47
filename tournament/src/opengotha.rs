//! OpenGotha tournament files: read a round and the recorded results, write confirmed results back.
//!
//! The element and attribute names follow OpenGotha's `tournament.dtd`:
//! `<Tournament><Players><Player name firstName rank …/></Players>
//! <Games><Game roundNumber tableNumber whitePlayer blackPlayer knownColor
//! handicap result/></Games><ByePlayers><ByePlayer roundNumber player/>
//! </ByePlayers><TournamentParameterSet><GeneralParameterSet komi basicTime
//! complementaryTimeSystem …/></TournamentParameterSet></Tournament>`.
//! Games name players by OpenGotha's key (`Player.computeKeyString`): name
//! then first name, every space removed, upper-cased; `tableNumber` is
//! written 1-based.
//!
//! Reading follows OpenGotha's own import (`ExternalDocument.importGamesFromXMLFile`):
//! a game's player is looked up by that key (also as a Turkish-locale Java
//! upper-cases it: `YİLMAZ`), then by the obsolete canonical name (accents
//! folded, letters only); a game whose player is still not found is left
//! out, as OpenGotha leaves it out, and [`OpenGothaTournament::skipped`]
//! says which and why. One difference: OpenGotha 3.51 no longer writes
//! `dataVersion`, reads its absence as 200 and then looks its own keys up
//! as obsolete names only, so it loses the games of a `JEAN-FRANÇOIS`
//! reopening its own file; the key is always tried first here.
//! A second player with the key of an earlier one is refused as OpenGotha's
//! `Tournament.addPlayer` refuses a homonym: the first stays.
//!
//! Reading uses `quick-xml`'s serde deserializer on a few typed structs and
//! ignores the rest; writing results streams the original document through
//! `quick-xml`'s reader and writer and changes only the `result` attribute
//! of the games concerned, so every other element (pairing parameters,
//! teams, clubs) goes back to OpenGotha byte for byte.

use std::collections::BTreeMap;
use std::str::FromStr;

use goban_referee::clock::{Millis, TimeControl};
use quick_xml::events::{BytesStart, Event};
use quick_xml::{Reader, Writer};
use serde::Deserialize;

use crate::{Decision, Pairing, Player, PlayerId, Round, TableNo, TournamentError};

/// The parts of an OpenGotha file this crate uses.
#[derive(Clone, Debug)]
pub struct OpenGothaTournament {
    players: BTreeMap<PlayerId, Player>,
    games: Vec<RecordedGame>,
    skipped: Vec<Skipped>,
    byes: Vec<(u32, PlayerId)>,
    komi: Option<f64>,
    time_control: Option<TimeControl>,
}

/// A `<Game>`, `<ByePlayer>` or `<Player>` of the file that OpenGotha's own
/// import leaves out, with the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The round of the game or bye (0 for a player).
    pub round: u32,
    /// Why it was left out.
    pub reason: String,
}

/// One game of the file with its round and its recorded result.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedGame {
    /// The round number.
    pub round: u32,
    /// The seating.
    pub pairing: Pairing,
    /// The result the file records (`RESULT_UNKNOWN` while unplayed).
    pub decision: Decision,
}

impl OpenGothaTournament {
    /// Parses an OpenGotha file.
    ///
    /// # Errors
    /// [`TournamentError::Xml`] for malformed XML or a value the DTD does not
    /// allow; [`TournamentError::UnknownPlayer`] for a game naming an
    /// unregistered player; [`TournamentError::UnknownResult`] for a result
    /// code OpenGotha does not define.
    pub fn parse(xml: &str) -> Result<Self, TournamentError> {
        let doc: XTournament = quick_xml::de::from_str(xml)?;
        let general = doc.params.and_then(|p| p.general);
        let komi = general.as_ref().and_then(XGeneral::komi).transpose()?;
        let time_control = general.as_ref().and_then(XGeneral::time_control);
        let mut skipped = Vec::new();
        let (players, obsolete) = register(doc.players.list, &mut skipped)?;
        let lookup = Lookup::new(&players, &obsolete);
        let mut games = Vec::with_capacity(doc.games.list.len());
        for g in doc.games.list {
            let round = g.round;
            match g.into_recorded(&lookup, komi, time_control)? {
                Ok(game) => games.push(game),
                Err(reason) => skipped.push(Skipped { round, reason }),
            }
        }
        let mut byes = Vec::new();
        for b in doc.byes.list {
            match lookup.find(&b.player) {
                Some(id) => byes.push((b.round, id)),
                None => skipped.push(Skipped {
                    round: b.round,
                    reason: format!("bye of unknown player {:?} left out", b.player),
                }),
            }
        }
        Ok(Self {
            players,
            games,
            skipped,
            byes,
            komi,
            time_control,
        })
    }

    /// Round `number`, validated, with the file's komi (0 for handicap games,
    /// CN2002: "no komi" with handicap) and time control.
    ///
    /// # Errors
    /// [`TournamentError::EmptyRound`] when the file has no game in that round,
    /// or a validation error of [`Round::validated`].
    pub fn round(&self, number: u32) -> Result<Round, TournamentError> {
        let pairings: Vec<Pairing> = self
            .games
            .iter()
            .filter(|g| g.round == number)
            .map(|g| g.pairing.clone())
            .collect();
        if pairings.is_empty() {
            return Err(TournamentError::EmptyRound(number));
        }
        let byes: Vec<PlayerId> = self
            .byes
            .iter()
            .filter(|(r, _)| *r == number)
            .map(|(_, p)| p.clone())
            .collect();
        let players = self
            .players
            .iter()
            .filter(|(id, _)| byes.contains(id) || pairings.iter().any(|p| p.seats(id)))
            .map(|(id, p)| (id.clone(), p.clone()))
            .collect();
        Round {
            number,
            pairings,
            byes,
            players,
        }
        .validated()
    }

    /// Every game of the file, all rounds, with its recorded result.
    #[must_use]
    pub fn games(&self) -> &[RecordedGame] {
        &self.games
    }

    /// What OpenGotha's import would leave out of this file, with the reasons.
    #[must_use]
    pub fn skipped(&self) -> &[Skipped] {
        &self.skipped
    }

    /// Every registered player.
    #[must_use]
    pub const fn players(&self) -> &BTreeMap<PlayerId, Player> {
        &self.players
    }

    /// The byes, as (round, player).
    #[must_use]
    pub fn byes(&self) -> &[(u32, PlayerId)] {
        &self.byes
    }

    /// The komi of the file's general parameters, if it sets one.
    #[must_use]
    pub const fn komi(&self) -> Option<f64> {
        self.komi
    }

    /// The time control of the file's general parameters, if it sets one.
    #[must_use]
    pub const fn time_control(&self) -> Option<TimeControl> {
        self.time_control
    }
}

/// Writes `results` (round, table → decision) into the OpenGotha document
/// `xml` and returns the new document. Only the `result` attribute of those
/// games changes; everything else is copied as it was.
///
/// # Errors
/// [`TournamentError::Xml`] when the document does not parse, or
/// [`TournamentError::Inconsistent`] when a result names a game the file
/// does not have.
pub fn write_results(
    xml: &str,
    results: &BTreeMap<(u32, TableNo), Decision>,
) -> Result<String, TournamentError> {
    let mut reader = Reader::from_str(xml);
    let mut writer = Writer::new(Vec::with_capacity(xml.len() + 64));
    let mut applied = 0usize;
    loop {
        let event = reader.read_event()?;
        let out = match event {
            Event::Eof => break,
            Event::Empty(ref e) if e.name().as_ref() == b"Game" => {
                rewrite_game(e, results, &mut applied)?.map_or(event, Event::Empty)
            }
            Event::Start(ref e) if e.name().as_ref() == b"Game" => {
                rewrite_game(e, results, &mut applied)?.map_or(event, Event::Start)
            }
            other => other,
        };
        writer
            .write_event(out)
            .map_err(|e| TournamentError::Xml(e.to_string()))?;
    }
    if applied != results.len() {
        let missing = results.keys().find(|key| !game_exists(xml, **key));
        return Err(TournamentError::Inconsistent {
            round: missing.map_or(0, |k| k.0),
            detail: format!(
                "no game at table {} in this OpenGotha file",
                missing.map_or(0, |k| k.1.0)
            ),
        });
    }
    String::from_utf8(writer.into_inner()).map_err(|e| TournamentError::Xml(e.to_string()))
}

/// The same `<Game>` with its `result` replaced, when `results` has one for it.
fn rewrite_game(
    e: &BytesStart<'_>,
    results: &BTreeMap<(u32, TableNo), Decision>,
    applied: &mut usize,
) -> Result<Option<BytesStart<'static>>, TournamentError> {
    let mut round = None;
    let mut table = None;
    for attr in e.attributes() {
        let attr = attr.map_err(|err| TournamentError::Xml(err.to_string()))?;
        let value = attr.unescape_value()?;
        match attr.key.as_ref() {
            b"roundNumber" => round = value.trim().parse::<u32>().ok(),
            b"tableNumber" => table = value.trim().parse::<u32>().ok(),
            _ => {}
        }
    }
    let (Some(round), Some(table)) = (round, table) else {
        return Ok(None);
    };
    let Some(decision) = results.get(&(round, TableNo(table))) else {
        return Ok(None);
    };
    *applied += 1;
    let mut out = BytesStart::new("Game");
    let mut had_result = false;
    for attr in e.attributes().flatten() {
        if attr.key.as_ref() == b"result" {
            had_result = true;
            out.push_attribute(("result", decision.opengotha_code()));
        } else {
            out.push_attribute(attr);
        }
    }
    if !had_result {
        out.push_attribute(("result", decision.opengotha_code()));
    }
    Ok(Some(out.into_owned()))
}

fn game_exists(xml: &str, (round, table): (u32, TableNo)) -> bool {
    OpenGothaTournament::parse(xml)
        .map(|t| {
            t.games
                .iter()
                .any(|g| g.round == round && g.pairing.table == table)
        })
        .unwrap_or(false)
}

/// OpenGotha's key for a player (`Player.computeKeyString`): name then first
/// name, every space (U+0020 only, as Java's `replaceAll(" ", "")`) removed,
/// upper-cased.
#[must_use]
pub fn player_key(name: &str, first_name: &str) -> PlayerId {
    key_of(&format!("{name}{first_name}"))
}

/// `Player.computeKeyString(String)`: what a game's `whitePlayer` is looked up by.
fn key_of(text: &str) -> PlayerId {
    PlayerId(text.replace(' ', "").to_uppercase())
}

/// The key OpenGotha computes in a Turkish locale (Java's `toUpperCase()` follows the
/// default locale: `i` becomes `İ`, `ı` becomes `I`). Files saved there name players so
/// (`YİLMAZSARP_EGE`), and OpenGotha on that machine reads them back.
fn turkish_key(text: &str) -> PlayerId {
    PlayerId(
        text.replace(' ', "")
            .chars()
            .flat_map(|c| match c {
                'i' => "İ".chars().collect::<Vec<_>>(),
                'ı' => vec!['I'],
                c => c.to_uppercase().collect(),
            })
            .collect(),
    )
}

/// The players of the file by key; a player OpenGotha's `Player` constructor
/// refuses (an empty name or first name) makes OpenGotha's import fail, and
/// so the file is refused; a homonym is left out with a reason.
fn register(
    list: Vec<XPlayer>,
    skipped: &mut Vec<Skipped>,
) -> Result<(BTreeMap<PlayerId, Player>, OtherNames), TournamentError> {
    let mut players = BTreeMap::new();
    let mut obsolete = Vec::new();
    for p in list {
        if p.name.is_empty() || p.first_name.is_empty() {
            return Err(TournamentError::BadField {
                field: "Player",
                detail: format!(
                    "{:?} {:?}: OpenGotha needs a name and a first name of at least one character",
                    p.name, p.first_name
                ),
            });
        }
        let key = p.key();
        if players.contains_key(&key) {
            skipped.push(Skipped {
                round: 0,
                reason: format!("player {key} registered twice: the second is left out"),
            });
            continue;
        }
        obsolete.push((obsolete_name(&p.name, &p.first_name), key.clone()));
        let turkish = turkish_key(&format!("{}{}", p.name, p.first_name));
        if turkish != key {
            obsolete.push((turkish.0, key.clone()));
        }
        let mut player = p.into_player();
        player.id = key.clone();
        players.insert(key, player);
    }
    Ok((players, obsolete))
}

/// (obsolete canonical name or Turkish-locale key, key), in the file's order.
type OtherNames = Vec<(String, PlayerId)>;

/// How a game's player text finds its player, as OpenGotha's import does (its key in
/// OpenGotha's locale, which may be Turkish, then the obsolete canonical name).
struct Lookup<'a> {
    players: &'a BTreeMap<PlayerId, Player>,
    /// (obsolete canonical name or Turkish-locale key, key) in the file's order.
    obsolete: &'a [(String, PlayerId)],
}

impl<'a> Lookup<'a> {
    fn new(players: &'a BTreeMap<PlayerId, Player>, obsolete: &'a [(String, PlayerId)]) -> Self {
        Self { players, obsolete }
    }

    /// `getPlayerByKeyString`, then the key in a Turkish locale or the obsolete
    /// canonical name, then the obsolete name of `forceToASCII(text).toUpperCase()`.
    fn find(&self, text: &str) -> Option<PlayerId> {
        let key = key_of(text);
        if self.players.contains_key(&key) {
            return Some(key);
        }
        self.by_obsolete_name(&key.0)
            .or_else(|| self.by_obsolete_name(&fold_accents(text).to_uppercase()))
    }

    /// `Tournament.getPlayerByObsoleteCanonicalName`: the first player whose upper-cased
    /// name and first name, accents folded, letters A-Z only, equal `canonical`.
    fn by_obsolete_name(&self, canonical: &str) -> Option<PlayerId> {
        self.obsolete
            .iter()
            .find(|(name, _)| name == canonical)
            .map(|(_, id)| id.clone())
    }
}

fn obsolete_name(name: &str, first_name: &str) -> String {
    let upper = format!("{}{}", name.to_uppercase(), first_name.to_uppercase());
    fold_accents(&upper)
        .chars()
        .filter(char::is_ascii_uppercase)
        .collect()
}

/// `Gotha.forceToASCII`'s Latin-9 folds (the obsolete names were built with them).
fn fold_accents(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            'À'..='Å' => 'A',
            'Ç' => 'C',
            'È'..='Ë' => 'E',
            'Ì'..='Ï' => 'I',
            'Ñ' => 'N',
            'Ò'..='Ö' | 'Ø' => 'O',
            'Ù'..='Ü' => 'U',
            'Ý' => 'Y',
            'à'..='å' => 'a',
            'ç' => 'c',
            'è'..='ë' => 'e',
            'ì'..='ï' | 'ı' => 'i',
            'ñ' => 'n',
            'ò'..='ö' | 'ø' => 'o',
            'ù'..='ü' => 'u',
            'ý' => 'y',
            'ğ' => 'g',
            'ş' => 's',
            'Ğ' => 'G',
            'Ş' => 'S',
            'İ' => 'I',
            c if u32::from(c) > 127 => '?',
            other => other,
        })
        .collect()
}

#[derive(Deserialize)]
struct XTournament {
    #[serde(rename = "Players", default)]
    players: XPlayers,
    #[serde(rename = "Games", default)]
    games: XGames,
    #[serde(rename = "ByePlayers", default)]
    byes: XByes,
    #[serde(rename = "TournamentParameterSet", default)]
    params: Option<XParams>,
}

#[derive(Deserialize, Default)]
struct XPlayers {
    #[serde(rename = "Player", default)]
    list: Vec<XPlayer>,
}

#[derive(Deserialize, Default)]
struct XGames {
    #[serde(rename = "Game", default)]
    list: Vec<XGame>,
}

#[derive(Deserialize, Default)]
struct XByes {
    #[serde(rename = "ByePlayer", default)]
    list: Vec<XBye>,
}

#[derive(Deserialize)]
struct XPlayer {
    #[serde(rename = "@name")]
    name: String,
    #[serde(rename = "@firstName")]
    first_name: String,
    #[serde(rename = "@rank", default)]
    rank: Option<String>,
    #[serde(rename = "@club", default)]
    club: Option<String>,
    #[serde(rename = "@country", default)]
    country: Option<String>,
}

impl XPlayer {
    fn key(&self) -> PlayerId {
        player_key(&self.name, &self.first_name)
    }

    fn into_player(self) -> Player {
        Player {
            id: PlayerId(String::new()),
            name: crate::model::full_name(&self.name, &self.first_name),
            rank: self.rank.filter(|r| !r.is_empty()),
            club: self.club.filter(|c| !c.is_empty()),
            country: self.country.filter(|c| !c.is_empty()),
        }
    }
}

#[derive(Deserialize)]
struct XGame {
    #[serde(rename = "@roundNumber")]
    round: u32,
    #[serde(rename = "@tableNumber")]
    table: u32,
    #[serde(rename = "@whitePlayer")]
    white: String,
    #[serde(rename = "@blackPlayer")]
    black: String,
    #[serde(rename = "@knownColor", default = "dtd_true")]
    known_color: String,
    #[serde(rename = "@handicap", default)]
    handicap: u8,
    #[serde(rename = "@result", default = "dtd_unknown")]
    result: String,
}

fn dtd_true() -> String {
    "true".into()
}

fn dtd_unknown() -> String {
    "RESULT_UNKNOWN".into()
}

impl XGame {
    /// The game, or why OpenGotha's import leaves it out (a player it cannot find).
    fn into_recorded(
        self,
        lookup: &Lookup<'_>,
        komi: Option<f64>,
        time_control: Option<TimeControl>,
    ) -> Result<Result<RecordedGame, String>, TournamentError> {
        let (Some(black), Some(white)) = (lookup.find(&self.black), lookup.find(&self.white))
        else {
            let unknown = [&self.black, &self.white]
                .into_iter()
                .find(|p| lookup.find(p).is_none())
                .cloned()
                .unwrap_or_default();
            return Ok(Err(format!(
                "game at table {} names unknown player {unknown:?}: OpenGotha leaves it out",
                self.table
            )));
        };
        let pairing = Pairing {
            table: TableNo(self.table),
            black,
            white,
            handicap: self.handicap,
            komi: if self.handicap > 0 { Some(0.0) } else { komi },
            time_control,
            colors_known: self.known_color.trim() != "false",
            game_id: None,
        };
        let decision = Decision::parse_opengotha(self.result.trim())?;
        Ok(Ok(RecordedGame {
            round: self.round,
            pairing,
            decision,
        }))
    }
}

#[derive(Deserialize)]
struct XBye {
    #[serde(rename = "@roundNumber")]
    round: u32,
    #[serde(rename = "@player")]
    player: String,
}

#[derive(Deserialize)]
struct XParams {
    #[serde(rename = "GeneralParameterSet", default)]
    general: Option<XGeneral>,
}

#[derive(Deserialize)]
struct XGeneral {
    #[serde(rename = "@komi", default)]
    komi: Option<String>,
    #[serde(rename = "@basicTime", default)]
    basic_minutes: Option<u64>,
    #[serde(rename = "@complementaryTimeSystem", default)]
    system: Option<String>,
    #[serde(rename = "@stdByoYomiTime", default)]
    std_byoyomi_s: Option<u64>,
    #[serde(rename = "@nbMovesCanTime", default)]
    can_moves: Option<u32>,
    #[serde(rename = "@canByoYomiTime", default)]
    can_block_s: Option<u64>,
    #[serde(rename = "@fischerTime", default)]
    fischer_s: Option<u64>,
}

impl XGeneral {
    fn komi(&self) -> Option<Result<f64, TournamentError>> {
        let text = self.komi.as_deref()?.trim();
        Some(
            text.parse::<f64>()
                .ok()
                .filter(|k| k.is_finite())
                .ok_or_else(|| TournamentError::BadField {
                    field: "komi",
                    detail: format!("{text:?} is not a number"),
                }),
        )
    }

    /// OpenGotha's time systems in the referee's terms. `basicTime` is in
    /// minutes, the byo-yomi and increment fields in seconds; OpenGotha's
    /// standard byo-yomi is one period.
    fn time_control(&self) -> Option<TimeControl> {
        let main = Millis::minutes(self.basic_minutes?);
        let tc = match self.system.as_deref()? {
            "SUDDENDEATH" => TimeControl::Absolute { main },
            "STDBYOYOMI" => TimeControl::ByoyomiJp {
                main,
                periods: 1,
                period: Millis::seconds(self.std_byoyomi_s?),
            },
            "CANBYOYOMI" => TimeControl::Canadian {
                main,
                moves: self.can_moves?,
                block: Millis::seconds(self.can_block_s?),
            },
            "FISCHER" => TimeControl::Fischer {
                main,
                increment: Millis::seconds(self.fischer_s?),
                max: None,
            },
            _ => return None,
        };
        // The referee's own grammar is the judge of a valid time control.
        TimeControl::from_str(&tc.to_string()).ok()
    }
}
