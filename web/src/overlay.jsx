// GET /overlay/{id}: the board for OBS on a transparent page; ?size=px&corner=tl|tr|bl|br&show=board,clock,players,captures,coords,lead,graph,candidates.
import { analysisOf } from './analysis.js';
import { LeadBar, LeadGraph } from './analysis.jsx';
import { Board, useWindowSize } from './board.jsx';
import { Clocks } from './clock.jsx';
import { useBoardFeed } from './live.js';
import { resultOf, unitOf } from './result.js';
import { useShownPosition } from './viewer.jsx';

const CORNERS = { tl: 'top left', tr: 'top right', bl: 'bottom left', br: 'bottom right' };
/** The margin kept between the overlay and the page's edges, in px (`.overlay.corner-*`). */
const EDGE = 8;

export function overlayOptions(search) {
  const q = new URLSearchParams(search);
  const size = Math.min(2000, Math.max(100, Number.parseInt(q.get('size') || '420', 10) || 420));
  const corner = CORNERS[q.get('corner')] ? q.get('corner') : 'br';
  const show = new Set((q.get('show') || 'board,clock,players,lead').split(',').map((s) => s.trim()));
  return { size, corner, show };
}

/** The overlay's width: the size asked, shrunk to the page so that nothing is clipped. */
export function fittedWidth(size, pageWidth) {
  return Math.max(100, Math.min(size, pageWidth - 2 * EDGE));
}

export function Overlay({ id }) {
  const { size, corner, show } = overlayOptions(window.location.search);
  const win = useWindowSize();
  const feed = useBoardFeed(id);
  const view = useShownPosition(feed, null);
  const state = view.state;
  if (!state) return <main class="overlay" aria-label={`overlay ${id}`} />;
  const width = fittedWidth(size, win.width);
  const unit = unitOf(state);
  const result = resultOf(state);
  const held = feed.analysis;
  const latest = held.latest && held.latest.game === state.game ? held.latest : null;
  const current = analysisOf(held, state);
  const candidates = show.has('candidates') && current ? current.candidates.map((c) => c.point) : [];
  return (
    <main class={`overlay corner-${corner}`} style={{ width: `${width}px` }} aria-label={`overlay ${id}`}>
      {show.has('players') && (
        <div class="ov-players">
          <span><span class="stone-icon black" aria-hidden="true" />{state.black || 'Black'}</span>
          <span><span class="stone-icon white" aria-hidden="true" />{state.white || 'White'}</span>
        </div>
      )}
      {show.has('board') && (
        <Board signMap={view.signMap} size={view.size} pixels={width} lastPoint={view.lastPoint}
          candidates={candidates} coordinates={show.has('coords')} label={`board ${id} move ${view.shown}`} />
      )}
      {show.has('lead') && <LeadBar analysis={latest} unit={unit} />}
      {show.has('graph') && <LeadGraph history={held.history} total={view.total} shown={view.shown} />}
      {show.has('clock') && (
        <Clocks reading={state.clock} receivedAt={feed.clockAt} compact live={state.phase === 'playing'} />
      )}
      {show.has('captures') && (
        <div class="captures">captures {view.captures.black ?? 0} : {view.captures.white ?? 0}</div>
      )}
      {result && <div class="result" data-unit={unit}>{result}</div>}
    </main>
  );
}
