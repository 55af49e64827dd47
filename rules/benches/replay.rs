//! Replays each corpus with full legality checks, goban-rules (situational superko) beside
//! the `goban` crate 0.20 (rule CHINESE, positional superko), reported corpus by corpus:
//! `ai-19x19`, the 19x19 games of `gnugo-regression`, and a synthetic set of long
//! capture-heavy games generated reproducibly (fixed seed) by `goban-rules` itself.
//!
//! Both engines are timed on the same moves and the same work: each gets the records in its
//! own form (goban-rules `(Color, Move)`, `goban` a pass or (row, column)), converted once
//! before any timing, and each loop does the same around a move (resume a game that two
//! passes stopped, play with full legality, count the legal moves, keep the final position
//! alive with `black_box`).
//!
//! Run: `GOBAN_CORPUS=$PWD/../shared/corpus cargo bench -p goban-rules --bench replay`.
//! Profile: see `REPLAY_PROFILE` below and `docs/performance.md`.
//!
//! The heap: `goban` allocates on every move, goban-rules does not, so with glibc's default
//! thresholds `goban`'s rate depends on whether the process keeps trimming the top of its
//! heap and faulting it in again (a 3x swing from one run to the next). The bench therefore
//! re-executes itself once with the trim and mmap thresholds raised (see `pin_heap`), the
//! same condition for both engines, and prints the condition and each engine's page faults.

use std::hint::black_box;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use goban_rules::sgf::read_sgf;
use goban_rules::{BoardSize, Color, Game, GameSetup, KoRule, Move, Point, Ruleset};
use nix::sys::resource::{UsageWho, getrusage};
use nix::time::{ClockId, clock_gettime};

#[path = "../tests/common/sgf_files.rs"]
mod sgf_files;

type Record = Vec<(Color, Move)>;

/// A record as the `goban` crate takes its moves: a pass or (row, column).
type GobanRecord = Vec<goban::rules::Move>;

/// One corpus of the bench, its records in each engine's own form, so that neither
/// engine's timed loop converts moves.
struct Corpus {
    name: &'static str,
    records: Vec<Record>,
    goban_records: Vec<GobanRecord>,
}

impl Corpus {
    fn new(name: &'static str, records: Vec<Record>) -> Self {
        let goban_records = records.iter().map(goban_record).collect();
        Self {
            name,
            records,
            goban_records,
        }
    }
}

/// `rec`'s moves as the `goban` crate's: converted once, before any timing.
fn goban_record(rec: &Record) -> GobanRecord {
    use goban::rules::Move as GMove;
    rec.iter()
        .map(|&(_, mv)| match mv {
            Move::Pass => GMove::Pass,
            Move::Play(p) => GMove::Play(p.row(BoardSize::NINETEEN), p.col(BoardSize::NINETEEN)),
        })
        .collect()
}

/// The 19x19 records under `dir` (recursively), as replayed (implied passes resolved, so
/// both engines see strict alternation); records with setup stones or illegal moves are
/// left out.
/// The 19x19 records under `dir`; exits when there are none, so that a wrong `GOBAN_CORPUS`
/// (the bench runs in `rules/`, so a relative path or `$PWD` from there misses) cannot print
/// a table of zeros.
fn load_dir(dir: &Path) -> Vec<Record> {
    let records = read_dir_records(dir);
    if records.is_empty() {
        eprintln!(
            "replay bench: no 19x19 game under {} (set GOBAN_CORPUS to the corpus's absolute \
             path, e.g. GOBAN_CORPUS=$PWD/../shared/corpus from the repository's root)",
            dir.display()
        );
        std::process::exit(2);
    }
    records
}

fn read_dir_records(dir: &Path) -> Vec<Record> {
    let files = sgf_files::sgf_files(&[dir]);
    let mut records = Vec::new();
    for path in files {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let Ok(games) = read_sgf(&String::from_utf8_lossy(&bytes)) else {
            continue;
        };
        for g in games {
            if g.setup.size != BoardSize::NINETEEN || !g.setup_stones.is_empty() {
                continue;
            }
            let Ok(r) = g.replay() else { continue };
            if !r.rebased_after.is_empty() {
                continue;
            }
            records.push(r.game.moves().iter().map(|m| (m.color, m.mv)).collect());
        }
    }
    records
}

/// A small deterministic generator (xorshift64*), so the synthetic set is the same on
/// every machine and every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

