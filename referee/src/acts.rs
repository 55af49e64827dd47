//! Signed arbiter acts: the command applied, then written into the game's audit trail in words.

use goban_rules::Color;
use goban_rules::score::SekiRuling;

use crate::audit::AuditEntry;
use crate::event::EventKind;
use crate::infraction::InfractionId;
use crate::input::{ArbiterAct, ArbiterCommand, RulingAction};
use crate::match_state::Match;
use crate::referee::Referee;
use crate::state::PerColor;

fn color_word(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// A duration in words: "1 min 30 s", "45 s", "250 ms".
pub(crate) fn duration_words(ms: u64) -> String {
    let (min, s, rest) = (ms / 60_000, ms / 1000 % 60, ms % 1000);
    match (min, s, rest) {
        (0, 0, r) => format!("{r} ms"),
        (0, s, 0) => format!("{s} s"),
        (m, 0, 0) => format!("{m} min"),
        (m, s, 0) => format!("{m} min {s} s"),
        _ => format!("{:.1} s", ms as f64 / 1000.0),
    }
}

/// The command in words, before its effects (the referee adds what followed).
pub(crate) fn describe(command: &ArbiterCommand) -> String {
    match command {
        ArbiterCommand::StartGame(setup) => {
            let mut words = "game started".to_owned();
            if let Some(h) = setup.handicap.filter(|h| *h >= 2) {
                let how = if setup.free_handicap == Some(true) {
                    "free"
                } else {
                    "fixed"
                };
                words.push_str(&format!(", {h} handicap stones ({how} placement)"));
            }
            words
        }
        ArbiterCommand::Ruling { id, action, .. } => {
            let verb = match action {
                RulingAction::Confirm => "confirmed",
                RulingAction::Sanction => "sanctioned",
                RulingAction::Dismiss => "dismissed",
                RulingAction::Convert => "converted into a pass (CN2002 22.5)",
            };
            format!("alert {id} {verb}")
        }
        ArbiterCommand::Acknowledge { id, withdraw, .. } => {
            if *withdraw {
                format!("alert {id} handed back: nobody on the way")
            } else {
                format!("alert {id} taken: on the way to the table")
            }
        }
        ArbiterCommand::Pause => "clocks paused (CN2002 14)".into(),
        ArbiterCommand::Resume => "clocks resumed".into(),
        ArbiterCommand::AdjustClock {
            color, delta_ms, ..
        } => {
            let verb = if *delta_ms >= 0 {
                "added to"
            } else {
                "taken from"
            };
            format!(
                "{} {verb} {}'s clock (CN2002 22.8-22.9)",
                duration_words(delta_ms.unsigned_abs()),
                color_word(*color)
            )
        }
        ArbiterCommand::LateStart { color, absent_ms } => format!(
            "{} arrived {} late (CN2002 22.1-22.4)",
            color_word(*color),
            duration_words(*absent_ms)
        ),
        ArbiterCommand::Seal => "move sealed, game adjourned (CN2002 14)".into(),
        ArbiterCommand::Unseal => "sealed move opened, play resumes".into(),
        ArbiterCommand::MarkDead { points, dead } => {
            let how = if *dead { "dead" } else { "alive" };
            format!("marked {how}: {}", points.join(" "))
        }
        ArbiterCommand::MarkSeki { points, ruling } => {
            let how = match ruling {
                Some(SekiRuling::InSeki) => "ruled in seki",
                Some(SekiRuling::NotInSeki) => "ruled not in seki",
                None => "seki ruling withdrawn",
            };
            format!("{how}: {} (CN2002 21.2)", points.join(" "))
        }
        ArbiterCommand::ConfirmResult => "counted result confirmed".into(),
        ArbiterCommand::ResumePlay { first } => format!(
            "dead stones disputed: play resumes, {} first (CN2002 21.4)",
            color_word(*first)
        ),
        ArbiterCommand::SetResult { result, .. } => format!("result set to {result}"),
        ArbiterCommand::VoidMove { number } => format!("move {number} voided: it counts as a pass"),
        ArbiterCommand::RestoreMove { number } => format!("move {number} restored"),
        ArbiterCommand::OrderMoves { first, points } => {
            format!(
                "moves from {first} put in the order played: {}",
                points.join(" ")
            )
        }
    }
}

/// What a ruling was about and what it did: the alert's kind, player and article, and a
/// warning given or taken back with its article (CN2002 art. 24).
fn ruling_words(m: &Match, id: &InfractionId, before: PerColor) -> String {
    let Some(alert) = m.audit.infractions().iter().find(|i| &i.id == id) else {
        return String::new();
    };
    let mut words = format!(
        ": {} by {} ({})",
        alert.kind.words(),
        alert.player.map_or("no player", color_word),
        alert.article
    );
    for color in [Color::Black, Color::White] {
        let (was, now) = (before.of(color), m.audit.warnings().of(color));
        if now > was {
            words.push_str(&format!(
                "; warning to {}, {now} in all (art. 24)",
                color_word(color)
            ));
        } else if now < was {
            words.push_str(&format!(
                "; warning to {} withdrawn, {now} in all (art. 24)",
                color_word(color)
            ));
        }
    }
    words
}

impl Referee {
    /// Applies a signed arbiter command; refused commands change nothing and leave no entry.
    pub(crate) fn handle_act(&mut self, act: ArbiterAct) -> Result<(), crate::RefereeError> {
        let mut what = describe(&act.command);
        let action = act.command.name();
        let ruled = match &act.command {
            ArbiterCommand::Ruling { id, .. } => Some(id.clone()),
            _ => None,
        };
        let warnings_before = self.game.as_ref().map(|m| m.audit.warnings());
        self.handle_arbiter(act.command, &act.by)?;
        let now = self.now.to_rfc3339();
        let Some(m) = self.game.as_mut() else {
            return Ok(());
        };
        if let Some(id) = ruled {
            what.push_str(&ruling_words(m, &id, warnings_before.unwrap_or_default()));
        }
        let move_number = m.move_count();
        let entry = m
            .audit
            .record(|number| AuditEntry {
                number,
                at: now,
                by: act.by,
                action: action.to_owned(),
                what,
                move_number,
                note: act.note.filter(|n| !n.trim().is_empty()),
            })
            .clone();
        self.emit(EventKind::ArbiterAction { entry });
        self.emit(EventKind::StateChanged);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_words() {
        assert_eq!(duration_words(60_000), "1 min");
        assert_eq!(duration_words(90_000), "1 min 30 s");
        assert_eq!(duration_words(45_000), "45 s");
        assert_eq!(duration_words(250), "250 ms");
    }

    #[test]
    fn adjustments_say_whose_clock_and_which_way() {
        let words = describe(&ArbiterCommand::AdjustClock {
            color: Color::White,
            delta_ms: -60_000,
            by: String::new(),
        });
        assert_eq!(words, "1 min taken from White's clock (CN2002 22.8-22.9)");
    }
}
