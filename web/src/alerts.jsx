// The arbiter's alert cards: board, article, player, who is on the way, the evidence stepped through on a board with coordinates, and the rulings that apply.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { boardPath, getJson, post } from './api.js';
import { evidenceBoards, replay } from './go.js';
import { EvidenceBoard } from './evidenceboard.jsx';

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
      <EvidenceBoard position={position} size={size} highlight={highlight}
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

/** Kinds whose alert is not about a stone of the record: voiding or restoring its move does not apply. */
const NOT_A_MOVE = new Set(['time_forfeit', 'late_start', 'board_disturbed', 'displaced_stones']);

/** Whether move `number` stands voided: the audit trail's last void or restore of it was a void. */
export function isVoided(state, number) {
  const about = (state?.audit || []).filter((e) =>
    (e.action === 'void_move' || e.action === 'restore_move') && e.what.startsWith(`move ${number} `));
  return about.at(-1)?.action === 'void_move';
}

/** Which move corrections apply to the alert's move: void a stone still played, restore one voided. */
export function moveFixes(alert, state) {
  if (NOT_A_MOVE.has(alert.kind) || !(alert.move_number > 0) || state?.phase === 'finished') return {};
  const record = (state?.moves || []).find((m) => m.number === alert.move_number);
  if (!record) return {};
  if (isVoided(state, alert.move_number)) return { restore: true };
  return record.point === 'pass' ? {} : { void: true };
}

/** The arbiter's hand on an alert: rule on it, take it ("on my way"), hand it back. */
export function useAlertActions(board, alert, apply) {
  const action = useAction(apply);
  const base = `${boardPath(board)}/infractions/${encodeURIComponent(alert.id)}`;
  const withNote = (body, note) => (note ? { ...body, note } : body);
  return {
    ...action,
    rule: (kind, note) => action.run(`${base}/ruling`, withNote({ action: kind }, note)),
    take: (note, takeOver) => action.run(`${base}/acknowledge`, withNote(takeOver ? { take_over: true } : {}, note)),
    handBack: (note) => action.run(`${base}/acknowledge`, withNote({ withdraw: true }, note)),
    move: (what, note) => action.run(`${boardPath(board)}/moves/${alert.move_number}/${what}`, withNote({}, note)),
  };
}

export function AlertCard({ board, alert, state, apply, selected, me, onSelect }) {
  const [note, setNote] = useState('');
  const { busy, error, rule, take, handBack, move } = useAlertActions(board, alert, apply);
  const open = alert.status === 'open';
  const fixes = moveFixes(alert, state);
  const mine = alert.taken_by && alert.taken_by === me;
  return (
    <li class={`alert ${alert.status}${selected ? ' selected' : ''}${alert.taken_by ? ' taken' : ''}`} data-board={board}
      data-alert={alert.id} data-status={alert.status} data-taken-by={alert.taken_by ?? ''} onClick={onSelect}>
      <div class="alert-head">
        <a href={`/board/${encodeURIComponent(board)}`} class="board-id">{board}</a>
        <strong class="kind">{kindWords(alert.kind)}</strong>
        <span class="status">{alert.status}{alert.ruled_by ? ` by ${alert.ruled_by}` : ''}</span>
      </div>
      <p class="alert-facts">
        {alert.article} · <span class={`stone-icon ${alert.player}`} aria-hidden="true" /> {alert.player ?? 'no player'} · move {alert.move_number}
        {alert.sanction && <> · sanction: {alert.sanction}{alert.sanction_applied ? ' (applied)' : ''}</>}
      </p>
      {alert.taken_by && (
        <p class="taken" role="status">on the way: <strong>{alert.taken_by}</strong> since {(alert.taken_at || '').slice(11, 19)}</p>
      )}
      {alert.note && <p class="alert-note">note: {alert.note}</p>}
      <Evidence board={board} alert={alert} state={state} />
      {open && (
        <div class="actions">
          <label class="note">note <input value={note} onInput={(e) => setNote(e.currentTarget.value)} maxLength={800} /></label>
          {!alert.taken_by && <button type="button" class="take" disabled={busy} onClick={() => take(note)}>on my way</button>}
          {alert.taken_by && !mine && <button type="button" class="take" disabled={busy} onClick={() => take(note, true)}>take over</button>}
          {alert.taken_by && <button type="button" disabled={busy} onClick={() => handBack(note)}>hand back</button>}
          <button type="button" disabled={busy} onClick={() => rule('confirm', note)}>confirm</button>
          <button type="button" disabled={busy} onClick={() => rule('sanction', note)}>sanction</button>
          <button type="button" disabled={busy} class="dismiss" onClick={() => rule('dismiss', note)}>dismiss</button>
          {alert.kind === 'time_forfeit' && <button type="button" disabled={busy} onClick={() => rule('convert', note)}>convert to pass</button>}
          {fixes.void && <button type="button" disabled={busy} onClick={() => move('void', note)}>void move {alert.move_number}</button>}
          {fixes.restore && <button type="button" disabled={busy} onClick={() => move('restore', note)}>restore move {alert.move_number}</button>}
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
