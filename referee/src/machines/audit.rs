//! The audit machine of a game: its alerts (infractions) with their numbering, the warnings given, and the arbiter's acts.

use goban_rules::Color;

use crate::audit::AuditEntry;
use crate::error::RefereeError;
use crate::infraction::{Infraction, InfractionId, InfractionStatus};
use crate::state::PerColor;

/// What a game's record holds besides its moves: the alerts raised (ids `<game>-i<n>`),
/// the warnings (CN2002 24) and every arbiter action, oldest first.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct Audit {
    infractions: Vec<Infraction>,
    warnings: PerColor,
    /// Alerts raised so far (for their ids).
    next_alert: u32,
    /// Every arbiter action of the game, oldest first.
    audit: Vec<AuditEntry>,
}

impl Audit {
    /// Raises the alert `alert` makes of the next id of game `game`; returns its index.
    pub(crate) fn raise(
        &mut self,
        game: &str,
        alert: impl FnOnce(InfractionId) -> Infraction,
    ) -> usize {
        self.next_alert += 1;
        // `<game>-i<n>`: unique across games of the board, and safe in a URL path segment.
        let id = InfractionId(format!("{game}-i{}", self.next_alert));
        self.infractions.push(alert(id));
        self.infractions.len() - 1
    }

    /// Every alert of the game, oldest first.
    pub(crate) fn infractions(&self) -> &[Infraction] {
        &self.infractions
    }

    /// The alert at `index`.
    pub(crate) fn infraction(&self, index: usize) -> Option<&Infraction> {
        self.infractions.get(index)
    }

    /// The alert at `index`, to rule on.
    pub(crate) fn infraction_mut(&mut self, index: usize) -> Option<&mut Infraction> {
        self.infractions.get_mut(index)
    }

    /// The position of alert `id` among the game's alerts.
    pub(crate) fn index_of(&self, id: &InfractionId) -> Result<usize, RefereeError> {
        self.infractions
            .iter()
            .position(|i| &i.id == id)
            .ok_or_else(|| RefereeError::UnknownInfraction(id.0.clone()))
    }

    /// "I'm on my way": `by` takes the open alert `id` at `now` (or hands it back with
    /// `withdraw`), so the others see who walks to the table; returns the alert's index.
    ///
    /// A closed alert cannot be taken; one another arbiter took is refused unless
    /// `take_over`, so two arbiters do not walk to the same table without knowing it.
    pub(crate) fn handle_acknowledge(
        &mut self,
        id: &InfractionId,
        take: Take<'_>,
        now: String,
    ) -> Result<usize, RefereeError> {
        let index = self.index_of(id)?;
        let Some(alert) = self.infractions.get_mut(index) else {
            return Err(RefereeError::UnknownInfraction(id.0.clone()));
        };
        if alert.status != InfractionStatus::Open || alert.ruled_by.is_some() {
            return Err(RefereeError::AlreadyRuled {
                id: id.0.clone(),
                status: alert.status,
                by: alert
                    .ruled_by
                    .clone()
                    .unwrap_or_else(|| "the referee".into()),
            });
        }
        if take.withdraw {
            alert.taken_by = None;
            alert.taken_at = None;
            return Ok(index);
        }
        match &alert.taken_by {
            Some(other) if other != take.by && !take.take_over => Err(RefereeError::Taken {
                id: id.0.clone(),
                by: other.clone(),
            }),
            _ => {
                alert.taken_by = Some(take.by.to_owned());
                alert.taken_at = Some(now);
                Ok(index)
            }
        }
    }

    /// The warnings given so far.
    pub(crate) fn warnings(&self) -> PerColor {
        self.warnings
    }

    /// One more warning to `player`; returns how many they have now.
    pub(crate) fn handle_warning(&mut self, player: Color) -> u32 {
        *self.warnings.of_mut(player) += 1;
        self.warnings.of(player)
    }

    /// A warning to `player` withdrawn.
    pub(crate) fn handle_withdrawn_warning(&mut self, player: Color) {
        let warnings = self.warnings.of_mut(player);
        *warnings = warnings.saturating_sub(1);
    }

    /// Every arbiter action of the game, oldest first.
    pub(crate) fn entries(&self) -> &[AuditEntry] {
        &self.audit
    }

    /// Records an arbiter action; `entry` makes it of its 1-based number in the trail.
    pub(crate) fn record(&mut self, entry: impl FnOnce(u32) -> AuditEntry) -> &AuditEntry {
        let number = u32::try_from(self.audit.len() + 1).unwrap_or(u32::MAX);
        self.audit.push(entry(number));
        // Invariant: an entry was just pushed.
        &self.audit[self.audit.len() - 1]
    }
}

/// Who takes an alert, or hands it back (`withdraw`), and whether over another arbiter.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Take<'a> {
    pub(crate) by: &'a str,
    pub(crate) withdraw: bool,
    pub(crate) take_over: bool,
}
