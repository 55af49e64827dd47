//! Fault injection (issue 9): boards and clocks unplugged and replugged again and again during three games (the stable link removed, then pointed at a fresh pty), moves played while they are away; no move is lost or invented (docs/referee.md, "When the board cannot see").
//!
//! The contract asserted: presses made while the board is away are held, never read as passes
//! or alerts; when the board reads again and exactly one sequence of legal moves explains
//! the stones and the held presses (here: one move, or two moves of both colours), the moves
//! are recorded as played and the `board_unavailable` alert, if any, is resolved. When the
//! board cannot tell (three moves away: two stones of one colour for three presses, whose
//! order it cannot know, unless only one order is legal), nothing is guessed: either the
//! stones are recorded as a setup block (`order_known: false`, listed by point, the same
//! stones as played) with ONE open `board_unavailable` alert that says "order unknown", or,
//! when the explanations differ in more than their order, the moves stay unrecorded and ONE
//! open `board_unavailable` alert counts the 3 unexplained presses. A move
//! whose press is lost while the clock is away is still recorded from the board. No
//! infraction is raised by any of it.

#[path = "support/harness/mod.rs"]
mod harness;

use std::time::{Duration, Instant};

use futures::future::join_all;
use goban_hardware::sim::StableLink;
use goban_rules::Color;
use harness::broker::Broker;
use harness::daemon::Daemon;
use harness::hall::{
    self, Planned, Script, Table, act, reads, rest_moves, wait_board, wait_moves, wait_pressed,
};
use serde_json::Value;
use tokio::sync::watch;

const TABLES: usize = 3;
const DEFAULT_SEED: u64 = 2_026_120_103;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Away {
    Board,
    Clock,
}

/// The spells away: before move index `at`, `device` is unplugged while `moves` moves are
/// played, then plugged in again. The last spell may be one the board cannot explain.
const SPELLS: [(usize, Away, usize); 6] = [
    (3, Away::Board, 1),
    (7, Away::Board, 2),
    (12, Away::Clock, 1),
    (15, Away::Board, 0),
    (18, Away::Board, 2),
    (23, Away::Board, 3),
];
const MOVES: usize = 26;

/// The `board_unavailable` alerts of a state's `device.alerts`.
fn asks(state: &Value) -> Vec<Value> {
    state["device"]["alerts"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|a| a["kind"] == "board_unavailable")
        .cloned()
        .collect()
}

/// The indices of the moves recorded with their order unknown (a setup block).
fn unordered(moves: &Value) -> Vec<usize> {
    moves
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
        .filter(|(_, m)| m["order_known"] == false)
        .map(|(i, _)| i)
        .collect()
}

/// A move as `rest_moves` gives it: colour and point.
type Named = (String, String);

/// `moves` with those at `unordered` taken out and sorted: a block compares as a set.
fn as_sets(moves: &[Named], unordered: &[usize]) -> (Vec<Named>, Vec<Named>) {
    let (mut block, rest): (Vec<_>, Vec<_>) = moves
        .iter()
        .cloned()
        .enumerate()
        .partition(|(i, _)| unordered.contains(i));
    block.sort_by(|a, b| a.1.cmp(&b.1));
    let strip = |v: Vec<(usize, (String, String))>| v.into_iter().map(|(_, m)| m).collect();
    (strip(rest), strip(block))
}

fn open_asks(state: &Value) -> Vec<Value> {
    asks(state)
        .into_iter()
        .filter(|a| a["resolved_at"].is_null())
        .collect()
}

fn assert_no_infraction(id: &str, state: &Value) {
    assert_eq!(
        state["infractions"].as_array().map(Vec::len),
        Some(0),
        "{id}: unplugging is no infraction: {}",
        state["infractions"]
    );
}

/// Whether a move played while the board is away captures a stone also played while away.
fn captured_while_away(script: &Script) -> bool {
    SPELLS
        .iter()
        .filter(|(_, away, _)| *away == Away::Board)
        .any(|&(at, _, moves)| {
            let spell = &script.moves[at..at + moves];
            spell.iter().any(|m| {
                m.captures
                    .iter()
                    .any(|c| spell.iter().any(|p| p.point == *c))
            })
        })
}

