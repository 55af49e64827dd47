//! The sanction each infraction carries under each ruleset, in words for the alert (digest table).

use goban_rules::Ruleset;

use super::InfractionKind;

/// The sanction the texts name for `kind` under `ruleset`.
pub fn sanction_text(kind: InfractionKind, ruleset: Ruleset, move_number: u32) -> String {
    let text = match kind {
        InfractionKind::ForbiddenPoint => "move void, counts as a pass (CN2002 19)",
        InfractionKind::KoViolation if ruleset == Ruleset::Jk => {
            "move void, counts as a pass (JK 11.1)"
        }
        InfractionKind::KoViolation => "move void, counts as a pass, one warning (CN2002 18.3)",
        InfractionKind::OccupiedPoint => "the arbiter decides (CN2002 2.3)",
        InfractionKind::DoubleMove if ruleset == Ruleset::Jk => {
            "the player loses the game (JK 8.1)"
        }
        InfractionKind::DoubleMove => "second move void, one warning (CN2002 17.2)",
        InfractionKind::WrongColour if move_number <= 10 => {
            "colours corrected: the players swap (CN2002 17.1, up to move 10)"
        }
        InfractionKind::WrongColour => "play goes on as it stands (CN2002 17.1, after move 10)",
        InfractionKind::MissedCapture => {
            "one warning, the dead stones are removed, the clock is not changed (CN2002 18.2)"
        }
        InfractionKind::WrongCapture => "one warning, the stones go back (CN2002 18.1)",
        InfractionKind::PrematurePress => "one warning, the clock is not changed (CN2002 17.4)",
        InfractionKind::Takeback => {
            "the stone goes back to its first point, one warning (CN2002 17.3)"
        }
        InfractionKind::DisplacedStones => "the stones are put back (CN2002 17.5)",
        InfractionKind::BoardDisturbed => {
            "the position is reconstructed from the record (CN2002 17.6)"
        }
        InfractionKind::TimeForfeit => {
            "loss; on request the arbiter may convert it into a pass (CN2002 22.5)"
        }
        InfractionKind::LateStart => {
            "absent time deducted twice; beyond the limit the game is lost (CN2002 22.1-22.4)"
        }
    };
    text.to_owned()
}
