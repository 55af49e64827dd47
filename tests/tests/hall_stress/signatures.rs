//! The timing signatures the hall met (issue 39), laid over a game's cues: the newest stone flickering as the reply lands, a stone and its press in one millisecond, the host away while the table plays on.

use goban_hardware::sim::Act;
use goban_protocol::PointState;
use rand::Rng;
use rand::rngs::SmallRng;

use crate::hall::Cue;

/// How long the newest stone reads empty before it comes back with the reply (the hall's 50 ms).
const FLICKER_MS: u64 = 50;

/// Which signatures a game is played with.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Signatures {
    /// Chance per reply that the opponent's newest stone reads empty for 50 ms, ending in the
    /// very reading that shows the reply (39.1).
    pub(crate) newest_flicker: f64,
    /// Chance per press that it is stamped in the millisecond its stone was read (39.4).
    pub(crate) tie: f64,
    /// The host goes down after this many presses, for this many ms (39.7).
    pub(crate) host_away: Option<(usize, u64)>,
}

/// Lays the signatures over `cues` (the game's acts in time order); the caller sorts them.
pub(crate) fn apply(cues: &mut Vec<(u64, Cue)>, sig: &Signatures, rng: &mut SmallRng) {
    if sig.newest_flicker > 0.0 {
        flicker_newest(cues, sig.newest_flicker, rng);
    }
    if sig.tie > 0.0 {
        tie_presses(cues, sig.tie, rng);
    }
    if let Some((presses, down_ms)) = sig.host_away {
        let at = cues
            .iter()
            .filter(|(_, c)| matches!(c, Cue::Act(Act::Press { .. })))
            .nth(presses)
            .map(|(at, _)| *at);
        if let Some(at) = at {
            cues.push((at + 200, Cue::HostAway(down_ms)));
        }
    }
}

/// The one stone an act places (a point that reads a colour it did not read before).
fn placed(readings: &[PointState], act: &Cue) -> Option<(u16, PointState)> {
    let Cue::Act(Act::Board { changes }) = act else {
        return None;
    };
    let mut new = changes.iter().filter(|&&(p, s)| {
        matches!(s, PointState::Black | PointState::White) && readings[usize::from(p)] != s
    });
    match (new.next(), new.next()) {
        (Some(&one), None) => Some(one),
        _ => None,
    }
}

fn note(readings: &mut [PointState], act: &Cue) {
    if let Cue::Act(Act::Board { changes }) = act {
        for &(p, s) in changes {
            readings[usize::from(p)] = s;
        }
    }
}

/// 39.1: the newest stone (pressed for) reads empty 50 ms and comes back in the reading of the
/// opponent's reply.
fn flicker_newest(cues: &mut Vec<(u64, Cue)>, chance: f64, rng: &mut SmallRng) {
    let mut readings = vec![PointState::Empty; 19 * 19];
    let mut newest: Option<(u16, PointState, u64)> = None;
    let mut inserted = Vec::new();
    for i in 0..cues.len() {
        let (at, _) = cues[i];
        let stone = placed(&readings, &cues[i].1);
        if let (Some((p, colour)), Some((q, theirs, since))) = (stone, newest) {
            let untouched = |c: &Cue| match c {
                Cue::Act(Act::Board { changes }) => changes.iter().all(|&(x, _)| x != q),
                _ => true,
            };
            let quiet_before = i == 0 || cues[i - 1].0 + FLICKER_MS < at;
            if colour != theirs
                && q != p
                && readings[usize::from(q)] == theirs
                && since + 4 * FLICKER_MS < at
                && quiet_before
                && untouched(&cues[i].1)
                && rng.random_bool(chance)
            {
                inserted.push((
                    at - FLICKER_MS,
                    Cue::Act(Act::Board {
                        changes: vec![(q, PointState::Empty)],
                    }),
                ));
                if let Cue::Act(Act::Board { changes }) = &mut cues[i].1 {
                    changes.push((q, theirs));
                }
            }
        }
        note(&mut readings, &cues[i].1);
        if let Some((p, colour)) = stone {
            newest = Some((p, colour, at));
        }
    }
    cues.extend(inserted);
}

/// 39.4: a press stamped in the millisecond its stone was read (nothing in between).
fn tie_presses(cues: &mut [(u64, Cue)], chance: f64, rng: &mut SmallRng) {
    let mut readings = vec![PointState::Empty; 19 * 19];
    // The cue that placed the last stone, and when.
    let mut last_stone: Option<(usize, u64)> = None;
    for (i, (when, cue)) in cues.iter_mut().enumerate() {
        if placed(&readings, cue).is_some() {
            last_stone = Some((i, *when));
        }
        note(&mut readings, cue);
        // Only a press right after its stone's act: nothing (a capture taken off) in between.
        if let (Cue::Act(Act::Press { .. }), Some((k, at))) = (&*cue, last_stone)
            && k + 1 == i
            && rng.random_bool(chance)
        {
            *when = at;
        }
    }
}