/// A table whose devices are reached through stable links, as `/dev/serial/by-id/...`.
struct Linked {
    table: Table,
    board_link: StableLink,
    clock_link: StableLink,
}

impl Linked {
    fn new(table: Table, dir: &std::path::Path) -> Self {
        let board_link = StableLink::new(dir.join(format!("{}-board", table.id)));
        let clock_link = StableLink::new(dir.join(format!("{}-clock", table.id)));
        board_link.point_to(table.board.path()).expect("link");
        clock_link.point_to(table.clock.path()).expect("link");
        Self {
            table,
            board_link,
            clock_link,
        }
    }

    /// Pulls the cable: the pty closes, the link vanishes; returns once the daemon sees it.
    async fn unplug(&self, base: &str, away: Away) {
        let (device, link, field) = match away {
            Away::Board => (&self.table.board, &self.board_link, "board"),
            Away::Clock => (&self.table.clock, &self.clock_link, "clock"),
        };
        device.unplug();
        link.remove();
        let what = format!("the {field} seen unplugged");
        wait_board(base, &self.table.id, &what, Duration::from_secs(10), |s| {
            s["device"][field] != "connected"
        })
        .await;
    }

    /// Plugs it in again on a fresh pty behind the same link; returns once the daemon has it.
    async fn replug(&mut self, base: &str, away: Away) {
        match away {
            Away::Board => {
                self.table.board = self.table.board.replugged();
                self.board_link
                    .point_to(self.table.board.path())
                    .expect("link");
            }
            Away::Clock => {
                self.table.clock = self.table.clock.replugged();
                self.clock_link
                    .point_to(self.table.clock.path())
                    .expect("link");
            }
        }
        // Connected; the referee may still wait for the board (an ask it cannot resolve).
        wait_board(
            base,
            &self.table.id,
            "both devices connected after the replug",
            Duration::from_secs(10),
            |s| s["device"]["board"] == "connected" && s["device"]["clock"] == "connected",
        )
        .await;
    }
}

