//! Topic names, QoS and retain flags of api.md "MQTT".

use rumqttc::QoS;

use crate::message::Topic;

/// `<prefix>/status`, retained, QoS 1, also the last will.
pub fn status_topic(prefix: &str) -> String {
    format!("{prefix}/status")
}

/// `<prefix>/boards/<board>/<name>`.
pub fn board_topic(prefix: &str, board: &str, topic: Topic) -> String {
    format!("{prefix}/boards/{board}/{}", topic.name())
}

/// QoS and retain of a board topic (api.md table).
pub fn delivery(topic: Topic) -> (QoS, bool) {
    match topic {
        Topic::State | Topic::Device => (QoS::AtLeastOnce, true),
        Topic::Moves | Topic::Infractions | Topic::Audit => (QoS::AtLeastOnce, false),
        Topic::Clock => (QoS::AtMostOnce, false),
        // The next analysis replaces it; a subscriber arriving late gets the last one.
        Topic::Analysis => (QoS::AtMostOnce, true),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topics_follow_api_md() {
        assert_eq!(
            board_topic("goban", "table-1", Topic::State),
            "goban/boards/table-1/state"
        );
        assert_eq!(status_topic("x"), "x/status");
        assert_eq!(delivery(Topic::State), (QoS::AtLeastOnce, true));
        assert_eq!(delivery(Topic::Moves), (QoS::AtLeastOnce, false));
        assert_eq!(delivery(Topic::Clock), (QoS::AtMostOnce, false));
        assert_eq!(delivery(Topic::Device), (QoS::AtLeastOnce, true));
        assert_eq!(delivery(Topic::Audit), (QoS::AtLeastOnce, false));
        assert_eq!(delivery(Topic::Analysis), (QoS::AtMostOnce, true));
        assert_eq!(
            board_topic("goban", "table-1", Topic::Analysis),
            "goban/boards/table-1/analysis"
        );
        assert_eq!(
            board_topic("goban", "table-1", Topic::Audit),
            "goban/boards/table-1/audit"
        );
    }
}
