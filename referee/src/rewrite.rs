//! Voiding or restoring any earlier move: the game rebuilt from the record with that move replaced, the rest replayed.

use goban_rules::{Color, Game, GameState, Move};

use crate::error::RefereeError;
use crate::event::EventKind;
use crate::go;
use crate::input::Reading;
use crate::referee::Referee;
use crate::state::Phase;

/// `game` with move `number` (1-based) played as `mv` by `color` and every later move replayed.
///
/// # Errors
/// [`RefereeError::BadMove`] when there is no such move; [`RefereeError::ReplayBreaks`]
/// when a later move is illegal in the rebuilt game.
pub(crate) fn replay_with(
    game: &Game,
    number: u32,
    color: Color,
    mv: Move,
) -> Result<Game, RefereeError> {
    let index = usize::try_from(number)
        .ok()
        .and_then(|n| n.checked_sub(1))
        .filter(|&i| i < game.moves().len())
        .ok_or(RefereeError::BadMove(number))?;
    let later: Vec<(Color, Move)> = game.moves()[index + 1..]
        .iter()
        .map(|r| (r.color, r.mv))
        .collect();
    let mut rebuilt = game.clone();
    for _ in 0..=later.len() {
        rebuilt.undo().ok_or(RefereeError::BadMove(number))?;
    }
    rebuilt
        .play_as(color, mv)
        .map_err(|why| breaks(number, number, &why))?;
    for (offset, &(c, m)) in (1u32..).zip(&later) {
        rebuilt
            .play_as(c, m)
            .map_err(|why| breaks(number, number.saturating_add(offset), &why))?;
    }
    Ok(rebuilt)
}

/// The record cannot be replayed: move `broken` is illegal once move `number` changed.
pub(crate) fn breaks(number: u32, broken: u32, why: &dyn std::fmt::Display) -> RefereeError {
    RefereeError::ReplayBreaks {
        number,
        broken,
        why: why.to_string(),
    }
}

impl Referee {
    /// Voids an earlier move: it counts as a pass (CN2002 19, 18.3 sanction "move void, counts as a pass").
    pub(crate) fn void_earlier_move(&mut self, number: u32) -> Result<(), RefereeError> {
        let m = self.game.as_mut().ok_or(RefereeError::NoGame)?;
        if number == 0 || m.phase != Phase::Playing || m.is_voided(number) {
            return Err(RefereeError::BadMove(number));
        }
        let index = usize::try_from(number.saturating_sub(1)).unwrap_or(usize::MAX);
        let old = m
            .game
            .moves()
            .get(index)
            .map(|r| (r.color, r.mv))
            .filter(|&(_, mv)| mv != Move::Pass)
            .ok_or(RefereeError::BadMove(number))?;
        let rebuilt = replay_with(&m.game, number, old.0, Move::Pass)?;
        m.handle_void(number, old);
        self.adopt_rebuilt(rebuilt, number, old.1, Move::Pass, "voided by the arbiter");
        Ok(())
    }

    /// Restores an earlier voided move, if the later moves stay legal.
    pub(crate) fn restore_earlier_move(&mut self, number: u32) -> Result<(), RefereeError> {
        let m = self.game.as_mut().ok_or(RefereeError::NoGame)?;
        let (color, mv) = m.voided_move(number).ok_or(RefereeError::BadMove(number))?;
        if m.phase != Phase::Playing {
            return Err(RefereeError::BadMove(number));
        }
        let rebuilt = replay_with(&m.game, number, color, mv)?;
        m.handle_restore(number);
        self.adopt_rebuilt(rebuilt, number, Move::Pass, mv, "restored by the arbiter");
        Ok(())
    }

    /// Puts the rebuilt game in place. Points where the ruling changed the game and the
    /// board disagrees are known (the sensors cannot overturn a ruling) and guided.
    fn adopt_rebuilt(&mut self, rebuilt: Game, number: u32, was: Move, now: Move, reason: &str) {
        let size = self.size;
        let before = self.game_readings();
        let after = go::readings(rebuilt.board(), size);
        let Some(m) = self.game.as_mut() else { return };
        m.game = rebuilt;
        let new_caps = m.last_captures();
        m.pending_caps.retain(|c| new_caps.contains(c));
        if let Some(record) = m.moves.find_mut(|r| r.number == number) {
            record.point = go::move_label(&go::move_name(now, size));
        }
        for (p, (b, a)) in before.iter().zip(&after).enumerate() {
            let seen = self.sight.physical()[p];
            if b == a {
                continue;
            }
            if seen != *a && seen != Reading::Unknown {
                m.known.insert(p, seen);
            } else {
                m.known.remove(&p);
            }
        }
        let ended = m.game.state() == GameState::Counting;
        self.emit(EventKind::Correction {
            number,
            was: go::move_name(was, size),
            now: go::move_name(now, size),
            reason: reason.into(),
            time_left_ms: None,
            periods_left: None,
        });
        if ended {
            self.enter_counting();
        }
        self.refresh_guidance();
        self.emit(EventKind::StateChanged);
    }
}