/// Plays the script with the spells; returns the final state.
async fn play(base: &str, linked: &mut Linked, script: &Script) -> Value {
    let id = linked.table.id.clone();
    let (_open, mut gate) = watch::channel(true);
    let want = script.points();
    let mut next = 0;
    let mut board_spells = 0;
    for (n, &(at, away, moves)) in SPELLS.iter().enumerate() {
        while next < at {
            act(&linked.table, &script.moves[next], &mut gate).await;
            next += 1;
            wait_moves(base, &id, next).await;
        }
        // The last press read first, so that the presses held are the spell's alone.
        wait_pressed(base, &id, next).await;
        linked.unplug(base, away).await;
        for _ in 0..moves {
            act(&linked.table, &script.moves[next], &mut gate).await;
            next += 1;
            // The next player answers once the stone is down.
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
        linked.replug(base, away).await;
        // A press still on its way when the board goes is held too: a spell with no move may ask.
        board_spells += usize::from(away == Away::Board);
        let last = n + 1 == SPELLS.len();
        let state = wait_board(
            base,
            &id,
            "the moves away recovered, or one ask",
            Duration::from_secs(20),
            |s| {
                s["move_number"].as_u64() >= Some(next as u64) || (last && !open_asks(s).is_empty())
            },
        )
        .await;
        // A moment for anything the referee would add (an invented move, an alert).
        tokio::time::sleep(Duration::from_millis(800)).await;
        let state = hall::try_get(&hall::client(), base, &format!("/boards/{id}"))
            .await
            .unwrap_or(state);
        assert_no_infraction(&id, &state);
        let got = rest_moves(&state["moves"]);
        let all = asks(&state);
        assert!(
            all.len() <= board_spells,
            "{id}: one ask at most per blind spell: {all:?}"
        );
        if got.len() == next {
            let unordered = unordered(&state["moves"]);
            assert_eq!(
                as_sets(&got, &unordered),
                as_sets(&want[..next], &unordered),
                "{id}: moves after spell {n} ({away:?} away)"
            );
            let open = open_asks(&state);
            if unordered.is_empty() {
                assert!(
                    open.is_empty(),
                    "{id}: every move explained, yet an ask is open: {all:?}"
                );
            } else {
                // A setup block: the order of its moves is the arbiter's to give.
                assert_eq!(open.len(), 1, "{id}: ONE ask for the block: {all:?}");
                assert_eq!(open[0]["presses_unexplained"], 0, "{id}: {}", open[0]);
                let message = open[0]["message"].as_str().unwrap_or_default();
                assert!(message.contains("order unknown"), "{id}: {message}");
            }
            println!(
                "{id}: spell {n} ({away:?} away, {moves} moves): all recovered, {} asks",
                all.len()
            );
        } else {
            // Only the last spell, three moves of which the board may not know the order.
            assert!(last && moves == 3, "{id}: spell {n} lost moves: {got:?}");
            let start = next - moves;
            assert_eq!(
                got,
                want[..start],
                "{id}: nothing guessed after the last spell"
            );
            let open = open_asks(&state);
            assert_eq!(open.len(), 1, "{id}: ONE ask for the arbiter: {all:?}");
            assert_eq!(open[0]["presses_unexplained"], 3, "{id}: {}", open[0]);
            println!(
                "{id}: spell {n} ({away:?} away, {moves} moves): not explained, one ask: {}",
                open[0]["message"]
            );
        }
    }
    hall::try_get(&hall::client(), base, &format!("/boards/{id}"))
        .await
        .expect("final state")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn devices_unplugged_and_replugged_again_and_again_lose_and_invent_nothing() {
    let begun = Instant::now();
    let seed = hall::seed(DEFAULT_SEED);
    println!("seed {seed} (GOBAN_FAULT_SEED={seed} replays it)");
    let dir = tempfile::tempdir().expect("temp dir");
    let broker = Broker::start(dir.path());
    let mut linked: Vec<Linked> = Table::open(TABLES)
        .into_iter()
        .map(|t| Linked::new(t, dir.path()))
        .collect();
    let ports: Vec<(&str, &std::path::Path, &std::path::Path)> = linked
        .iter()
        .map(|l| {
            (
                l.table.id.as_str(),
                l.board_link.path(),
                l.clock_link.path(),
            )
        })
        .collect();
    let setup = hall::setup_ports(dir.path(), &ports, broker.port);
    let daemon = Daemon::start(&setup, 1).await;
    let base = daemon.base().to_string();
    for l in &linked {
        wait_board(
            &base,
            &l.table.id,
            "the board read",
            Duration::from_secs(10),
            reads,
        )
        .await;
    }
    let scripts: Vec<Script> = (0..TABLES as u64)
        .map(|i| {
            // Games where a stone is played and captured inside one spell are left to the
            // ignored test below (a known referee bug): the next seed is drawn instead.
            (0..)
                .map(|k: u64| Script::random(seed.wrapping_add(i + 1_000 * k), MOVES, None))
                .find(|s| !captured_while_away(s))
                .expect("a game")
        })
        .collect();
    let finals = join_all(
        linked
            .iter_mut()
            .zip(&scripts)
            .map(|(l, s)| play(&base, l, s)),
    )
    .await;
    for state in &finals {
        let asks = asks(state);
        println!(
            "{}: {} moves recorded, {} board_unavailable asks, {} open",
            state["board"],
            state["move_number"],
            asks.len(),
            open_asks(state).len()
        );
    }
    println!("duration: {:?}", begun.elapsed());
}

/// A move `(color, point index, captured indices)` of a hand-written 9x9 game.
fn planned(color: Color, point: usize, captures: &[usize]) -> Planned {
    Planned {
        color,
        point,
        captures: captures.to_vec(),
        premature: false,
    }
}

/// While the board is away White plays H1 into atari and Black takes it at J1: the board
/// then sees only J1 added. Either explanation (White H1 captured, or White passed) fits;
/// the referee must not record a pass it never saw: it records H1, or J1 and a move nobody
/// saw as a block with one open ask, or holds the presses and asks once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]

async fn a_stone_captured_while_the_board_is_away_is_not_read_as_a_pass() {
    use Color::{Black, White};
    let begun = Instant::now();
    let dir = tempfile::tempdir().expect("temp dir");
    let broker = Broker::start(dir.path());
    let mut linked = Linked::new(Table::open(1).remove(0), dir.path());
    let ports = [(
        linked.table.id.as_str(),
        linked.board_link.path(),
        linked.clock_link.path(),
    )];
    let setup = hall::setup_ports(dir.path(), &ports, broker.port);
    let daemon = Daemon::start(&setup, 1).await;
    let base = daemon.base().to_string();
    let id = linked.table.id.clone();
    // G1, A9, H2, B9, C9 with the board; then, away, White H1 (one liberty) and Black J1 taking it.
    let (g1, h1, j1, h2) = (78, 79, 80, 70);
    let script = Script {
        moves: vec![
            planned(Black, g1, &[]),
            planned(White, 0, &[]),
            planned(Black, h2, &[]),
            planned(White, 1, &[]),
            planned(Black, 2, &[]),
            planned(White, h1, &[]),
            planned(Black, j1, &[h1]),
        ],
        resigns: White,
    };
    let want = script.points();
    let (_open, mut gate) = watch::channel(true);
    for (i, mv) in script.moves[..5].iter().enumerate() {
        act(&linked.table, mv, &mut gate).await;
        wait_moves(&base, &id, i + 1).await;
    }
    wait_pressed(&base, &id, 5).await;
    linked.unplug(&base, Away::Board).await;
    for mv in &script.moves[5..] {
        act(&linked.table, mv, &mut gate).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    linked.replug(&base, Away::Board).await;
    let state = wait_board(
        &base,
        &id,
        "the moves away recorded, or one ask",
        Duration::from_secs(20),
        |s| s["move_number"].as_u64() >= Some(7) || !open_asks(s).is_empty(),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    let state = hall::try_get(&hall::client(), &base, &format!("/boards/{id}"))
        .await
        .unwrap_or(state);
    let got = rest_moves(&state["moves"]);
    println!("recorded {got:?}, asks {}", state["device"]["alerts"]);
    assert_no_infraction(&id, &state);
    let unseen_block = got.get(5..).is_some_and(|away| {
        away.iter()
            .any(|(_, point)| point == goban_referee::MoveName::UNSEEN)
    });
    if unseen_block {
        // White's H1 left nothing on the board: a block of J1 and a move nobody saw, order
        // unknown, with one open ask; nothing guessed (issue 39, "Moves nobody saw").
        assert_eq!(got[..5], want[..5], "the moves before, in order");
        let away: Vec<(&str, &str)> = got[5..]
            .iter()
            .map(|(c, p)| (c.as_str(), p.as_str()))
            .collect();
        assert_eq!(away, [("black", "J1"), ("white", "unseen")]);
        let moves = state["moves"].as_array().expect("moves");
        assert!(
            moves[5..].iter().all(|m| m["order_known"] == false),
            "{moves:?}"
        );
        let asks = open_asks(&state);
        assert_eq!(asks.len(), 1, "one ask: {}", state["device"]);
        assert!(
            asks[0]["message"]
                .as_str()
                .is_some_and(|m| m.contains("moves 6-7, content partly unknown")),
            "{asks:?}"
        );
    } else if got.len() == want.len() {
        assert_eq!(got, want, "the moves played while the board was away");
    } else {
        assert_eq!(got, want[..5], "nothing guessed: {got:?}");
        assert_eq!(open_asks(&state).len(), 1, "one ask: {}", state["device"]);
    }
    println!("duration: {:?}", begun.elapsed());
}
