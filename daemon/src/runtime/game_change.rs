//! Whether a new board state changes the game (api.md: the live `state` is published on a move, a capture, a phase, an alert, a result or device health, never for the clock alone).

use goban_referee::BoardState;

/// Whether `new` differs from `old` in anything but the clock: `seq` and the clock reading
/// are left out. The press that completes a move changes the game (the move's time left, in
/// `last_move` and the move list). The move list is compared by its length and last move, so
/// the cost does not grow with the game.
pub(crate) fn changes_the_game(old: &BoardState, new: &BoardState) -> bool {
    let same_moves = old.moves.len() == new.moves.len()
        && match (old.moves.last(), new.moves.last()) {
            (Some(a), Some(b)) => a == b,
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