/// `games` long games: random legal moves that never fill a one-point eye of the mover,
/// taking a capture whenever one is offered (which plays out kos and recaptures), until
/// `moves` moves or no move is left.
fn synthetic(games: usize, moves: usize) -> Vec<Record> {
    let size = BoardSize::NINETEEN;
    let setup = GameSetup::new(size, Ruleset::Cn2002).with_ko_rule(KoRule::Situational);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut out = Vec::with_capacity(games);
    for _ in 0..games {
        let Ok(mut g) = Game::new(setup) else { break };
        let mut rec = Vec::with_capacity(moves);
        while rec.len() < moves {
            let color = g.to_move();
            let mut legal: Vec<(Point, bool)> = size
                .all_points()
                .filter(|&p| !own_eye(&g, p, color))
                .filter_map(|p| g.preview(color, p).ok().map(|caps| (p, !caps.is_empty())))
                .collect();
            if legal.iter().any(|&(_, c)| c) {
                legal.retain(|&(_, c)| c);
            }
            let mv = if legal.is_empty() {
                Move::Pass
            } else {
                Move::Play(legal[rng.below(legal.len())].0)
            };
            if g.play(color, mv).is_err() || g.is_over() {
                break;
            }
            rec.push((color, mv));
        }
        out.push(rec);
    }
    out
}

fn own_eye(g: &Game, p: Point, color: Color) -> bool {
    let b = g.board();
    b.get(p).is_none() && b.neighbours(p).all(|q| b.get(q) == Some(color))
}

fn replay_ours(records: &[Record]) -> usize {
    let setup =
        GameSetup::new(BoardSize::NINETEEN, Ruleset::Cn2002).with_ko_rule(KoRule::Situational);
    let mut played = 0;
    for rec in records {
        let Ok(mut g) = Game::new(setup) else {
            return played;
        };
        for &(color, mv) in rec {
            if g.is_over() {
                let _ = g.resume();
            }
            if g.play_move(color, mv).is_ok() {
                played += 1;
            }
        }
        black_box(g.board().hash());
    }
    played
}

fn replay_goban(records: &[GobanRecord]) -> usize {
    use goban::rules::game::Game as GobanGame;
    use goban::rules::{CHINESE, GobanSizes};
    let mut played = 0;
    for rec in records {
        let mut g = GobanGame::new(GobanSizes::Nineteen, CHINESE);
        for &m in rec {
            if g.is_over() {
                g.resume();
            }
            if g.try_play(m).is_ok() {
                played += 1;
            }
        }
        black_box(g.goban());
    }
    played
}

/// glibc's heap thresholds the bench runs under: no trimming below 256 MiB and no `mmap`
/// for blocks under 32 MiB, so a freed top of the heap is kept and reused, not returned to
/// the kernel and faulted in again.
const PINNED_HEAP: &str =
    "glibc.malloc.trim_threshold=268435456:glibc.malloc.mmap_threshold=33554432";

/// `REPLAY_DEFAULT_HEAP=1` keeps glibc's default thresholds (the condition of the figures
/// measured before the bench pinned them).
const DEFAULT_HEAP_VAR: &str = "REPLAY_DEFAULT_HEAP";

/// Re-executes the bench with `PINNED_HEAP` in `GLIBC_TUNABLES` unless it is there already
/// or `REPLAY_DEFAULT_HEAP` is set (glibc reads its tunables at start-up only, hence the
/// re-execution; `mallopt` would need `unsafe`). Returns the heap condition to print.
fn pin_heap() -> String {
    if std::env::var_os(DEFAULT_HEAP_VAR).is_some() {
        return format!("glibc default thresholds ({DEFAULT_HEAP_VAR} is set)");
    }
    let tunables = std::env::var("GLIBC_TUNABLES").unwrap_or_default();
    if tunables.contains(PINNED_HEAP) {
        return format!("GLIBC_TUNABLES={tunables} (no heap trimming, the same for both engines)");
    }
    let pinned = if tunables.is_empty() {
        PINNED_HEAP.to_owned()
    } else {
        format!("{tunables}:{PINNED_HEAP}")
    };
    let Ok(exe) = std::env::current_exe() else {
        return "glibc default thresholds (the bench could not find itself to re-execute)".into();
    };
    let err = std::process::Command::new(exe)
        .args(std::env::args_os().skip(1))
        .env("GLIBC_TUNABLES", pinned)
        .exec();
    format!("glibc default thresholds (re-executing with GLIBC_TUNABLES failed: {err})")
}

/// Minor page faults of this thread so far.
fn thread_minor_faults() -> i64 {
    getrusage(UsageWho::RUSAGE_THREAD).map_or(0, |u| u.minor_page_faults())
}

/// Throughput of one engine on one corpus, in moves per second.
struct Rate {
    /// Moves over the CPU time of this thread: the cost of the replay itself, whatever else
    /// the shared machine runs at the same time.
    cpu: f64,
    /// Moves over the wall time of the fastest round: the round least disturbed by others.
    best_wall: f64,
    /// Minor page faults of the thread per million moves: near zero when the heap is
    /// pinned, in the millions when `goban` pays for a trimmed heap.
    faults_per_m: f64,
}

/// CPU time used by this thread so far.
fn thread_cpu() -> Duration {
    clock_gettime(ClockId::CLOCK_THREAD_CPUTIME_ID).map_or(Duration::ZERO, Duration::from)
}

