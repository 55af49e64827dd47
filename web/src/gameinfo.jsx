// Around the board for a broadcast: players with rank, round/table/event from the tournament desk, warnings and penalties, and the counting view's running count.
import { useEffect, useState } from 'preact/hooks';
import { getJson } from './api.js';
import { formatResult, resultOf, unitOf } from './result.js';

/** The seating of board `id` in the tournament desk's current round, or null (no desk, no round, not seated). */
export function useSeating(id) {
  const [seating, setSeating] = useState(null);
  useEffect(() => {
    let gone = false;
    const load = async () => {
      try {
        const seat = await getJson(`/api/v1/tournament/boards/${encodeURIComponent(id)}`);
        if (!gone) setSeating(seat.table ? { ...seat.table, round: seat.round, event: seat.event ?? null } : null);
      } catch {
        // A daemon without the desk: nothing to show.
      }
    };
    load();
    const timer = setInterval(load, 60000);
    return () => {
      gone = true;
      clearInterval(timer);
    };
  }, [id]);
  return seating;
}

function PlayerLine({ color, name, rank, extra }) {
  return (
    <span class="player-line" data-color={color}>
      <span class={`stone-icon ${color}`} aria-hidden="true" />
      <span class="name">{name}</span>
      {rank && <span class="rank">{rank}</span>}
      {extra && <span class="extra">{extra}</span>}
    </span>
  );
}

/** Who plays, and where in the event. */
export function Players({ state, seating }) {
  const black = seating?.black_name || state.black || 'Black';
  const white = seating?.white_name || state.white || 'White';
  const where = seating
    ? [seating.event, `round ${seating.round}`, `table ${seating.table}`].filter(Boolean).join(' · ')
    : '';
  return (
    <div class="game-players" aria-label="players">
      <PlayerLine color="black" name={black} rank={seating?.black_rank} extra={seating?.black_club ?? seating?.black_country} />
      <PlayerLine color="white" name={white} rank={seating?.white_rank} extra={seating?.white_club ?? seating?.white_country} />
      {where && <span class="where" data-round={seating.round} data-table={seating.table}>{where}</span>}
    </div>
  );
}

const SANCTIONED = (i) => i.sanction_applied || i.status === 'sanctioned' || i.status === 'confirmed';

/** Warnings per side (CN2002 24) and the sanctions applied, or nothing when there are none. */
export function Penalties({ state }) {
  const warnings = state.warnings || {};
  const sanctions = (state.infractions || []).filter(SANCTIONED);
  if (!warnings.black && !warnings.white && sanctions.length === 0) return null;
  return (
    <section class="penalties" aria-label="warnings and penalties">
      <h2>Warnings and penalties</h2>
      <p class="warnings" data-black={warnings.black ?? 0} data-white={warnings.white ?? 0}>
        warnings: <span class="stone-icon black" aria-label="black" /> {warnings.black ?? 0}
        {' '}<span class="stone-icon white" aria-label="white" /> {warnings.white ?? 0}
      </p>
      {sanctions.length > 0 && (
        <ul class="sanctions">
          {sanctions.map((i) => (
            <li key={i.id} data-kind={i.kind}>
              move {i.move_number} · {i.player ?? 'no player'} · {i.kind.replaceAll('_', ' ')}
              {i.sanction ? ` · ${i.sanction}` : ''} <span class="article">({i.article})</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function side(count, key) {
  const c = count?.[key];
  return c ? `${c.stones} stones + ${c.territory} territory${c.prisoners ? ` + ${c.prisoners} prisoners` : ''} = ${c.total}` : '';
}

/** The counting view's numbers: each side's count as the arbiter's marks make it, and the margin with its unit. */
export function CountPanel({ state, territory }) {
  const count = state.count;
  const unit = unitOf(state);
  const dead = state.dead_stones || [];
  // `margin` is `{"stones": 1.5}` or `{"points": 3}` (Black positive).
  const [marginUnit, margin] = count?.margin && typeof count.margin === 'object'
    ? Object.entries(count.margin)[0] ?? [unit, null]
    : [unit, count?.margin];
  return (
    <section class="count" aria-label="count">
      <h2>{state.phase === 'counting' ? 'Counting' : 'Count'}</h2>
      <p class="dead" data-dead={dead.length}>{dead.length} dead stone{dead.length === 1 ? '' : 's'} marked</p>
      {territory && (
        <p class="territory" data-black={territory.count.black} data-white={territory.count.white}>
          territory: Black {territory.count.black}, White {territory.count.white} points
        </p>
      )}
      {count && (
        <dl class="count-sides">
          <dt>Black</dt><dd>{side(count, 'black')}</dd>
          <dt>White</dt><dd>{side(count, 'white')}</dd>
          <dt>komi</dt><dd>{count.komi} {count.unit ?? unit}</dd>
        </dl>
      )}
      {typeof margin === 'number' && (
        <p class="margin" data-margin={margin}>
          running count: {margin === 0 ? 'even' : formatResult(`${margin > 0 ? 'B' : 'W'}+${Math.abs(margin)}`, marginUnit)}
        </p>
      )}
      {resultOf(state) && <p class="proposed">{resultOf(state)}</p>}
    </section>
  );
}
