// Clock arithmetic: the daemon's reading counted down locally, and its display text.

/**
 * The state's clock with a `clock` event's tick applied: a tick carries only the time left
 * (`running`, each side's `main_ms`/`periods`/`period_ms`, `paused` and `flag_fallen` only
 * when set); `to_move`, `time_control` and `used_ms` stay as the state gave them.
 */
export function applyTick(clock, tick) {
  const side = (color) => ({ ...(clock?.[color] || {}), flagged: false, ...tick[color] });
  return {
    ...(clock || {}),
    running: tick.running ?? null,
    paused: tick.paused ?? false,
    flag_fallen: tick.flag_fallen ?? null,
    black: side('black'),
    white: side('white'),
  };
}

/** The period length (ms) named in a time control string, e.g. "byoyomi-cn:main=20m,reserve=3,period=30s". */
export function periodLength(timeControl) {
  const match = /(?:period|block)=(\d+)(ms|s|m|h)/.exec(timeControl || '');
  if (!match) return /byoyomi-cn/.test(timeControl || '') ? 60000 : null;
  const unit = { ms: 1, s: 1000, m: 60000, h: 3600000 }[match[2]];
  return Number(match[1]) * unit;
}

/**
 * One side's time now: the reading minus what ran since it was received, if this side's clock runs.
 * Main time runs out first, then each byo-yomi period; a used period costs one (the daemon corrects
 * the count with its next reading).
 */
export function sideNow(reading, color, elapsedMs) {
  const side = reading?.[color];
  if (!side) return null;
  const runs = reading.running === color && !reading.paused && !reading.flag_fallen;
  let main = side.main_ms ?? 0;
  let period = side.period_ms ?? 0;
  let periods = side.periods ?? 0;
  let used = runs ? Math.max(0, elapsedMs) : 0;
  const take = Math.min(main, used);
  main -= take;
  used -= take;
  const length = periodLength(reading.time_control) || period;
  while (used > 0 && periods > 0 && period > 0) {
    if (used < period) {
      period -= used;
      used = 0;
    } else {
      used -= period;
      periods -= 1;
      period = length;
    }
  }
  const flagged = side.flagged || (used > 0 && main === 0);
  return { main, period, periods, runs, flagged, inByoyomi: main === 0 && periods > 0 };
}

const pad = (n) => String(n).padStart(2, '0');

/** "1:05:09", "19:58" or "0:27". */
export function formatMs(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** The words a screen reader and the page show for one side's time. */
export function describe(now) {
  if (!now) return { big: '–', small: '' };
  if (now.flagged) return { big: '0:00', small: 'flag' };
  if (now.main > 0 || now.periods === 0) {
    return { big: formatMs(now.main), small: now.periods ? `+${now.periods}×${formatMs(now.period)}` : '' };
  }
  return { big: formatMs(now.period), small: `byo-yomi ×${now.periods}` };
}
