//! Who may do what on the embedded broker: the daemon alone writes under its prefix, configured users log in and may write where granted, everybody reads.

use subtle::ConstantTimeEq;

use crate::config::EmbeddedUser;

/// A client the guard let in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Client {
    /// No user name: reads only (when anonymous reading is allowed at all).
    Anonymous,
    /// A configured user, by index in [`Grants::users`].
    User(usize),
}

/// Why a CONNECT is refused (the CONNACK return code says which).
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// Unknown user or wrong password (return code 4).
    BadCredentials,
    /// Known, but not allowed this (return code 5): anonymous when that is off, a will it may not publish.
    NotAuthorized,
}

/// The embedded broker's access rules, from `[mqtt]`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Grants {
    /// The daemon's topic root: nobody else publishes under it.
    pub(crate) prefix: String,
    /// Whether clients without a user name may connect (and read).
    pub(crate) anonymous_read: bool,
    /// Configured users with their publish filters.
    pub(crate) users: Vec<EmbeddedUser>,
}

impl Grants {
    /// Who the login names, if the password matches (compared in constant time).
    pub(crate) fn authenticate(&self, login: Option<(&str, &str)>) -> Result<Client, Refusal> {
        let Some((username, password)) = login else {
            return if self.anonymous_read {
                Ok(Client::Anonymous)
            } else {
                Err(Refusal::NotAuthorized)
            };
        };
        let found = self.users.iter().position(|user| {
            user.username == username
                && bool::from(user.password.as_bytes().ct_eq(password.as_bytes()))
        });
        found.map(Client::User).ok_or(Refusal::BadCredentials)
    }

    /// Whether `client` may publish to `topic` (or leave it as its will).
    pub(crate) fn may_publish(&self, client: &Client, topic: &str) -> bool {
        let Client::User(index) = client else {
            return false;
        };
        if under_prefix(topic, &self.prefix) {
            return false;
        }
        self.users[*index]
            .publish
            .iter()
            .any(|filter| rumqttc::matches(topic, filter))
    }
}

/// Whether `topic` is the prefix itself or below it.
fn under_prefix(topic: &str, prefix: &str) -> bool {
    topic == prefix
        || topic
            .strip_prefix(prefix)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// A publish grant must be a valid filter that matches no topic under `prefix`
/// (`#`, `+/boards/#` and `goban/#` all reach the daemon's topics).
pub(crate) fn check_publish_grant(filter: &str, prefix: &str) -> Result<(), String> {
    if filter.is_empty() || !rumqttc::valid_filter(filter) {
        return Err("not a valid MQTT topic filter".into());
    }
    let mut levels = filter.split('/');
    for prefix_level in prefix.split('/') {
        match levels.next() {
            Some("#") => return Err(format!("reaches the daemon's topics under {prefix:?}")),
            Some(level) if level == "+" || level == prefix_level => {}
            _ => return Ok(()),
        }
    }
    Err(format!("reaches the daemon's topics under {prefix:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build_grants() -> Grants {
        Grants {
            prefix: "goban".into(),
            anonymous_read: true,
            users: vec![EmbeddedUser {
                username: "scoreboard".into(),
                password: "pw".into(),
                publish: vec!["venue/#".into(), "#".into()],
            }],
        }
    }

    #[test]
    fn anonymous_clients_read_and_never_write() {
        let grants = build_grants();
        let client = grants.authenticate(None).expect("anonymous reading is on");
        assert!(!grants.may_publish(&client, "goban/status"));
        assert!(!grants.may_publish(&client, "venue/x"));
        let closed = Grants {
            anonymous_read: false,
            ..build_grants()
        };
        assert_eq!(closed.authenticate(None), Err(Refusal::NotAuthorized));
    }

    #[test]
    fn a_user_writes_where_granted_but_never_under_the_prefix() {
        let grants = build_grants();
        assert_eq!(
            grants.authenticate(Some(("scoreboard", "wrong"))),
            Err(Refusal::BadCredentials)
        );
        let user = grants
            .authenticate(Some(("scoreboard", "pw")))
            .expect("login");
        assert!(grants.may_publish(&user, "venue/score"));
        // Even a `#` grant stops at the daemon's prefix.
        assert!(!grants.may_publish(&user, "goban/boards/table-1/state"));
        assert!(!grants.may_publish(&user, "goban"));
        assert!(grants.may_publish(&user, "gobanx/y"));
    }

    #[test]
    fn grants_reaching_the_prefix_are_refused() {
        for filter in ["#", "+/#", "goban/#", "goban/+/x", "+", "goban"] {
            assert!(check_publish_grant(filter, "goban").is_err(), "{filter}");
        }
        for filter in ["venue/#", "other/+/x", "gobanx/#"] {
            assert!(check_publish_grant(filter, "goban").is_ok(), "{filter}");
        }
        assert!(check_publish_grant("a/#/b", "goban").is_err());
    }
}
