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
use crate::move_name::MoveName;
use crate::move_records::MoveRecord;
use crate::referee::Referee;
use crate::step::Step;

/// Moves whose stones are known and whose order is not.
#[derive(Debug, PartialEq)]
pub(crate) struct Block {
    /// The first held press completes the last move recorded before the board went blind.
    pub(crate) complete: Option<Claim>,
    /// The stones played that stand on the board after it, one press each, by point.
    pub(crate) stones: Vec<(usize, Color)>,
    /// Who moves after the block.
    pub(crate) to_move: Color,
    /// Stones the board saw being placed after it, in that order: recorded as usual after
    /// the block, each with its press, the last one possibly not pressed yet (the next move).
    pub(crate) after: Vec<(Color, usize, Option<Claim>)>,
    /// Presses of the block no stone on the board accounts for, one colour each: moves
    /// nobody saw (a pass, or a stone taken off again within the block). Empty unless the
    /// block is one of [`Referee::block_with_unseen`].
    pub(crate) unseen: Vec<Color>,
    /// Points whose stone of before the block is gone after it: captured within it, by
    /// point. Empty unless the block is one of [`Referee::block_with_unseen`].
    pub(crate) removed: Vec<usize>,
}

/// What the referee makes of held presses that more than one sequence explains.
#[derive(Debug, PartialEq)]
pub(crate) enum Verdict {
    /// The same stones in every order: recorded as a block.
    Block(Block),
    /// The board shows one stone more than the presses, of the side to move: its press is
    /// probably on its way, and which stone it completes is unknown until it comes. Asked
    /// meanwhile, and tried again when the press arrives.
    AwaitPress,
    /// An ask, as before: a capture, different stones, a pass.
    Ask,
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
    pub(crate) fn unordered_block(&self, found: &[Vec<Step>], diff: &Diff) -> Verdict {
        if found.len() < 2 || !diff.changed.is_empty() {
            return Verdict::Ask;
        }
        let of_board = self.block_of_board(diff);
        if found.iter().all(Vec::is_empty) {
            // The search gave up (more orders than it lists): too many to list is no reason
            // to lose them, when the board and the presses match colour for colour.
            return of_board;
        }
        match self.block_of_explanations(found) {
            Some(block) => Verdict::Block(block),
            None if of_board == Verdict::AwaitPress => Verdict::AwaitPress,
            None => Verdict::Ask,
        }
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
            after: trailing.map(|(c, p)| (c, p, None)).into_iter().collect(),
            unseen: Vec::new(),
            removed: Vec::new(),
        })
    }

    /// The block of a board read at once after it could not see (or joined mid-game): the
    /// stones it read at once are the first moves of the held presses, matching them colour
    /// for colour (the presses alternate from the side to move); stones it saw being placed
    /// since are the next presses' moves, in the order seen (the last may wait for its
    /// press); nothing was taken off. Then every order of the block is legal (nothing is
    /// captured, and each chain of the position has a liberty, which the rules check), and
    /// none is known.
    fn block_of_board(&self, diff: &Diff) -> Verdict {
        let Some(m) = self.game.as_ref() else {
            return Verdict::Ask;
        };
        let physical = self.sight.physical();
        if !diff.removed.is_empty() || !self.position_settled() {
            return Verdict::Ask;
        }
        let Some((complete, presses, to_move)) = m.held_moves() else {
            return Verdict::Ask;
        };
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
        let (at_once, seen): (Vec<_>, Vec<_>) = stones
            .into_iter()
            .partition(|&(p, _)| self.sight.changed_at()[p] <= self.sight.last_blind_at());
        let mut seen: Vec<(usize, Color)> = seen;
        seen.sort_by_key(|&(p, _)| self.sight.changed_at()[p]);
        split_presses(presses, at_once, &seen).map_or(Verdict::Ask, |split| match split {
            Split::Block(stones, after) => Verdict::Block(Block {
                complete,
                to_move: presses.get(stones.len()).map_or(to_move, |p| p.color),
                stones,
                after,
                unseen: Vec::new(),
                removed: Vec::new(),
            }),
            Split::AwaitPress => Verdict::AwaitPress,
        })
    }

    /// Whether nothing of the position is in doubt but the held moves: no stone seen standing
    /// since the last move has gone again, and no capture still waits to be taken off.
    pub(crate) fn position_settled(&self) -> bool {
        let Some(m) = self.game.as_ref() else {
            return false;
        };
        let physical = self.sight.physical();
        let stood_and_went = m.vanished.iter().any(|v| v.from > m.placed_at);
        let captures_left = m
            .pending_caps
            .iter()
            .any(|&(p, _)| physical[p] != Reading::Empty);
        !stood_and_went && !captures_left
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
        let rules_block =
            SetupBlock::of_stones_on(m.game.board(), &stones, block.unseen.clone(), block.to_move);
        let removed: Vec<_> = block.removed.iter().map(|&p| go::point(p)).collect();
        let mut game = m.game.clone();
        // The captures the stones explain must be the stones gone from the board, no other.
        if rules_block.removed() != removed.as_slice()
            || game.play_setup_block(rules_block).is_err()
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
        let mut numbers = first..;
        // The stones first in each zip: a zip that ends on them takes no number more.
        for (&(p, color), number) in block.stones.iter().zip(numbers.by_ref()) {
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
        let now = self.now;
        for (number, &color) in numbers.zip(&block.unseen) {
            m.moves.push(MoveRecord {
                number,
                color,
                point: MoveName::unseen(),
                at: now,
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
            removed: block.removed.iter().map(|&p| go::name(p, size)).collect(),
            unseen: block.unseen.clone(),
            reason: if block.unseen.is_empty() && block.removed.is_empty() {
                "played while the board could not see: every sequence of legal moves that \
                 explains the position and the presses has these stones, in different orders"
            } else {
                "played while the board could not see: the clock counted these moves, the \
                 board shows these stones placed and those taken off; a move no stone on the \
                 board accounts for was a pass or a stone taken off again meanwhile"
            }
            .into(),
        });
        for &(color, p, claim) in &block.after {
            if let Some(m) = self.game.as_mut() {
                m.known.remove(&p);
            }
            let mv = Move::Play(go::point(p));
            match claim {
                Some(claim) => {
                    let time = Some((claim.time_left, claim.periods_left));
                    if self.record_timed_move(color, mv, claim.at, false, time) {
                        let number = self.game.as_ref().map_or(0, |m| m.move_count());
                        self.emit(EventKind::Correction {
                            number,
                            was: "none".into(),
                            now: go::name(p, size),
                            reason: "read when the board could see again, placed after the \
                                     moves of unknown order and pressed"
                                .into(),
                            time_left_ms: claim.time_left,
                            periods_left: claim.periods_left,
                        });
                    }
                }
                None => {
                    let at = self.sight.changed_at()[p];
                    self.record_move(color, mv, at, true);
                }
            }
        }
        self.keep_block_alert(first, last, &block.unseen);
        true
    }

    /// The `board_unavailable` alert of the held presses (or a new one) now says that moves
    /// `first`-`last` are recorded with their order unknown, and stays open: the presses
    /// are explained, but the order is the arbiter's to give. It is no longer the alert of
    /// held presses, so a later spell of blindness raises its own.
    fn keep_block_alert(&mut self, first: u32, last: u32, unseen: &[Color]) {
        let now = self.now.to_rfc3339();
        let message = if unseen.is_empty() {
            format!(
                "moves {first}-{last}, order unknown: they were played while the board could \
                 not see, and more than one order of them explains the board. Their stones are \
                 recorded as a setup block (SGF AB/AW, listed by point), nothing guessed; later \
                 moves are recorded as the board sees them. If the players agree on the order, \
                 give it (POST /boards/{{board}}/moves/{first}/order)"
            )
        } else {
            let count = |c: Color| unseen.iter().filter(|&&u| u == c).count();
            format!(
                "moves {first}-{last}, content partly unknown: they were played while the board \
                 could not see. The clock counted {} move(s) of Black and {} of White that no \
                 stone on the board shows (each a pass, or a stone captured meanwhile); they \
                 are recorded as moves nobody saw (point \"unseen\"), nothing guessed, and the \
                 stones the board shows as a setup block (SGF AB/AW/AE); later moves are \
                 recorded as the board sees them. Ask the players what was played",
                count(Color::Black),
                count(Color::White)
            )
        };
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

/// How held presses split between a block and the moves seen after it.
enum Split {
    /// The block's stones (by point), then the moves seen after it in order, each with its
    /// press (none for a last stone not pressed yet).
    Block(Vec<(usize, Color)>, Vec<(Color, usize, Option<Claim>)>),
    /// The stones read at once are one more than their presses: the last press is still to come.
    AwaitPress,
}

/// `presses` (alternating) split into the block of the stones read `at_once` and the
/// stones `seen` placed after it, in that order; `None` when they do not fit.
fn split_presses(
    presses: &[Claim],
    at_once: Vec<(usize, Color)>,
    seen: &[(usize, Color)],
) -> Option<Split> {
    let count = |stones: &[(usize, Color)], c: Color| stones.iter().filter(|s| s.1 == c).count();
    let pressed = |presses: &[Claim], c: Color| presses.iter().filter(|p| p.color == c).count();
    if at_once.len() < 2 {
        // One stone has one order: the explanations decide.
        return None;
    }
    if at_once.len() == presses.len() + 1 && seen.is_empty() {
        let next = presses
            .last()
            .map(|p| p.color.opponent())
            .or_else(|| at_once.first().map(|s| s.1))?;
        let fits = Color::BOTH
            .iter()
            .all(|&c| count(&at_once, c) == pressed(presses, c) + usize::from(c == next));
        return fits.then_some(Split::AwaitPress);
    }
    let (block, rest) = presses.split_at_checked(at_once.len())?;
    let fits = Color::BOTH
        .iter()
        .all(|&c| count(&at_once, c) == pressed(block, c));
    // Each stone seen is the next press's move; a last one may not be pressed yet, and is
    // then the colour to move after every press.
    let next = presses.last().map(|p| p.color.opponent());
    let unpressed_fits = match seen.len().checked_sub(rest.len())? {
        0 => true,
        1 => seen.last().map(|s| Some(s.1)) == Some(next),
        _ => false,
    };
    let in_order = rest.iter().zip(seen).all(|(press, s)| press.color == s.1);
    if !(fits && unpressed_fits && in_order && seen.len() >= rest.len()) {
        return None;
    }
    Some(Split::Block(at_once, moves_after(seen, rest)))
}

/// The stones `seen` placed after a block, in that order, each with its press of `presses`
/// (none for a last stone not pressed yet).
pub(crate) fn moves_after(
    seen: &[(usize, Color)],
    presses: &[Claim],
) -> Vec<(Color, usize, Option<Claim>)> {
    seen.iter()
        .enumerate()
        .map(|(i, &(p, c))| (c, p, presses.get(i).copied()))
        .collect()
}
