// GET /overlay/{id}: the board for OBS on a transparent page; ?size=px&corner=tl|tr|bl|br&show=board,clock,players,captures,coords.
import { Board } from './board.jsx';
import { Clocks } from './clock.jsx';
import { useBoardFeed } from './live.js';
import { useShownPosition } from './viewer.jsx';

const CORNERS = { tl: 'top left', tr: 'top right', bl: 'bottom left', br: 'bottom right' };

export function overlayOptions(search) {
  const q = new URLSearchParams(search);
  const size = Math.min(2000, Math.max(100, Number.parseInt(q.get('size') || '420', 10) || 420));
  const corner = CORNERS[q.get('corner')] ? q.get('corner') : 'br';
  const show = new Set((q.get('show') || 'board,clock,players').split(',').map((s) => s.trim()));
  return { size, corner, show };
}

export function Overlay({ id }) {
  const { size, corner, show } = overlayOptions(window.location.search);
  const feed = useBoardFeed(id);
  const view = useShownPosition(feed, null);
  const state = view.state;
  if (!state) return <main class="overlay" aria-label={`overlay ${id}`} />;
  return (
    <main class={`overlay corner-${corner}`} style={{ width: `${size}px` }} aria-label={`overlay ${id}`}>
      {show.has('players') && (
        <div class="ov-players">
          <span><span class="stone-icon black" aria-hidden="true" />{state.black || 'Black'}</span>
          <span><span class="stone-icon white" aria-hidden="true" />{state.white || 'White'}</span>
        </div>
      )}
      {show.has('board') && (
        <Board signMap={view.signMap} size={view.size} pixels={size} lastPoint={view.lastPoint}
          coordinates={show.has('coords')} label={`board ${id} move ${view.shown}`} />
      )}
      {show.has('clock') && (
        <Clocks reading={state.clock} receivedAt={feed.clockAt} compact live={state.phase === 'playing'} />
      )}
      {show.has('captures') && (
        <div class="captures">captures {view.captures.black ?? 0} : {view.captures.white ?? 0}</div>
      )}
      {state.result && <div class="result">{state.result}</div>}
    </main>
  );
}
