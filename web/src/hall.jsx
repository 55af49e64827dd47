// GET /: the hall overview, one tile per board, fed by one hall-level stream; tiles draw only while visible.
import { memo } from 'preact/compat';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { Clocks } from './clock.jsx';
import { HallFeed } from './hallfeed.js';
import { MiniBoard } from './miniboard.jsx';
import { resultOf } from './result.js';

/** One IntersectionObserver for all tiles: a tile draws its board only near the viewport. */
function visibilityWatcher() {
  const listeners = new Map();
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) listeners.get(entry.target)?.(entry.isIntersecting);
    },
    { rootMargin: '300px' },
  );
  return {
    watch(element, listener) {
      listeners.set(element, listener);
      observer.observe(element);
      return () => {
        listeners.delete(element);
        observer.unobserve(element);
      };
    },
  };
}

/** Open alerts of a state. */
export function openAlerts(state) {
  return (state?.infractions || []).filter((i) => i.status === 'open');
}

/** "ok", "warn" or "down", and the words for it, from the state's device field. */
export function health(state) {
  const device = state?.device;
  if (!device) return { level: 'down', text: 'no device report' };
  const links = ['board', 'clock'].map((l) => `${l} ${device[l] ?? 'unknown'}`);
  const down = ['board', 'clock'].some((l) => device[l] !== 'connected');
  const unknown = device.unknown_points?.length || 0;
  if (down) return { level: 'down', text: links.join(', ') };
  if (unknown) return { level: 'warn', text: `${unknown} unreadable point(s)` };
  return { level: 'ok', text: 'board and clock connected' };
}

/** Re-rendered only when its own board's version moves (memo), not for every other board. */
const Tile = memo(function Tile({ id, feed, watcher, version }) {
  const ref = useRef();
  const [visible, setVisible] = useState(false);
  useEffect(() => watcher.watch(ref.current, setVisible), []);
  const state = feed.boards.get(id);
  const alerts = openAlerts(state);
  const h = health(state);
  return (
    <li class="tile" ref={ref} data-board={id} data-version={version}>
      <a class="tile-head" href={`/board/${encodeURIComponent(id)}`}>
        <span class="board-id">{id}</span>
        <span class={`health ${h.level}`} title={h.text} role="img" aria-label={`connection: ${h.text}`} />
        {alerts.length > 0 && (
          <span class="badge" aria-label={`${alerts.length} open alert(s)`}>{alerts.length}</span>
        )}
      </a>
      {visible && state ? (
        <>
          <MiniBoard
            position={state.position}
            size={state.size}
            lastMove={state.last_move}
            label={`${id}: move ${state.move_number ?? 0}`}
          />
          <div class="tile-players">
            <span class="player"><span class="stone-icon black" aria-hidden="true" />{state.black || 'Black'}</span>
            <span class="player"><span class="stone-icon white" aria-hidden="true" />{state.white || 'White'}</span>
          </div>
          <div class="tile-info">
            <span class="move-number">move {state.move_number ?? 0}</span>
            <span class="phase">{resultOf(state) || state.phase}</span>
          </div>
          <Clocks reading={state.clock} receivedAt={feed.clockAt.get(id)} tick={1000} compact
            live={state.phase === 'playing'} />
        </>
      ) : (
        <div class="tile-placeholder" />
      )}
    </li>
  );
});

export function Hall() {
  const [versions, setVersions] = useState(() => new Map());
  const [status, setStatus] = useState('connecting');
  const [, setListVersion] = useState(0);
  const watcher = useMemo(() => visibilityWatcher(), []);
  const feed = useMemo(() => {
    const dirty = new Set();
    let scheduled = false;
    const flush = () => {
      scheduled = false;
      setVersions((old) => {
        const next = new Map(old);
        for (const id of dirty) next.set(id, (next.get(id) || 0) + 1);
        dirty.clear();
        return next;
      });
    };
    return new HallFeed({
      onBoard: (id) => {
        dirty.add(id);
        if (!scheduled) {
          scheduled = true;
          requestAnimationFrame(flush);
        }
      },
      onList: () => setListVersion((v) => v + 1),
      onStatus: (s) => setStatus(s),
    });
  }, []);
  useEffect(() => () => feed.close(), []);
  const ids = [...feed.boards.keys()].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  const alerts = ids.reduce((n, id) => n + openAlerts(feed.boards.get(id)).length, 0);
  return (
    <>
      <header class="top">
        <h1>goban-bridge hall</h1>
        <span class="summary">{ids.length} boards · {alerts} open alerts</span>
        <span class={`conn ${status}`} role="status">{status}</span>
        <nav>
          <a href="/arbiter">arbiter</a> <a href="/api/docs">API</a>
        </nav>
      </header>
      <main>
        <ul class="hall" aria-label="boards">
          {ids.map((id) => <Tile key={id} id={id} feed={feed} watcher={watcher} version={versions.get(id) || 0} />)}
        </ul>
      </main>
    </>
  );
}
