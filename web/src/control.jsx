// The arbiter's panel for one board: warnings, counting (click groups dead or in seki), clock, late start, seal, result,
// void/restore, a new game, the audit trail and the printable result slip; each control shows only where it applies.
import { useState } from 'preact/hooks';
import { boardPath } from './api.js';
import { isVoided, useAction } from './alerts.jsx';
import { AuditTrail } from './audit.jsx';
import { Board } from './board.jsx';
import { Clocks } from './clock.jsx';
import { pointOf, signMapOf } from './go.js';
import { LateStart, ResultControl, SealControl, isSealed } from './rulings.jsx';
import { ResultSlip } from './slip.jsx';

/** One side's count in words: "9 stones + 27 territory". */
function sideWords(side) {
  if (!side) return '';
  const parts = [`${side.stones} stones`, `${side.territory} territory`];
  if (side.prisoners) parts.push(`${side.prisoners} prisoners`);
  return parts.join(' + ');
}

function Counting({ id, state, apply, mode, setMode }) {
  const { busy, error, run } = useAction(apply);
  const proposed = state.proposed_result;
  const count = state.count;
  const seki = state.seki ?? [];
  return (
    <section class="counting" aria-label="counting">
      <p>Counting: click a group to {mode === 'seki' ? 'rule it in seki, again to withdraw the ruling' : 'mark it dead, again to bring it back'}.</p>
      <div class="actions" role="group" aria-label="what a click does">
        <label><input type="radio" name={`mode-${id}`} checked={mode === 'dead'} onChange={() => setMode('dead')} /> dead stones</label>
        <label><input type="radio" name={`mode-${id}`} checked={mode === 'seki'} onChange={() => setMode('seki')} /> seki (CN2002 21.2)</label>
      </div>
      <p class="score" data-score={proposed ?? ''}>score: <strong>{proposed ?? '—'}</strong> {proposed && state.result_unit}</p>
      {count && (
        <p class="count" data-unit={count.unit}>
          Black {sideWords(count.black)} · White {sideWords(count.white)} · dame {count.dame} · komi {count.komi}
          {count.handicap_giveback ? ` · give-back ${count.handicap_giveback}` : ''}
          {count.warnings && (count.warnings.black || count.warnings.white) ? ` · warnings ${count.warnings.black}:${count.warnings.white}` : ''}
          {count.seki_points ? ` · seki ${count.seki_points}` : ''} ({count.unit})
        </p>
      )}
      {seki.length > 0 && <p class="seki">seki rulings: {seki.map((s) => `${s.point} ${s.ruling.replace(/_/g, ' ')}`).join(', ')}</p>}
      <button type="button" disabled={busy || !proposed} onClick={() => run(`${boardPath(id)}/confirm-result`, {})}>
        confirm result {proposed}
      </button>
      <button type="button" disabled={busy} onClick={() => run(`${boardPath(id)}/resume-play`, { first: 'black' })}>resume play, Black first</button>
      <button type="button" disabled={busy} onClick={() => run(`${boardPath(id)}/resume-play`, { first: 'white' })}>resume play, White first</button>
      {error && <p class="error" role="alert">{error}</p>}
    </section>
  );
}

function ClockControl({ id, state, clockAt, apply }) {
  const { busy, error, run } = useAction(apply);
  const [color, setColor] = useState('black');
  const [seconds, setSeconds] = useState('60');
  const path = `${boardPath(id)}/clock`;
  const paused = state.clock?.paused || state.phase === 'paused';
  const running = state.phase === 'playing' || (state.phase === 'paused' && !isSealed(state));
  const adjust = (sign) => {
    const delta = Math.round(Number(seconds) * 1000) * sign;
    if (delta) run(path, { action: 'adjust', color, delta_ms: delta });
  };
  return (
    <section class="clock-control" aria-label="clock">
      <Clocks reading={state.clock} receivedAt={clockAt} names={state} live={state.phase === 'playing'} />
      {state.clock && <div class="actions">
        {running && (
          <button type="button" disabled={busy} onClick={() => run(path, { action: paused ? 'resume' : 'pause' })}>
            {paused ? 'resume clock' : 'pause clock'}
          </button>
        )}
        <label>side <select value={color} onChange={(e) => setColor(e.currentTarget.value)}>
          <option value="black">black</option><option value="white">white</option>
        </select></label>
        <label>seconds <input type="number" min="1" value={seconds} onInput={(e) => setSeconds(e.currentTarget.value)} /></label>
        <button type="button" disabled={busy} onClick={() => adjust(1)}>add</button>
        <button type="button" disabled={busy} onClick={() => adjust(-1)}>take</button>
      </div>}
      {error && <p class="error" role="alert">{error}</p>}
    </section>
  );
}

function MoveControl({ id, state, apply }) {
  const { busy, error, run } = useAction(apply);
  const [n, setN] = useState('');
  const number = Number.parseInt(n || String(state.move_number ?? 0), 10);
  if (!(state.move_number > 0) || state.phase === 'finished') return null;
  const voided = isVoided(state, number);
  return (
    <section class="move-control" aria-label="moves">
      <label>move <input type="number" min="1" placeholder={String(state.move_number ?? '')} value={n}
        onInput={(e) => setN(e.currentTarget.value)} /></label>
      {!voided && <button type="button" disabled={busy || !(number > 0)} onClick={() => run(`${boardPath(id)}/moves/${number}/void`, {})}>void</button>}
      {voided && <button type="button" disabled={busy} onClick={() => run(`${boardPath(id)}/moves/${number}/restore`, {})}>restore</button>}
      {error && <p class="error" role="alert">{error}</p>}
    </section>
  );
}

