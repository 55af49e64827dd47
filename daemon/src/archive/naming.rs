//! File names of exported games: by round and table when a tournament gave them, by date and board otherwise; unique within one export.

use std::collections::HashSet;

use super::game::GameSummary;

/// A name safe on every file system: ASCII letters, digits, `-` and `_`.
fn sanitize(text: &str) -> String {
    let cleaned: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    let trimmed = cleaned.trim_matches('-');
    if trimmed.is_empty() {
        "game".into()
    } else {
        trimmed.into()
    }
}

/// The base name (no extension) of a game's SGF file.
pub(super) fn base_name(summary: &GameSummary) -> String {
    match (summary.round, summary.table) {
        (Some(round), Some(table)) => format!("round-{round:02}-table-{table:03}"),
        _ => {
            let date = summary
                .finished_at
                .as_deref()
                .and_then(|at| at.get(..10))
                .unwrap_or("undated");
            // Game ids already begin with their date; do not repeat it.
            if summary.game.starts_with(date) {
                sanitize(&summary.game)
            } else {
                sanitize(&format!("{date}-{}-{}", summary.board, summary.game))
            }
        }
    }
}

/// Hands out unique names: a second `x` becomes `x-2`.
#[derive(Default)]
pub(super) struct UniqueNames {
    taken: HashSet<String>,
}

impl UniqueNames {
    /// A name for `summary` not handed out before.
    pub(super) fn next(&mut self, summary: &GameSummary) -> String {
        let base = base_name(summary);
        let mut name = base.clone();
        let mut n = 2;
        while !self.taken.insert(name.clone()) {
            name = format!("{base}-{n}");
            n += 1;
        }
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build_summary(game: &str, round: Option<u32>, table: Option<u32>) -> GameSummary {
        GameSummary {
            game: game.into(),
            board: "table-1".into(),
            finished_at: Some("2026-11-30T15:04:05.000Z".into()),
            round,
            table,
            ..GameSummary::default()
        }
    }

    #[test]
    fn round_and_table_name_the_file_when_a_tournament_gave_them() {
        let summary = build_summary("2026-11-30-table-1-1", Some(3), Some(12));
        assert_eq!(base_name(&summary), "round-03-table-012");
    }

    #[test]
    fn date_and_board_name_the_file_otherwise() {
        assert_eq!(
            base_name(&build_summary("2026-11-30-table-1-1", None, None)),
            "2026-11-30-table-1-1"
        );
        assert_eq!(
            base_name(&build_summary("x/../y", None, None)),
            "2026-11-30-table-1-x----y"
        );
    }

    #[test]
    fn names_are_unique_within_an_export() {
        let mut names = UniqueNames::default();
        let summary = build_summary("g", Some(1), Some(1));
        assert_eq!(names.next(&summary), "round-01-table-001");
        assert_eq!(names.next(&summary), "round-01-table-001-2");
    }
}
