// Game clocks: the daemon's last reading, counted down locally between readings so the display moves smoothly.
import { useEffect, useState } from 'preact/hooks';
import { describe, sideNow } from './clocktime.js';

export { formatMs, periodLength, sideNow } from './clocktime.js';

/** Re-renders the calling component every `ms` milliseconds. */
export function useTick(ms) {
  const [, setNow] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setNow(performance.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
}

/** Both clocks of a board; `receivedAt` is the performance.now() of the reading. */
export function Clocks({ reading, receivedAt, names = {}, tick = 200, compact = false, live = true }) {
  useTick(tick);
  const elapsed = live ? performance.now() - (receivedAt ?? performance.now()) : 0;
  return (
    <div class={`clocks${compact ? ' compact' : ''}`}>
      {['black', 'white'].map((color) => {
        const now = sideNow(reading, color, elapsed);
        const text = describe(now);
        const cls = `clock ${color}${now?.runs ? ' running' : ''}${now?.flagged ? ' flagged' : ''}${now?.inByoyomi ? ' byoyomi' : ''}`;
        return (
          <div class={cls} data-color={color} data-ms={now ? Math.round(now.main + (now.inByoyomi ? now.period : 0)) : ''}>
            <span class={`stone-icon ${color}`} aria-hidden="true" />
            {!compact && <span class="name">{names[color] || color}</span>}
            <span class="time" aria-label={`${color} clock ${text.big} ${text.small}`}>{text.big}</span>
            {text.small && (!compact || now?.inByoyomi) && (
              <span class="periods">{compact ? `×${now.periods}` : text.small}</span>
            )}
          </div>
        );
      })}
    </div>
  );
}