/// The rate of `f` over rounds run for at least `budget` of wall time (three at least).
fn rate<R>(records: &[R], budget: Duration, f: fn(&[R]) -> usize) -> Rate {
    let (start, cpu_start, faults_start) = (Instant::now(), thread_cpu(), thread_minor_faults());
    let (mut moves, mut rounds, mut best_wall) = (0, 0, 0.0_f64);
    while start.elapsed() < budget || rounds < 3 {
        let t = Instant::now();
        let n = f(records);
        best_wall = best_wall.max(n as f64 / t.elapsed().as_secs_f64());
        moves += n;
        rounds += 1;
    }
    Rate {
        cpu: moves as f64 / (thread_cpu() - cpu_start).as_secs_f64(),
        best_wall,
        faults_per_m: (thread_minor_faults() - faults_start) as f64 * 1e6 / moves as f64,
    }
}

/// The corpora whose name `keep` accepts.
fn corpora(keep: impl Fn(&str) -> bool) -> Option<Vec<Corpus>> {
    let Some(root) = std::env::var_os("GOBAN_CORPUS") else {
        eprintln!("replay bench: skipped, GOBAN_CORPUS is not set");
        return None;
    };
    let root = Path::new(&root);
    let mut out = Vec::new();
    if keep("ai-19x19") {
        out.push(Corpus::new("ai-19x19", load_dir(&root.join("ai-19x19"))));
    }
    if keep("gnugo-regression-19x19") {
        out.push(Corpus::new(
            "gnugo-regression-19x19",
            load_dir(&root.join("gnugo-regression")),
        ));
    }
    if keep("synthetic-captures") {
        out.push(Corpus::new("synthetic-captures", synthetic(100, 600)));
    }
    Some(out)
}

/// `REPLAY_PROFILE=<corpus>`: replays that corpus `PROFILE_ROUNDS` times with goban-rules
/// alone, for `valgrind --tool=callgrind --toggle-collect='*replay_ours*'`; instructions
/// per move are the collected total over the moves printed.
const PROFILE_ROUNDS: usize = 10;

fn profile(name: &str) {
    let Some(corpora) = corpora(|n| n == name) else {
        return;
    };
    for corpus in &corpora {
        let cpu = thread_cpu();
        let moves: usize = (0..PROFILE_ROUNDS)
            .map(|_| replay_ours(&corpus.records))
            .sum();
        let secs = (thread_cpu() - cpu).as_secs_f64();
        println!(
            "{}: {moves} moves replayed ({PROFILE_ROUNDS} rounds) in {secs:.3} s of CPU",
            corpus.name
        );
    }
}

fn main() {
    if let Ok(name) = std::env::var("REPLAY_PROFILE") {
        // No re-execution here: under valgrind the new process would run outside the tool.
        return profile(&name);
    }
    let heap = pin_heap();
    let Some(corpora) = corpora(|_| true) else {
        return;
    };
    let mut c = Criterion::default().configure_from_args().sample_size(10);
    for corpus in &corpora {
        let total: usize = corpus.records.iter().map(Vec::len).sum();
        eprintln!(
            "{}: {} games, {total} moves; legal: goban-rules {}, goban {}",
            corpus.name,
            corpus.records.len(),
            replay_ours(&corpus.records),
            replay_goban(&corpus.goban_records)
        );
        let mut group = c.benchmark_group(format!("replay_{}", corpus.name));
        group.throughput(Throughput::Elements(total as u64));
        group.bench_function("goban-rules situational superko", |b| {
            b.iter(|| replay_ours(&corpus.records));
        });
        group.bench_function("goban 0.20 CHINESE", |b| {
            b.iter(|| replay_goban(&corpus.goban_records));
        });
        group.finish();
    }
    c.final_summary();
    println!("heap: {heap}");
    println!(
        "| corpus | goban-rules moves/s (CPU time / best round) | goban moves/s (CPU / best) | ratio (CPU / best) | minor page faults per M moves (goban-rules / goban) |"
    );
    println!("| --- | --- | --- | --- | --- |");
    for corpus in &corpora {
        let ours = rate(&corpus.records, Duration::from_secs(3), replay_ours);
        let theirs = rate(&corpus.goban_records, Duration::from_secs(3), replay_goban);
        println!(
            "| {} | {:.2} M / {:.2} M | {:.3} M / {:.3} M | {:.1}x / {:.1}x | {:.0} / {:.0} |",
            corpus.name,
            ours.cpu / 1e6,
            ours.best_wall / 1e6,
            theirs.cpu / 1e6,
            theirs.best_wall / 1e6,
            ours.cpu / theirs.cpu,
            ours.best_wall / theirs.best_wall,
            ours.faults_per_m,
            theirs.faults_per_m
        );
    }
}
