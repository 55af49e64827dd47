//! Whether a new board state changes the game (api.md: the live `state` is published on a move, a capture, a phase, an alert, a result or device health, never for the clock alone).

use goban_referee::{BoardState, MoveRecord};

/// Whether `new` differs from `old` in anything but the clock: `seq`, the clock reading and
/// the last move's time (`time_left_ms`, `periods_left`) are left out. The press that completes
/// a move only times it: that goes on `moves` (the completing correction) and `clock`, and
/// would otherwise cost a second ~2 KB state per move (issue 9: MQTT bytes per move); see
/// [`times_the_last_move`]. The move list is compared by its length and last move, so the
/// cost does not grow with the game.
pub(crate) fn changes_the_game(old: &BoardState, new: &BoardState) -> bool {
    let same_moves = old.moves.len() == new.moves.len()
        && match (old.moves.last(), new.moves.last()) {
            (Some(a), Some(b)) => same_but_time(a, b),
            (None, None) => true,
            _ => false,
        };
    !(same_moves
        && old.v == new.v
        && old.board == new.board
        && old.game == new.game
        && old.size == new.size
        && old.ruleset == new.ruleset
        && old.komi.to_bits() == new.komi.to_bits()
        && old.position == new.position
        && old.move_number == new.move_number
        && old.to_move == new.to_move
        && old.captures == new.captures
        && old.infractions == new.infractions
        && old.warnings == new.warnings
        && old.device == new.device
        && old.phase == new.phase
        && old.result == new.result
        && old.proposed_result == new.proposed_result
        && old.result_unit == new.result_unit
        && old.count == new.count
        && old.end_signal == new.end_signal
        && old.dead_stones == new.dead_stones
        && old.seki == new.seki
        && old.physical == new.physical
        && old.guidance == new.guidance
        && old.audit == new.audit
        && old.black == new.black
        && old.white == new.white
        && old.clock.is_some() == new.clock.is_some())
}

/// Whether `new`'s last move differs from `old`'s only by its time: the press that completed it.
/// The board's full view (REST, SGF) takes it at once, without a new live state.
pub(crate) fn times_the_last_move(old: &BoardState, new: &BoardState) -> bool {
    old.moves.len() == new.moves.len()
        && match (old.moves.last(), new.moves.last()) {
            (Some(a), Some(b)) => a != b && same_but_time(a, b),
            _ => false,
        }
}

/// The same move, whatever its time.
fn same_but_time(a: &MoveRecord, b: &MoveRecord) -> bool {
    a.number == b.number && a.color == b.color && a.point == b.point && a.at == b.at
}

#[cfg(test)]
mod tests {
    use goban_referee::{MoveName, MoveRecord, Referee, RefereeConfig, Timestamp};
    use goban_rules::Color;

    use super::*;

    fn with_move(time_left_ms: Option<u64>) -> BoardState {
        let mut state = Referee::new(RefereeConfig::default())
            .expect("referee")
            .state();
        state.moves.push(MoveRecord {
            number: 1,
            color: Color::Black,
            point: MoveName::new("Q16").expect("a move name"),
            at: Timestamp(1_796_173_200_000),
            time_left_ms,
            periods_left: time_left_ms.map(|_| 5),
            order_known: true,
        });
        state.move_number = 1;
        state
    }

    #[test]
    fn the_press_that_times_the_last_move_is_not_a_change_of_the_game() {
        let (read, pressed) = (with_move(None), with_move(Some(3_590_000)));
        assert!(!changes_the_game(&read, &pressed));
        assert!(times_the_last_move(&read, &pressed));
    }

    #[test]
    fn a_new_move_changes_the_game_and_a_clock_reading_does_nothing() {
        let before = with_move(Some(3_590_000));
        let mut next = before.clone();
        next.moves.push(MoveRecord {
            number: 2,
            color: Color::White,
            point: MoveName::new("D4").expect("a move name"),
            ..before.moves[0]
        });
        next.move_number = 2;
        assert!(changes_the_game(&before, &next));
        assert!(!times_the_last_move(&before, &next));
        let mut moved = before.clone();
        moved.moves[0].point = MoveName::new("R16").expect("a move name");
        assert!(changes_the_game(&before, &moved), "a corrected point");
        let same = before.clone();
        assert!(!changes_the_game(&before, &same) && !times_the_last_move(&before, &same));
    }
}
