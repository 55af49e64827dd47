//! Replays the ai-19x19 corpus with full legality checks: goban-rules (situational superko)
//! against the `goban` crate 0.20 (rule CHINESE, positional superko), with the ratio.
//!
//! Run: `GOBAN_CORPUS=$PWD/../shared/corpus cargo bench -p goban-rules --bench replay`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use goban_rules::sgf::read_sgf;
use goban_rules::{BoardSize, Color, Game, GameSetup, KoRule, Move, Ruleset};

type Record = Vec<(Color, Move)>;

fn load() -> Option<Vec<Record>> {
    let Some(root) = std::env::var_os("GOBAN_CORPUS") else {
        eprintln!("replay bench: skipped, GOBAN_CORPUS is not set");
        return None;
    };
    let dir = std::path::Path::new(&root).join("ai-19x19");
    let mut records = Vec::new();
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let Ok(text) = std::fs::read_to_string(entry.path()) else {
            continue;
        };
        let Ok(games) = read_sgf(&text) else { continue };
        for g in games {
            // The replay resolves implied passes, so both engines see strict alternation.
            let Ok(r) = g.replay() else { continue };
            records.push(r.game.moves().iter().map(|m| (m.color, m.mv)).collect());
        }
    }
    Some(records)
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
            if g.play(color, mv).is_ok() {
                played += 1;
            }
        }
        black_box(g.board().hash());
    }
    played
}

fn replay_goban(records: &[Record]) -> usize {
    use goban::rules::game::Game as GobanGame;
    use goban::rules::{CHINESE, GobanSizes, Move as GMove};
    let mut played = 0;
    for rec in records {
        let mut g = GobanGame::new(GobanSizes::Nineteen, CHINESE);
        for &(_, mv) in rec {
            let m = match mv {
                Move::Pass => GMove::Pass,
                Move::Play(p) => {
                    let (r, c) = (p.row(BoardSize::NINETEEN), p.col(BoardSize::NINETEEN));
                    GMove::Play(r, c)
                }
            };
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

/// Moves per second of `f` over at least `budget`.
fn rate(records: &[Record], budget: Duration, f: fn(&[Record]) -> usize) -> f64 {
    let start = Instant::now();
    let mut moves = 0;
    while start.elapsed() < budget {
        moves += f(records);
    }
    moves as f64 / start.elapsed().as_secs_f64()
}

fn main() {
    let Some(records) = load() else { return };
    let total: usize = records.iter().map(Vec::len).sum();
    let ours = replay_ours(&records);
    let theirs = replay_goban(&records);
    eprintln!(
        "{} games, {total} moves; legal: goban-rules {ours}, goban {theirs}",
        records.len()
    );

    let mut c = Criterion::default().configure_from_args().sample_size(10);
    let mut group = c.benchmark_group("replay_ai_19x19");
    group.throughput(Throughput::Elements(total as u64));
    group.bench_function("goban-rules situational superko", |b| {
        b.iter(|| replay_ours(&records))
    });
    group.bench_function("goban 0.20 CHINESE", |b| b.iter(|| replay_goban(&records)));
    group.finish();
    c.final_summary();

    let ours = rate(&records, Duration::from_secs(3), replay_ours);
    let theirs = rate(&records, Duration::from_secs(3), replay_goban);
    println!("goban-rules (situational superko): {ours:.0} moves/s");
    println!("goban 0.20 (CHINESE, positional superko): {theirs:.0} moves/s");
    println!("ratio: {:.1}x", ours / theirs);
}
