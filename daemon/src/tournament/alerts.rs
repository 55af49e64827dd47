//! The desk's own alerts: a target refusing a result again and again, a board result that disagrees with a ruling.
//!
//! An alert is raised once per cause and counted while the cause repeats;
//! it is shown on `/health`, `GET /tournament/alerts` and MQTT
//! `<prefix>/tournament/alerts` (retained, the whole list) until its cause
//! goes away: the target accepts, or the arbiter rules again.

use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// What the desk is alerting about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeskAlertKind {
    /// A target (Pairgoth, the OpenGotha file) refused a result the same way twice:
    /// trying again will not help until someone acts.
    PushRefused,
    /// A board ended its game with a result other than the arbiter's ruling, which stands.
    RulingDisagrees,
}

/// One desk alert.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct DeskAlert {
    /// What about.
    pub kind: DeskAlertKind,
    /// `pairgoth` or `opengotha` for a refused push; `board` for a disagreement.
    pub target: String,
    /// Round.
    pub round: u32,
    /// Table.
    pub table: u32,
    /// What happened and what to do, for the arbiter.
    pub message: String,
    /// How many times the cause was seen.
    pub count: u32,
    /// First seen, ms since the Unix epoch.
    pub since_ms: u64,
    /// Last seen, ms since the Unix epoch.
    pub last_ms: u64,
}

/// The list of alerts, behind a lock.
#[derive(Debug, Default)]
pub(crate) struct DeskAlerts {
    list: Mutex<Vec<DeskAlert>>,
}

impl DeskAlerts {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<DeskAlert>> {
        // A poisoned lock means a panic mid-update of a plain Vec; its entries are whole.
        self.list.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Raises the alert, or counts it again when the same one is up; true when it is new
    /// or its message changed (worth announcing).
    pub(crate) fn raise(&self, alert: DeskAlert) -> bool {
        let mut list = self.lock();
        let same = list.iter_mut().find(|a| {
            a.kind == alert.kind
                && a.target == alert.target
                && a.round == alert.round
                && a.table == alert.table
        });
        match same {
            Some(up) if up.message == alert.message => {
                up.count += 1;
                up.last_ms = alert.last_ms;
                false
            }
            Some(up) => {
                *up = alert;
                true
            }
            None => {
                list.push(alert);
                true
            }
        }
    }

    /// Clears the alerts of `kind` for `target` at (round, table); true when one went.
    pub(crate) fn clear(&self, kind: DeskAlertKind, target: &str, round: u32, table: u32) -> bool {
        let mut list = self.lock();
        let before = list.len();
        list.retain(|a| {
            !(a.kind == kind && a.target == target && a.round == round && a.table == table)
        });
        list.len() != before
    }

    /// The alerts up now, oldest first.
    pub(crate) fn list(&self) -> Vec<DeskAlert> {
        self.lock().clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(message: &str, at: u64) -> DeskAlert {
        DeskAlert {
            kind: DeskAlertKind::PushRefused,
            target: "pairgoth".into(),
            round: 1,
            table: 2,
            message: message.into(),
            count: 1,
            since_ms: at,
            last_ms: at,
        }
    }

    #[test]
    fn the_same_cause_is_one_alert_counted() {
        let alerts = DeskAlerts::default();
        assert!(alerts.raise(build("400 missing result", 1)));
        assert!(!alerts.raise(build("400 missing result", 2)));
        assert!(alerts.raise(build("400 invalid game id", 3)));
        let list = alerts.list();
        assert_eq!(list.len(), 1);
        assert_eq!(list[0].message, "400 invalid game id");
        assert!(alerts.clear(DeskAlertKind::PushRefused, "pairgoth", 1, 2));
        assert!(alerts.list().is_empty());
    }
}
