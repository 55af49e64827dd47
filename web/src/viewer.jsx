// GET /board/{id}: the broadcast viewer, live from the public (delayed) stream, with navigation back through the game.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { analysisOf } from './analysis.js';
import { CandidateList, EngineNote, LeadBar, LeadGraph } from './analysis.jsx';
import { boardPath } from './api.js';
import { Board, useWindowSize } from './board.jsx';
import { Clocks } from './clock.jsx';
import { CountPanel, Penalties, Players, useSeating } from './gameinfo.jsx';
import { blocksOf, replay, signMapOf } from './go.js';
import { useBoardFeed } from './live.js';
import { resultOf, unitOf } from './result.js';
import { territoryOf } from './territory.js';

const COLOR_LETTER = { black: 'B', white: 'W' };

function MoveList({ moves, shown, onPick }) {
  const list = useRef();
  useEffect(() => {
    list.current?.querySelector('[aria-current="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [shown, moves.length]);
  // A setup block's moves (order unknown) are listed by point, without numbers, under one note.
  const all = blocksOf(moves);
  const blocks = new Map(all.map((b) => [b.first, b]));
  // Picking a move of a block shows the position after the whole block.
  const pick = (n) => onPick(all.find((b) => b.first <= n && n <= b.last)?.last ?? n);
  return (
    <ol class="moves" ref={list} aria-label="moves">
      {moves.flatMap((m) => {
        const unordered = m.order_known === false;
        const block = blocks.get(m.number);
        const item = (
          <li key={m.number} data-number={m.number} data-point={m.point} data-color={m.color}
            class={unordered ? 'unordered' : undefined}>
            <button type="button" aria-current={m.number === shown ? 'true' : undefined}
              onClick={() => pick(m.number)}>
              <span class="n">{unordered ? '·' : m.number}</span>
              <span class={`stone-icon ${m.color}`} aria-label={m.color} />
              <span class="pt">{m.point}</span>
            </button>
          </li>
        );
        if (!block) return [item];
        return [
          <li key={`block-${block.first}`} class="block-note" role="note">
            moves {block.first}-{block.last}, order unknown
          </li>,
          item,
        ];
      })}
    </ol>
  );
}

function Navigation({ shown, total, live, go }) {
  return (
    <div class="nav" role="group" aria-label="navigate the game">
      <button type="button" onClick={() => go(0)} disabled={shown === 0} aria-label="first move">«</button>
      <button type="button" onClick={() => go(shown - 1)} disabled={shown === 0} aria-label="previous move">◀</button>
      <span class="at" aria-live="polite">{live ? `live · move ${total}` : `move ${shown} of ${total}`}</span>
      <button type="button" onClick={() => go(shown + 1)} disabled={live} aria-label="next move">▶</button>
      <button type="button" onClick={() => go(null)} disabled={live} aria-label="back to live">»</button>
    </div>
  );
}

/** The position, captures and move numbers to draw: the live state at the end, a replay before it. */
export function useShownPosition(feed, at) {
  const state = feed?.state;
  const moves = feed?.moves ?? [];
  const size = state?.size ?? 19;
  const total = moves.length;
  const shown = at == null ? total : Math.max(0, Math.min(at, total));
  const live = shown === total;
  const replayed = useMemo(() => replay(moves, size, shown, state?.handicap ?? 0), [moves, shown, size]);
  const signMap = live && state?.position ? signMapOf(state.position, size) : replayed.signMap;
  const captures = live && state?.captures ? state.captures : replayed.captures;
  // The last of a setup block's moves is unknown: no stone is marked as the last move then.
  const lastPoint = shown > 0 && moves[shown - 1]?.order_known !== false ? moves[shown - 1]?.point : null;
  return { state, moves, size, total, shown, live, signMap, captures, lastPoint, numbers: replayed.numbers };
}

/** The counting view applies while counting, and to a finished game the count gave. */
export function countingView(state) {
  return state?.phase === 'counting' || (state?.phase === 'finished' && !!state?.count);
}

/** The engine's column: bar, graph, engine and budget, and the commentator's candidate moves. */
function EngineColumn({ feed, view, unit, candidates, setCandidates }) {
  const held = feed.analysis;
  const current = analysisOf(held, view.state);
  const shownLead = held.latest && held.latest.game === view.state.game ? held.latest : null;
  return (
    <section class="engine-col" aria-label="engine analysis">
      <LeadBar analysis={shownLead} unit={unit} />
      <LeadGraph history={held.history} total={view.total} shown={view.shown} />
      <EngineNote held={held} />
      {held.enabled && (
        <label class="toggle">
          <input type="checkbox" checked={candidates} onChange={(e) => setCandidates(e.currentTarget.checked)} /> engine moves
        </label>
      )}
      {candidates && view.live && current && <CandidateList analysis={current} unit={unit} />}
    </section>
  );
}

export function Viewer({ id }) {
  const feed = useBoardFeed(id);
  const [at, setAt] = useState(null);
  const [numbers, setNumbers] = useState(false);
  // The commentator's toggle: off by default, so nothing of the engine's moves goes on air unasked.
  const [candidates, setCandidates] = useState(false);
  const win = useWindowSize();
  const seating = useSeating(id);
  const view = useShownPosition(feed, at);
  const go = (n) => setAt(n == null || n >= view.total ? null : Math.max(0, n));
  useEffect(() => {
    const onKey = (e) => {
      if (e.target.closest?.('input, textarea, select')) return;
      if (e.key === 'ArrowLeft') go(view.shown - 1);
      else if (e.key === 'ArrowRight') go(view.shown + 1);
      else if (e.key === 'Home') go(0);
      else if (e.key === 'End') go(null);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });
  const state = view.state;
  const counting = countingView(state) && view.live;
  const territory = useMemo(
    () => (counting ? territoryOf(state.position, view.size, state.dead_stones) : null),
    [counting, state?.position, state?.dead_stones, view.size],
  );
  if (!state) {
    return <main class="loading" role="status">{feed?.connection === 'closed' ? `board ${id} not found` : `loading ${id}…`}</main>;
  }
  const wide = win.width >= 900;
  const pixels = wide ? Math.min(win.height - 70, win.width - 400) : win.width - 12;
  const unit = unitOf(state);
  const result = resultOf(state);
  const current = analysisOf(feed.analysis, state);
  const shownCandidates = candidates && view.live && current ? current.candidates.map((c) => c.point) : [];
  return (
    <>
      <header class="top">
        <h1>
          <span class="board-id">{id}</span>
          <span class="players">{seating?.black_name || state.black || 'Black'} – {seating?.white_name || state.white || 'White'}</span>
        </h1>
        <span class="summary">{state.ruleset} · komi {state.komi} · {state.phase}</span>
        {result && <span class="result" data-result={state.result ?? state.proposed_result} data-unit={unit}>{result}</span>}
        <span class={`conn ${feed.connection}`} role="status">{feed.connection}</span>
        <nav><a href="/">hall</a></nav>
      </header>
      <main class={`viewer${wide ? ' wide' : ''}`}>
        <Board signMap={view.signMap} size={view.size} pixels={pixels} lastPoint={view.lastPoint}
          numbers={numbers ? view.numbers : null}
          dead={counting ? state.dead_stones || [] : []}
          paint={territory?.paint}
          candidates={shownCandidates}
          label={`board ${id} after move ${view.shown}`} />
        <aside class="side">
          <Players state={state} seating={seating} />
          <Clocks reading={state.clock} receivedAt={feed.clockAt} names={state}
            live={state.phase === 'playing'} />
          <div class="captures" aria-label="captures">
            captures: <span class="stone-icon black" aria-hidden="true" /> {view.captures.black ?? 0}
            {' '}<span class="stone-icon white" aria-hidden="true" /> {view.captures.white ?? 0}
          </div>
          {counting && <CountPanel state={state} territory={territory} />}
          <Penalties state={state} />
          <EngineColumn feed={feed} view={view} unit={unit} candidates={candidates} setCandidates={setCandidates} />
          <Navigation shown={view.shown} total={view.total} live={view.live} go={go} />
          <label class="toggle">
            <input type="checkbox" checked={numbers} onChange={(e) => setNumbers(e.currentTarget.checked)} /> move numbers
          </label>
          <MoveList moves={view.moves} shown={view.shown} onPick={go} />
          <a class="sgf" href={`${boardPath(id)}/sgf`} download={`${id}.sgf`}>download SGF</a>
        </aside>
      </main>
    </>
  );
}

export { COLOR_LETTER };
