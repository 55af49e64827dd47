//! `POST /boards/{board}/seki`: the arbiter's seki ruling during counting, read strictly.

use goban_referee::ArbiterCommand;
use goban_rules::score::SekiRuling;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{Validate, check_note};
use crate::http::error::ApiError;

/// What the arbiter rules about the named groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum SekiAction {
    /// The group is in seki: under JK the points it surrounds are not territory.
    InSeki,
    /// The group is not in seki, whatever the count's own reading says.
    NotInSeki,
    /// Withdraw a ruling: the count's own reading decides again.
    Clear,
}

/// `POST /boards/{board}/seki`: rule groups in seki or not while counting (CN2002 21.2, JK).
///
/// Naming one living stone names its group (and the groups of its colour sharing an eye
/// with it); rule each group of a seki, of both colours. Under cn2002, ing and historical
/// (area counting) a seki eye counts either way, so a ruling changes nothing in the count
/// but stays on record.
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SekiBody {
    /// Points like `D4`, each a living stone, at least one.
    #[schema(example = json!(["D4"]), min_items = 1, max_items = 361, value_type = Vec<super::PointName>)]
    pub(crate) points: Vec<String>,
    /// The ruling.
    pub(crate) ruling: SekiAction,
    /// The arbiter's note for the audit trail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(
        max_length = 800,
        pattern = "^[^\\u0000-\\u0009\\u000b-\\u001f\\u007f-\\u009f]*$"
    )]
    pub(crate) note: Option<String>,
}

impl Validate for SekiBody {
    fn validate(&self) -> Result<(), ApiError> {
        super::check_points(&self.points)?;
        check_note(self.note.as_deref())
    }
}

impl SekiBody {
    /// Normalises every point to upper case, checking it lies on the board (api.md "Points").
    pub(crate) fn normalise(mut self, size: u32) -> Result<Self, ApiError> {
        super::normalise_points(&mut self.points, size)?;
        Ok(self)
    }

    /// The referee's command.
    pub(crate) fn command(&self) -> ArbiterCommand {
        ArbiterCommand::MarkSeki {
            points: self.points.clone(),
            ruling: match self.ruling {
                SekiAction::InSeki => Some(SekiRuling::InSeki),
                SekiAction::NotInSeki => Some(SekiRuling::NotInSeki),
                SekiAction::Clear => None,
            },
        }
    }
}
