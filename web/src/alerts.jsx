// The arbiter's alert cards: board, article, player, the evidence stepped through on a small board, and the rulings.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { boardPath, getJson, post } from './api.js';
import { evidenceBoards, replay } from './go.js';
import { MiniBoard } from './miniboard.jsx';

const KIND_WORDS = {
  board_disturbed: 'board cannot see: disturbed',
  displaced_stones: 'board cannot see: displaced stones',
};

export const kindWords = (kind) => KIND_WORDS[kind] ?? String(kind).replaceAll('_', ' ');

/** Runs an arbiter request, showing its error in the card; `apply` receives the new board state. */
export function useAction(apply) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const run = async (path, body) => {
    setBusy(true);
    setError(null);
    try {
      const state = await post(path, body);
      if (state?.board) apply?.(state);
      return true;
    } catch (e) {
      setError(e.status === 401 ? `${e.message} — the token was refused; enter it again` : e.message);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}

/** The board's moves up to `upto` (GET /moves, or the full state of a daemon without it), for the evidence board. */
async function movesUpTo(board, upto) {
  try {
    const body = await getJson(`${boardPath(board)}/moves?since=0`, { auth: true });
    return body.moves.filter((m) => m.number <= upto);
  } catch {
    const state = await getJson(boardPath(board), { auth: true });
    return (state.moves || []).filter((m) => m.number <= upto);
  }
}

/** The position when the alert was raised: its move replayed, as a position string; null until known or not `needed`. */
function usePositionAt(board, alert, size, needed) {
  const [position, setPosition] = useState(null);
  useEffect(() => {
    if (!needed) return undefined;
    let live = true;
    movesUpTo(board, alert.move_number)
      .then((moves) => {
        const { signMap } = replay(moves, size);
        if (live) setPosition(signMap.flat().map((s) => (s === 1 ? 'B' : s === -1 ? 'W' : '.')).join(''));
      })
      .catch(() => {});
    return () => { live = false; };
  }, [board, alert.id, needed]);
  return position;
}

/**
 * The evidence stepped through on a small board: each line shows the board as the sensors read it then
 * (the first line's `seen`, then each line's `changed`) with its `points` ringed. Lines from a daemon that
 * does not record the board show the game at the alert's move, with the alert's points.
 */
function Evidence({ board, alert, state }) {
  const steps = alert.evidence?.length ? alert.evidence : [{ at: alert.at, what: 'raised' }];
  const [i, setI] = useState(steps.length - 1);
  const at = Math.min(i, steps.length - 1);
  const step = steps[at];
  const size = state?.size ?? 19;
  const boards = useMemo(() => evidenceBoards(steps, size), [alert.evidence, size]);
  const atMove = usePositionAt(board, alert, size, boards.some((b) => !b));
  const read = boards[at];
  const position = read ?? atMove ?? state?.position;
  const highlight = read ? step.points ?? [] : alert.points ?? [];
  return (
    <div class="evidence" data-step={at} data-seen={read ? 'reading' : 'game'}>
      <MiniBoard position={position} size={size} highlight={highlight}
        label={`evidence ${at + 1} of ${steps.length}: ${step.what}`} />
      <div class="evidence-steps">
        <div class="nav" role="group" aria-label="evidence">
          <button type="button" disabled={at === 0} onClick={() => setI(at - 1)} aria-label="earlier reading">◀</button>
          <span>{at + 1}/{steps.length}</span>
          <button type="button" disabled={at >= steps.length - 1} onClick={() => setI(at + 1)} aria-label="later reading">▶</button>
        </div>
        <p class="what"><time>{(step.at || '').slice(11, 23)}</time> {step.what}</p>
        {highlight.length > 0 && <p class="points">{read ? 'ringed' : 'points'}: {highlight.join(', ')}</p>}
        {(alert.points || []).length > 0 && read && <p class="points">alert: {alert.points.join(', ')}</p>}
      </div>
    </div>
  );
}

export function AlertCard({ board, alert, state, apply }) {
  const [note, setNote] = useState('');
  const { busy, error, run } = useAction(apply);
  const open = alert.status === 'open';
  const rule = (action) =>
    run(`${boardPath(board)}/infractions/${encodeURIComponent(alert.id)}/ruling`, note ? { action, note } : { action });
  const move = (what) => run(`${boardPath(board)}/moves/${alert.move_number}/${what}`, note ? { note } : {});
  return (
    <li class={`alert ${alert.status}`} data-board={board} data-alert={alert.id} data-status={alert.status}>
      <div class="alert-head">
        <a href={`/board/${encodeURIComponent(board)}`} class="board-id">{board}</a>
        <strong class="kind">{kindWords(alert.kind)}</strong>
        <span class="status">{alert.status}</span>
      </div>
      <p class="alert-facts">
        {alert.article} · <span class={`stone-icon ${alert.player}`} aria-hidden="true" /> {alert.player} · move {alert.move_number}
        {alert.sanction && <> · sanction: {alert.sanction}{alert.sanction_applied ? ' (applied)' : ''}</>}
      </p>
      <Evidence board={board} alert={alert} state={state} />
      {open && (
        <div class="actions">
          <label class="note">note <input value={note} onInput={(e) => setNote(e.currentTarget.value)} maxLength={800} /></label>
          <button type="button" disabled={busy} onClick={() => rule('confirm')}>confirm</button>
          <button type="button" disabled={busy} onClick={() => rule('sanction')}>sanction</button>
          <button type="button" disabled={busy} class="dismiss" onClick={() => rule('dismiss')}>dismiss</button>
          {alert.kind === 'time_forfeit' && <button type="button" disabled={busy} onClick={() => rule('convert')}>convert to pass</button>}
          {alert.move_number > 0 && (
            <>
              <button type="button" disabled={busy} onClick={() => move('void')}>void move {alert.move_number}</button>
              <button type="button" disabled={busy} onClick={() => move('restore')}>restore move {alert.move_number}</button>
            </>
          )}
        </div>
      )}
      {error && <p class="error" role="alert">{error}</p>}
    </li>
  );
}

/** What a board that cannot see needs from the arbiter: links, unreadable points, stones to put back or lift. */
export function SightProblem({ board, state }) {
  const device = state.device || {};
  const guidance = state.guidance || {};
  const needs = [];
  for (const link of ['board', 'clock']) {
    if (device[link] && device[link] !== 'connected') needs.push(`${link} is ${device[link]}: check its cable and power`);
  }
  if (device.unknown_points?.length) needs.push(`sensors cannot read ${device.unknown_points.join(', ')}: check those points`);
  if (guidance.add?.length) needs.push(`put back ${guidance.add.map((s) => (s.point ? `${s.color} on ${s.point}` : s)).join(', ')}`);
  if (guidance.remove?.length) needs.push(`lift stones from ${guidance.remove.map((s) => s.point ?? s).join(', ')}`);
  if (!needs.length) return null;
  return (
    <li class="sight" data-board={board}>
      <a href={`/board/${encodeURIComponent(board)}`} class="board-id">{board}</a>
      <ul>{needs.map((n) => <li>{n}</li>)}</ul>
    </li>
  );
}
