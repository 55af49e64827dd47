// The arbiter's rulings on a board that are not answers to an alert: a late start, sealing and unsealing, setting or correcting the result.
import { useState } from 'preact/hooks';
import { boardPath } from './api.js';
import { useAction } from './alerts.jsx';

const inPlay = (state) => state.phase === 'playing' || state.phase === 'paused';

/** Whether the game stands adjourned: the audit trail's last seal was not followed by an unseal or a resume. */
export function isSealed(state) {
  const last = (state.audit || []).filter((e) => ['seal', 'unseal', 'resume'].includes(e.action)).at(-1);
  return last?.action === 'seal' && state.phase === 'paused';
}

/** Whether `color` has made a move of the game (a late start is declared before it), or was already declared late. */
const hasMoved = (state, color) => (state.moves || []).some((m) => m.color === color)
  || (state.infractions || []).some((i) => i.kind === 'late_start' && i.player === color);

/** CN2002 22.1-22.4: a player absent when the clock started. */
export function LateStart({ id, state, apply }) {
  const { busy, error, run } = useAction(apply);
  const sides = ['black', 'white'].filter((c) => !hasMoved(state, c));
  const [color, setColor] = useState(sides[0] ?? 'black');
  const [minutes, setMinutes] = useState('5');
  const [note, setNote] = useState('');
  // After an adjournment the clock simply ran (22.1): nothing to declare.
  if (!inPlay(state) || !state.clock || sides.length === 0 || isSealed(state)) return null;
  const side = sides.includes(color) ? color : sides[0];
  const submit = (e) => {
    e.preventDefault();
    const absent = Math.round(Number(minutes) * 60000);
    if (!(absent > 0)) return;
    run(`${boardPath(id)}/late-start`, note ? { color: side, absent_ms: absent, note } : { color: side, absent_ms: absent });
  };
  return (
    <form class="late-start" onSubmit={submit} aria-label="late start">
      <h3>Late start (CN2002 22)</h3>
      <label>late player <select value={side} onChange={(e) => setColor(e.currentTarget.value)}>
        {sides.map((c) => <option value={c}>{c}</option>)}
      </select></label>
      <label>minutes absent <input type="number" min="0.1" step="0.1" value={minutes} onInput={(e) => setMinutes(e.currentTarget.value)} /></label>
      <label class="note">note <input value={note} maxLength={800} onInput={(e) => setNote(e.currentTarget.value)} /></label>
      <button type="submit" disabled={busy}>declare late</button>
      {error && <p class="error" role="alert">{error}</p>}
    </form>
  );
}

/** CN2002 14: seal the next move and adjourn; open it when play resumes. */
export function SealControl({ id, state, apply }) {
  const { busy, error, run } = useAction(apply);
  const sealed = isSealed(state);
  if (state.phase !== 'playing' && !sealed) return null;
  return (
    <div class="seal-control" role="group" aria-label="adjournment">
      {sealed
        ? <button type="button" disabled={busy} onClick={() => run(`${boardPath(id)}/unseal`, {})}>unseal and resume</button>
        : <button type="button" disabled={busy} onClick={() => run(`${boardPath(id)}/seal`, {})}>seal move and adjourn</button>}
      {sealed && <span class="sealed-flag">sealed: adjourned</span>}
      {error && <p class="error" role="alert">{error}</p>}
    </div>
  );
}

const RESULTS = ['B+R', 'W+R', 'B+T', 'W+T', 'B+F', 'W+F', '0', 'Void'];

/** Record or correct the result; ending a game still in play needs "force". */
export function ResultControl({ id, state, apply }) {
  const { busy, error, run } = useAction(apply);
  const [result, setResult] = useState('B+R');
  const [force, setForce] = useState(false);
  const [note, setNote] = useState('');
  if (!state.game) return null;
  const playing = inPlay(state);
  const submit = (e) => {
    e.preventDefault();
    const body = { result: result.trim() };
    if (playing) body.force = force;
    if (note) body.note = note;
    run(`${boardPath(id)}/result`, body);
  };
  return (
    <form class="result-control" onSubmit={submit} aria-label="result">
      <h3>{state.result ? `Correct the result (now ${state.result})` : 'Set the result'}</h3>
      <label>result <input list={`results-${id}`} value={result} onInput={(e) => setResult(e.currentTarget.value)} required /></label>
      <datalist id={`results-${id}`}>{RESULTS.map((r) => <option value={r} />)}</datalist>
      {playing && (
        <label class="toggle"><input type="checkbox" checked={force} onChange={(e) => setForce(e.currentTarget.checked)} /> end the game in play (force)</label>
      )}
      <label class="note">note <input value={note} maxLength={800} onInput={(e) => setNote(e.currentTarget.value)} /></label>
      <button type="submit" disabled={busy || (playing && !force)}>{state.result ? 'correct result' : 'set result'}</button>
      {error && <p class="error" role="alert">{error}</p>}
    </form>
  );
}