const FIELDS = [
  ['black', 'black player', 'text'],
  ['white', 'white player', 'text'],
  ['komi', 'komi', 'number'],
  ['handicap', 'handicap', 'number'],
  ['time_control', 'time control', 'text'],
];

/** Each ruleset's own komi in points (api.md `komi`): the form resets to it when the ruleset changes. */
export const RULESET_KOMI = { cn2002: 7.5, jk: 6.5, ing: 8, historical: 0 };

function NewGame({ id, state, apply }) {
  const { busy, error, run } = useAction(apply);
  const [form, setForm] = useState(() => ({
    black: state.black ?? '', white: state.white ?? '', ruleset: state.ruleset ?? 'cn2002',
    komi: String(state.komi ?? 7.5), handicap: '0', time_control: state.clock?.time_control ?? '', colours_fixed: true,
    free_handicap: false, force: false,
  }));
  const inProgress = ['playing', 'paused', 'counting'].includes(state.phase);
  const set = (key) => (e) => {
    const value = e.currentTarget.type === 'checkbox' ? e.currentTarget.checked : e.currentTarget.value;
    const next = { ...form, [key]: value };
    // A new ruleset brings its own komi (cn2002 7.5, jk 6.5, ing 8, historical 0); the arbiter may change it after.
    if (key === 'ruleset') next.komi = String(RULESET_KOMI[value] ?? form.komi);
    setForm(next);
  };
  const handicap = Number(form.handicap || 0);
  const submit = (e) => {
    e.preventDefault();
    const body = { ruleset: form.ruleset, colours_fixed: form.colours_fixed };
    if (form.black) body.black = form.black;
    if (form.white) body.white = form.white;
    if (form.komi !== '') body.komi = Number(form.komi);
    if (form.handicap !== '') body.handicap = handicap;
    if (form.time_control) body.time_control = form.time_control;
    if (handicap >= 2 && form.free_handicap) body.free_handicap = true;
    if (inProgress && form.force) body.force = true;
    run(`${boardPath(id)}/game`, body);
  };
  return (
    <form class="new-game" onSubmit={submit} aria-label="start a game">
      {FIELDS.map(([key, label, type]) => (
        <label>{label} <input type={type} step={key === 'komi' ? '0.25' : undefined} value={form[key]} onInput={set(key)} /></label>
      ))}
      <label>ruleset <select value={form.ruleset} onChange={set('ruleset')}>
        {['cn2002', 'jk', 'ing', 'historical'].map((r) => <option value={r}>{r}</option>)}
      </select></label>
      <label class="toggle"><input type="checkbox" checked={form.colours_fixed} onChange={set('colours_fixed')} /> colours fixed by the draw</label>
      {handicap >= 2 && (
        <label class="toggle"><input type="checkbox" name="free_handicap" checked={form.free_handicap} onChange={set('free_handicap')} /> free handicap placement</label>
      )}
      {inProgress && (
        <label class="toggle force"><input type="checkbox" name="force" checked={form.force} onChange={set('force')} /> abandon the game in play ({state.phase}) without a result (force)</label>
      )}
      <button type="submit" disabled={busy || (inProgress && !form.force)}>start game</button>
      {error && <p class="error" role="alert">{error}</p>}
    </form>
  );
}

/** Each player's warnings (CN2002 art. 24): the board panel shows them beside the names. */
export function Warnings({ state }) {
  const w = state.warnings || { black: 0, white: 0 };
  return (
    <p class="warnings" data-black={w.black} data-white={w.white}>
      warnings: <span class="stone-icon black" aria-hidden="true" />{state.black} <strong>{w.black}</strong>
      {' · '}<span class="stone-icon white" aria-hidden="true" />{state.white} <strong>{w.white}</strong>
    </p>
  );
}

export function BoardPanel({ id, state, clockAt, apply, pixels }) {
  const { error, run } = useAction(apply);
  const size = state.size ?? 19;
  const dead = state.dead_stones ?? [];
  const [mode, setMode] = useState('dead');
  const counting = state.phase === 'counting';
  const onVertexClick = counting
    ? (_, vertex) => {
        const point = pointOf(vertex, size);
        if (state.position?.[vertex[1] * size + vertex[0]] === '.') return;
        if (mode === 'seki') {
          const ruled = (state.seki ?? []).some((s) => s.point === point);
          run(`${boardPath(id)}/seki`, { points: [point], ruling: ruled ? 'clear' : 'in_seki' });
        } else {
          run(`${boardPath(id)}/dead-stones`, { points: [point], dead: !dead.includes(point) });
        }
      }
    : undefined;
  return (
    <section class="panel" aria-label={`board ${id}`} data-board={id} data-phase={state.phase}>
      <h2>{id} <small>{state.black} – {state.white} · move {state.move_number ?? 0} · {state.phase}{state.result ? ` · ${state.result}` : ''}</small></h2>
      <Board signMap={signMapOf(state.position, size)} size={size} pixels={pixels} lastPoint={state.last_move?.point}
        dead={dead} onVertexClick={onVertexClick} label={`board ${id}`} />
      <Warnings state={state} />
      {error && <p class="error" role="alert">{error}</p>}
      {counting && <Counting id={id} state={state} apply={apply} mode={mode} setMode={setMode} />}
      <ClockControl id={id} state={state} clockAt={clockAt} apply={apply} />
      <SealControl id={id} state={state} apply={apply} />
      <LateStart key={`${id}-${state.game}`} id={id} state={state} apply={apply} />
      <MoveControl id={id} state={state} apply={apply} />
      <ResultControl key={`${id}-${state.game}-result`} id={id} state={state} apply={apply} />
      <details>
        <summary>start a new game</summary>
        <NewGame id={id} state={state} apply={apply} />
      </details>
      <AuditTrail state={state} />
      <ResultSlip id={id} state={state} />
    </section>
  );
}
