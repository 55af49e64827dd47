//! The story of a round in the log: moves, alerts, flag falls, results and arbiter actions at info.
//!
//! Called for each referee event the board task publishes, inside the task's
//! `board` span, so `journalctl -u goban-bridge` reads table by table what
//! happened; replayed inputs after a restart are not logged again.

use goban_referee::EventKind;

/// Logs one event, if it is part of the story.
pub(crate) fn log(kind: &EventKind) {
    match kind {
        EventKind::MovePlayed {
            number,
            color,
            point,
            ..
        } => tracing::info!(number, color = %color, point = %point, "move"),
        // `was == now` only completes a move's clock; anything else changed the record.
        EventKind::Correction {
            number,
            was,
            now,
            reason,
            ..
        } if was != now => {
            tracing::info!(number, was = %was, now = %now, reason = %reason, "move corrected");
        }
        EventKind::SetupBlock {
            first,
            last,
            black,
            white,
            removed,
            unseen,
            ..
        } => tracing::info!(
            first,
            last,
            black = %black.join(" "),
            white = %white.join(" "),
            removed = %removed.join(" "),
            unseen = unseen.len(),
            "moves of unknown order recorded as a setup block"
        ),
        EventKind::InfractionRaised { infraction } => tracing::info!(
            id = %infraction.id,
            kind = %infraction.kind,
            article = %infraction.article,
            player = infraction.player.map_or("none", |c| c.as_str()),
            move_number = infraction.move_number,
            points = %infraction.points.join(" "),
            "alert raised"
        ),
        EventKind::InfractionChanged { infraction } => tracing::info!(
            id = %infraction.id,
            kind = %infraction.kind,
            status = %infraction.status,
            "alert changed"
        ),
        EventKind::FlagFall { color } => tracing::info!(color = %color, "flag fell"),
        EventKind::Result { result, is_final } => {
            if *is_final {
                tracing::info!(result = %result, "result");
            } else {
                tracing::info!(result = %result, "result proposed by the count");
            }
        }
        EventKind::ArbiterAction { entry } => {
            tracing::info!(by = %entry.by, what = %entry.what, "arbiter action");
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::sync::{Arc, Mutex};

    use goban_rules::Color;

    use super::*;

    #[derive(Clone, Default)]
    struct Buffer(Arc<Mutex<Vec<u8>>>);

    impl Write for Buffer {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().expect("buffer").extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn logged(kinds: &[EventKind]) -> String {
        let buffer = Buffer::default();
        let writer = buffer.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_ansi(false)
            .with_max_level(tracing::Level::INFO)
            .with_writer(move || writer.clone())
            .finish();
        tracing::subscriber::with_default(subscriber, || {
            let span = tracing::info_span!("board", board = %"table-7");
            let _inside = span.enter();
            for kind in kinds {
                // Another test's thread (a board replaying moves, with no subscriber) may have
                // registered these log lines while this subscriber was being set, and left them
                // cached as never enabled (1 run in 40 of `runtime::`): recompute before each.
                tracing::callsite::rebuild_interest_cache();
                log(kind);
            }
        });
        let bytes = buffer.0.lock().expect("buffer").clone();
        String::from_utf8(bytes).expect("utf-8")
    }

    #[test]
    fn moves_and_results_are_told_at_info_with_the_board() {
        let text = logged(&[
            EventKind::MovePlayed {
                number: 12,
                color: Color::White,
                point: "Q16".into(),
                played_at: String::new(),
                time_left_ms: None,
            },
            EventKind::Result {
                result: "B+R".into(),
                is_final: true,
            },
            EventKind::StateChanged,
        ]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert!(
            lines[0].contains("INFO")
                && lines[0].contains("board{board=table-7}")
                && lines[0].contains("move number=12 color=white point=Q16"),
            "{text}"
        );
        assert!(lines[1].contains("result result=B+R"), "{text}");
    }

    #[test]
    fn a_completed_clock_is_no_correction() {
        let completing = EventKind::Correction {
            number: 3,
            was: "D4".into(),
            now: "D4".into(),
            reason: String::new(),
            time_left_ms: Some(1000),
            periods_left: None,
        };
        assert_eq!(logged(&[completing]), "");
    }
}
