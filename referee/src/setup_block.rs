//! Held presses whose moves are known but not their order: recorded as one mid-game setup block ("moves N-M, order unknown"), so that the moves after it are recorded again.
//!
//! When the board could not see while several moves were played, more than
//! one order of them may explain the board and the presses (two stones of one
//! colour, typically). Guessing one would invent an order nobody saw
//! (referee-notes points 7 and 8); holding every later move until the arbiter
//! acts loses the rest of the game. When every explanation agrees on which
//! stones were played, by whom, and on the position they leave, and none of
//! them captures, the stones are known and only their order is not: the
//! referee records them as a block, listed by point with `order_known: false`,
//! keeps one `board_unavailable` alert open that says so, and reads the later
//! moves as usual. A board that joins mid-game (every stone on it unexplained
//! by any seen order) is the same case when its stones and the presses match
//! colour for colour. Anything else (a capture, different stones, a pass)
//! stays an ask, as before.

use goban_rules::{Color, Move, SetupBlock};

use crate::diff::Diff;
use crate::event::EventKind;
use crate::go;
use crate::input::Reading;
use crate::match_state::Claim;
use crate::move_records::MoveRecord;
use crate::reconcile::Step;
use crate::referee::Referee;

/// Moves whose stones are known and whose order is not.
#[derive(Debug, PartialEq)]
pub(crate) struct Block {
    /// The first held press completes the last move recorded before the board went blind.
    complete: Option<Claim>,
    /// The stones played, one per remaining press, by point.
    stones: Vec<(usize, Color)>,
    /// Who moves after the block.
    to_move: Color,
    /// A stone placed after the last press, read as the next move (not pressed yet), the
    /// same in every explanation.
    trailing: Option<(Color, usize)>,
}

/// What an explanation says was played: the completing press, the stones by point, the
/// trailing stone; `None` when it has a pass (a pass needs proof, and which press it was is
/// part of the order).
type Summary = (Option<Claim>, Vec<(usize, Color)>, Option<(Color, usize)>);

fn summary(steps: &[Step]) -> Option<Summary> {
    let (mut complete, mut stones, mut trailing) = (None, Vec::new(), None);
    for step in steps {
        match *step {
            Step::Complete(claim) => complete = Some(claim),
            Step::Play(color, p, _) => stones.push((p, color)),
            Step::Pass(..) => return None,
            Step::Trailing(color, p) => trailing = Some((color, p)),
        }
    }
    stones.sort_unstable();
    Some((complete, stones, trailing))
}

impl Referee {
    /// The block that every one of `found` (two explanations or more) agrees on, or that the
    /// board and the held presses give when the search had too many orders to list them.
    pub(crate) fn unordered_block(&self, found: &[Vec<Step>], diff: &Diff) -> Option<Block> {
        if found.len() < 2 || !diff.changed.is_empty() {
            return None;
        }
        if found.iter().all(Vec::is_empty) {
            // The search gave up (more orders than it lists): too many to list is no reason
            // to lose them, when the board and the presses match colour for colour.
            return self.block_of_board(diff);
        }
        self.block_of_explanations(found)
    }

    /// The block every explanation agrees on, when none captures.
    fn block_of_explanations(&self, found: &[Vec<Step>]) -> Option<Block> {
        let m = self.game.as_ref()?;
        let first = summary(found.first()?)?;
        for steps in found {
            if summary(steps)? != first {
                return None;
            }
        }
        let mut to_move = None;
        for steps in found {
            let mut game = m.game.clone();
            for step in steps {
                if let Step::Play(color, p, _) = *step {
                    // A capture inside the block: which stones it took depends on the order.
                    match game.play(color, Move::Play(go::point(p))) {
                        Ok(captured) if captured.is_empty() => {}
                        _ => return None,
                    }
                }
            }
            to_move = Some(game.to_move());
        }
        let (complete, stones, trailing) = first;
        Some(Block {
            complete,
            stones,
            to_move: to_move?,
            trailing,
        })
    }

    /// The block of a board read at once after it could not see (or joined mid-game): every
    /// stone it shows that the game does not have was read at once, none was taken off, and
    /// the held presses alternate from the side to move and match the stones colour for
    /// colour. Then every order is legal (nothing is captured, and each chain of the position
    /// has a liberty, which the rules check), and none is known.
    fn block_of_board(&self, diff: &Diff) -> Option<Block> {
        let m = self.game.as_ref()?;
        let physical = self.sight.physical();
        let stood_and_went = m.vanished.iter().any(|v| v.from > m.placed_at);
        let captures_left = m
            .pending_caps
            .iter()
            .any(|&(p, _)| physical[p] != Reading::Empty);
        if !diff.removed.is_empty() || stood_and_went || captures_left {
            return None;
        }
        let mut presses: &[Claim] = &m.held;
        let mut complete = None;
        let last = m.game.moves().last().map(|l| l.color);
        if let Some(first) = presses.first()
            && m.provisional
            && last == Some(first.color)
        {
            complete = Some(*first);
            presses = &presses[1..];
        }
        let mut to_move = m.game.to_move();
        for press in presses {
            if press.color != to_move {
                return None;
            }
            to_move = to_move.opponent();
        }
        let mut stones = diff.added.clone();
        // Stones found late at the start (the board joined mid-game) are the moves here.
        for &p in &m.late_found {
            if let Some(c) = physical[p].color()
                && m.known.get(&p) == Some(&physical[p])
            {
                stones.push((p, c));
            }
        }
        stones.sort_unstable();
        stones.dedup();
        let seen_placed = stones
            .iter()
            .any(|&(p, _)| self.sight.changed_at()[p] > self.sight.last_blind_at());
        let count = |c: Color| (stones.iter().filter(|s| s.1 == c).count(), c);
        let pressed = |c: Color| (presses.iter().filter(|p| p.color == c).count(), c);
        let matched = Color::BOTH.iter().all(|&c| count(c) == pressed(c));
        (presses.len() >= 2 && matched && !seen_placed).then_some(Block {
            complete,
            stones,
            to_move,
            trailing: None,
        })
    }

