//! "I'm on my way": an arbiter takes an open alert so the others see who walks to the table.

use crate::error::RefereeError;
use crate::infraction::{InfractionId, InfractionStatus};
use crate::referee::Referee;

impl Referee {
    /// `by` takes the open alert `id` (or hands it back with `withdraw`); the game is untouched.
    ///
    /// A closed alert cannot be taken; one another arbiter took is refused unless
    /// `take_over`, so two arbiters do not walk to the same table without knowing it.
    pub(crate) fn handle_acknowledge(
        &mut self,
        id: &InfractionId,
        withdraw: bool,
        take_over: bool,
        by: &str,
    ) -> Result<(), RefereeError> {
        let now = self.now.to_rfc3339();
        let m = self.game.as_mut().ok_or(RefereeError::NoGame)?;
        let index = m.audit.index_of(id)?;
        let Some(alert) = m.audit.infraction_mut(index) else {
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
        if withdraw {
            alert.taken_by = None;
            alert.taken_at = None;
        } else {
            match &alert.taken_by {
                Some(other) if other != by && !take_over => {
                    return Err(RefereeError::Taken {
                        id: id.0.clone(),
                        by: other.clone(),
                    });
                }
                _ => {
                    alert.taken_by = Some(by.to_owned());
                    alert.taken_at = Some(now);
                }
            }
        }
        self.emit_infraction_changed(index);
        Ok(())
    }
}
