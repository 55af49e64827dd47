// The evidence board of an alert: large enough to read, with coordinates, the alert's points ringed and unreadable points marked.
import { LETTERS, vertexOf } from './go.js';

const STARS = { 19: [3, 9, 15], 13: [3, 6, 9], 9: [2, 6] };

function stars(size) {
  const lines = STARS[size] ?? [];
  const points = lines.flatMap((x) => lines.map((y) => [x, y]));
  return size === 9 ? [...points, [4, 4]] : points;
}

/**
 * `position` as in the API ("?" an unreadable point); `highlight` lists "D4" points ringed in red.
 * Letters run along the top and bottom, numbers along both sides, as on the board itself.
 */
export function EvidenceBoard({ position, size = 19, highlight = [], label }) {
  const n = size;
  const view = n + 2; // one cell of margin each side for the coordinates
  const at = (i) => i + 1.5;
  const grid = [];
  for (let i = 0; i < n; i++) grid.push(`M${at(0)} ${at(i)}H${at(n - 1)}M${at(i)} ${at(0)}V${at(n - 1)}`);
  const marks = [];
  for (let i = 0; position && i < n * n; i++) {
    const c = position[i];
    const [x, y] = [i % n, Math.floor(i / n)];
    if (c === 'B' || c === 'W') marks.push(<circle cx={at(x)} cy={at(y)} r={0.47} class={c === 'B' ? 'b' : 'w'} data-point={i} />);
    // An unreadable sensor: a grey square, no stone.
    else if (c === '?') marks.push(<rect x={at(x) - 0.25} y={at(y) - 0.25} width={0.5} height={0.5} class="unknown" data-point={i} />);
  }
  const coords = [];
  for (let i = 0; i < n; i++) {
    const letter = LETTERS[i];
    const number = String(n - i);
    coords.push(<text x={at(i)} y={0.85} class="coord">{letter}</text>);
    coords.push(<text x={at(i)} y={view - 0.35} class="coord">{letter}</text>);
    coords.push(<text x={0.6} y={at(i) + 0.3} class="coord">{number}</text>);
    coords.push(<text x={view - 0.6} y={at(i) + 0.3} class="coord">{number}</text>);
  }
  return (
    <svg class="evidenceboard" viewBox={`0 0 ${view} ${view}`} role="img" aria-label={label}>
      <rect width={view} height={view} class="wood" />
      <path d={grid.join('')} class="grid" />
      {stars(n).map(([x, y]) => <circle cx={at(x)} cy={at(y)} r={0.12} class="star" />)}
      {coords}
      {marks}
      {highlight.map((p) => {
        const v = vertexOf(p, n);
        return v && <circle cx={at(v[0])} cy={at(v[1])} r={0.48} class="highlight" data-point={v[1] * n + v[0]} />;
      })}
    </svg>
  );
}