    /// Records `block`: the held presses are consumed by it, its stones listed by point with
    /// `order_known: false`, and one `board_unavailable` alert stays open that names it.
    /// `false`, and nothing changed, when the rules refuse it.
    pub(crate) fn accept_block(&mut self, block: &Block) -> bool {
        let size = self.size;
        let Some(m) = self.game.as_mut() else {
            return false;
        };
        let stones: Vec<_> = block
            .stones
            .iter()
            .map(|&(p, c)| (go::point(p), c))
            .collect();
        let mut game = m.game.clone();
        if game
            .play_setup_block(SetupBlock::of_stones(&stones, block.to_move))
            .is_err()
        {
            return false;
        }
        m.held.clear();
        m.forget_unexplained();
        if let Some(claim) = block.complete {
            self.set_last_time(&claim);
        }
        let Some(m) = self.game.as_mut() else {
            return false;
        };
        let first = m.move_count() + 1;
        m.game = game;
        let last = m.move_count();
        let changed_at = self.sight.changed_at();
        for (number, &(p, color)) in (first..).zip(&block.stones) {
            // A stone found late at the start, claimed as a move: no longer a leftover.
            m.known.remove(&p);
            m.moves.push(MoveRecord {
                number,
                color,
                point: go::move_label(&go::name(p, size)),
                at: changed_at[p],
                time_left_ms: None,
                periods_left: None,
                order_known: false,
            });
        }
        m.provisional = false;
        m.placed_at = block
            .stones
            .iter()
            .map(|&(p, _)| changed_at[p])
            .max()
            .unwrap_or(m.placed_at);
        m.pending_caps.clear();
        m.late_found.clear();
        m.forget_deadline_pass();
        for &(p, _) in &block.stones {
            self.sight.handle_flips_explained(p);
        }
        let names = |color: Color| {
            block
                .stones
                .iter()
                .filter(|s| s.1 == color)
                .map(|&(p, _)| go::name(p, size))
                .collect()
        };
        self.emit(EventKind::SetupBlock {
            first,
            last,
            black: names(Color::Black),
            white: names(Color::White),
            reason: "played while the board could not see: every sequence of legal moves that \
                     explains the position and the presses has these stones, in different orders"
                .into(),
        });
        if let Some((color, p)) = block.trailing {
            if let Some(m) = self.game.as_mut() {
                m.known.remove(&p);
            }
            let at = self.sight.changed_at()[p];
            self.record_move(color, Move::Play(go::point(p)), at, true);
        }
        self.keep_block_alert(first, last);
        true
    }

    /// The `board_unavailable` alert of the held presses (or a new one) now says that moves
    /// `first`-`last` are recorded with their order unknown, and stays open: the presses
    /// are explained, but the order is the arbiter's to give. It is no longer the alert of
    /// held presses, so a later spell of blindness raises its own.
    fn keep_block_alert(&mut self, first: u32, last: u32) {
        let now = self.now.to_rfc3339();
        let message = format!(
            "moves {first}-{last}, order unknown: they were played while the board could not \
             see, and more than one order of them explains the board. Their stones are \
             recorded as a setup block (SGF AB/AW, listed by point), nothing guessed; later \
             moves are recorded as the board sees them. To record the order, note it on the \
             scoresheet or correct the SGF"
        );
        let Some(m) = self.game.as_mut() else { return };
        let open = m.board_alert().map(str::to_owned);
        m.handle_board_alert_closed();
        let updated = open.and_then(|id| self.devices.alert_mut(&id)).map(|a| {
            a.presses_unexplained = 0;
            a.message.clone_from(&message);
            a.resolved_at = None;
        });
        if updated.is_none() {
            self.devices
                .raise(&self.config.board, |id| crate::device_alert::DeviceAlert {
                    id,
                    kind: crate::device_alert::DeviceAlertKind::BoardUnavailable,
                    point: None,
                    presses_unexplained: 0,
                    raised_at: now,
                    resolved_at: None,
                    message,
                });
        }
        self.devices.handle_unexplained_presses(0);
        self.emit_device();
    }
}
