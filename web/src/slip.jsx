// A table's result slip for the browser's print: players, result, time left, warnings, the arbiter and signature lines.
import { formatMs } from './clocktime.js';

/** Who settled the result: the last arbiter to set, confirm or rule on it, from the audit trail. */
function arbiterOf(state) {
  const settling = ['set_result', 'confirm_result', 'ruling'];
  return [...(state.audit || [])].reverse().find((e) => settling.includes(e.action))?.by ?? '';
}

function timeLeft(side) {
  if (!side) return '—';
  const main = formatMs(side.main_ms ?? 0);
  return side.periods ? `${main} + ${side.periods} × ${formatMs(side.period_ms ?? 0)}` : main;
}

export function ResultSlip({ id, state }) {
  const warnings = state.warnings || { black: 0, white: 0 };
  return (
    <section class="slip" aria-label={`result slip ${id}`} data-board={id}>
      <h3>Result slip · table {id}</h3>
      <dl>
        <dt>game</dt><dd>{state.game ?? '—'}</dd>
        <dt>Black</dt><dd class="slip-black">{state.black}</dd>
        <dt>White</dt><dd class="slip-white">{state.white}</dd>
        <dt>ruleset · komi</dt><dd>{state.ruleset} · {state.komi}</dd>
        <dt>moves</dt><dd>{state.move_number ?? 0}</dd>
        <dt>result</dt><dd class="slip-result">{state.result ?? 'not finished'}</dd>
        <dt>time left</dt><dd>Black {timeLeft(state.clock?.black)} · White {timeLeft(state.clock?.white)}</dd>
        <dt>warnings</dt><dd class="slip-warnings">Black {warnings.black} · White {warnings.white}</dd>
        <dt>arbiter</dt><dd class="slip-arbiter">{arbiterOf(state)}</dd>
      </dl>
      <div class="signatures">
        <p>Black ____________________</p>
        <p>White ____________________</p>
        <p>Arbiter __________________</p>
      </div>
      <button type="button" class="no-print" onClick={() => window.print()}>print result slip</button>
    </section>
  );
}
