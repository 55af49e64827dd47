// A small board as one SVG (lines, star points, stones, last move), cheap enough for hundreds of tiles.
import { vertexOf } from './go.js';

const STARS = {
  19: [3, 9, 15],
  13: [3, 6, 9],
  9: [2, 4, 6],
};

function starPoints(size) {
  const lines = STARS[size];
  if (!lines) return [];
  if (size === 9) return [[2, 2], [6, 2], [4, 4], [2, 6], [6, 6]];
  return lines.flatMap((x) => lines.map((y) => [x, y]));
}

/** `position` as in the API ("?" an unreadable point); `highlight` lists "D4" points drawn with a red ring. */
export function MiniBoard({ position, size = 19, lastMove, highlight = [], label }) {
  const n = size;
  const grid = [];
  for (let i = 0; i < n; i++) {
    grid.push(`M0.5 ${i + 0.5}H${n - 0.5}M${i + 0.5} 0.5V${n - 0.5}`);
  }
  const stones = [];
  for (let i = 0; position && i < n * n; i++) {
    const c = position[i];
    if (c === 'B' || c === 'W') {
      stones.push(
        <circle cx={(i % n) + 0.5} cy={Math.floor(i / n) + 0.5} r={0.47} class={c === 'B' ? 'b' : 'w'} data-point={i} />,
      );
    } else if (c === '?') {
      // An unreadable sensor: a small grey square, no stone.
      stones.push(<rect x={(i % n) + 0.3} y={Math.floor(i / n) + 0.3} width={0.4} height={0.4} class="unknown" data-point={i} />);
    }
  }
  // A setup block's last move is unknown (`order_known: false`): no stone is marked then.
  const last = lastMove?.order_known === false ? null : vertexOf(lastMove?.point, n);
  return (
    <svg class="miniboard" viewBox={`0 0 ${n} ${n}`} role="img" aria-label={label}>
      <rect width={n} height={n} class="wood" />
      <path d={grid.join('')} class="grid" />
      {starPoints(n).map(([x, y]) => <circle cx={x + 0.5} cy={y + 0.5} r={0.12} class="star" />)}
      {stones}
      {last && <circle cx={last[0] + 0.5} cy={last[1] + 0.5} r={0.22} class="last" />}
      {highlight.map((p) => {
        const v = vertexOf(p, n);
        return v && <circle cx={v[0] + 0.5} cy={v[1] + 0.5} r={0.45} class="highlight" data-point={v[1] * n + v[0]} />;
      })}
    </svg>
  );
}
