//! The arbiter gives the order of a setup block's moves (moves played while the board could not see, recorded with their order unknown): the block becomes ordinary moves, the later moves are played again after them.

use goban_rules::{Color, Game, Move, Point};

use crate::device_alert::DeviceAlertKind;
use crate::error::RefereeError;
use crate::event::EventKind;
use crate::go;
use crate::referee::Referee;
use crate::rewrite::breaks;
use crate::state::Phase;

/// `game` with the setup block of moves `first`.. played as `ordered` instead, and every
/// later move played again after it.
///
/// # Errors
/// [`RefereeError::BadMove`] when no block starts at `first`, or `ordered` is not its moves:
/// as many, its stones among them, one move nobody saw of the block for each other one
/// (a pass, or a stone captured within the block), one colour in turn from the side that
/// was to move, reaching the block's position; [`RefereeError::ReplayBreaks`] when a move
/// becomes illegal.
fn replay_ordered(
    game: &Game,
    first: u32,
    ordered: &[(Move, Color)],
) -> Result<Game, RefereeError> {
    let bad = RefereeError::BadMove(first);
    let start = usize::try_from(first).map_err(|_| RefereeError::BadMove(first))?;
    let block = game
        .setup_blocks()
        .find(|&(number, _)| number == start)
        .map(|(_, block)| block.clone())
        .ok_or(RefereeError::BadMove(first))?;
    if ordered.len() != block.len() {
        return Err(bad);
    }
    let mut others: Vec<(Color, Move)> = ordered.iter().map(|&(mv, c)| (c, mv)).collect();
    for stone in block.moves() {
        let i = others
            .iter()
            .position(|m| m == stone)
            .ok_or(RefereeError::BadMove(first))?;
        others.swap_remove(i);
    }
    let mut unseen: Vec<Color> = others.iter().map(|m| m.0).collect();
    unseen.sort_unstable();
    if unseen != block.unseen() {
        return Err(bad);
    }
    let later: Vec<(Color, Move)> = game.moves()[start - 1 + block.len()..]
        .iter()
        .map(|r| (r.color, r.mv))
        .collect();
    let mut rebuilt = game.clone();
    for _ in &later {
        rebuilt.undo().ok_or(RefereeError::BadMove(first))?;
    }
    rebuilt
        .undo_setup_block()
        .ok_or(RefereeError::BadMove(first))?;
    for (number, &(mv, color)) in (first..).zip(ordered) {
        // In turn: the block stood for moves of both colours one after the other.
        rebuilt
            .play(color, mv)
            .map_err(|why| breaks(first, number, &why))?;
    }
    let after = first.saturating_add(u32::try_from(ordered.len()).unwrap_or(u32::MAX));
    for (number, &(color, mv)) in (after..).zip(&later) {
        rebuilt
            .play_as(color, mv)
            .map_err(|why| breaks(first, number, &why))?;
    }
    if rebuilt.board().hash() != game.board().hash() {
        // An order whose moves capture leaves another position than the block's.
        return Err(bad);
    }
    Ok(rebuilt)
}

impl Referee {
    /// The arbiter's order of the setup block starting at move `first`: `points` ("D4", or
    /// "pass") are its moves in the order played: its stones, and for each move nobody saw
    /// the stone it was (captured within the block) or "pass". Its moves become ordinary moves (`order_known` back
    /// to `true`, a `correction` for each move whose point changes), and its
    /// `board_unavailable` alert is resolved. Refused, with nothing changed, unless the
    /// points are the block's moves, one of each colour in turn, reaching the block's
    /// position, and every later move stays legal.
    pub(crate) fn order_block(
        &mut self,
        first: u32,
        points: &[String],
    ) -> Result<(), RefereeError> {
        let size = self.size;
        let m = self.game.as_mut().ok_or(RefereeError::NoGame)?;
        if m.phase != Phase::Playing {
            return Err(RefereeError::WrongPhase("moves are ordered during play"));
        }
        let start = usize::try_from(first).map_err(|_| RefereeError::BadMove(first))?;
        let block = m
            .game
            .setup_block_at(start)
            .ok_or(RefereeError::BadMove(first))?;
        // The block's moves alternate from the side that was to move before it.
        let mut color = if block.len() % 2 == 0 {
            block.to_move()
        } else {
            block.to_move().opponent()
        };
        let mut ordered = Vec::with_capacity(points.len());
        for name in points {
            let mv = if name.eq_ignore_ascii_case("pass") {
                Move::Pass
            } else {
                let p = Point::parse_human(name, size)
                    .map_err(|_| RefereeError::BadPoint(name.clone()))?;
                Move::Play(p)
            };
            ordered.push((mv, color));
            color = color.opponent();
        }
        let rebuilt = replay_ordered(&m.game, first, &ordered)?;
        m.game = rebuilt;
        let mut corrections = Vec::new();
        for (number, &(mv, color)) in (first..).zip(&ordered) {
            if let Some(record) = m.moves.find_mut(|r| r.number == number) {
                let now = go::move_label(&go::move_name(mv, size));
                if record.point != now {
                    corrections.push((number, record.point.to_string(), now.to_string()));
                }
                record.point = now;
                record.color = color;
                record.order_known = true;
            }
        }
        for (number, was, now) in corrections {
            self.emit(EventKind::Correction {
                number,
                was,
                now,
                reason: "order given by the arbiter: the move was recorded in a block of \
                         unknown order"
                    .into(),
                time_left_ms: None,
                periods_left: None,
            });
        }
        let last = first.saturating_add(u32::try_from(ordered.len()).unwrap_or(u32::MAX)) - 1;
        self.resolve_block_alert(first, last);
        self.emit(EventKind::StateChanged);
        Ok(())
    }

    /// Resolves the open `board_unavailable` alert of the block of moves `first`-`last`.
    fn resolve_block_alert(&mut self, first: u32, last: u32) {
        let now = self.now.to_rfc3339();
        // "moves 3-5, order unknown" or "moves 3-5, content partly unknown".
        let named = format!("moves {first}-{last}, ");
        let id = self
            .devices
            .state()
            .alerts
            .iter()
            .find(|a| {
                a.kind == DeviceAlertKind::BoardUnavailable
                    && a.resolved_at.is_none()
                    && a.message.starts_with(&named)
            })
            .map(|a| a.id.clone());
        if let Some(alert) = id.and_then(|id| self.devices.alert_mut(&id)) {
            alert.resolved_at = Some(now);
            alert.message = format!("moves {first}-{last}: the arbiter gave their order");
        }
        self.emit_device();
    }
}
