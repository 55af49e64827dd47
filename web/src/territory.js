// The counting view's territory: empty regions (dead stones removed) bordered by one colour alone, as a Shudan paint map.
import { emptyMap, vertexOf } from './go.js';

const SIGN = { B: 1, W: -1 };

/** The board's signs with the `dead` points ("D4") emptied. */
function livingSigns(position, size, dead) {
  const signs = emptyMap(size, 0);
  for (let i = 0; i < size * size; i++) signs[Math.floor(i / size)][i % size] = SIGN[position?.[i]] ?? 0;
  for (const point of dead || []) {
    const v = vertexOf(point, size);
    if (v) signs[v[1]][v[0]] = 0;
  }
  return signs;
}

/** One empty region from (x, y): its points and the colours bordering it. */
function region(signs, size, x, y, seen) {
  const points = [];
  const borders = new Set();
  const stack = [[x, y]];
  seen[y][x] = true;
  while (stack.length) {
    const [cx, cy] = stack.pop();
    points.push([cx, cy]);
    for (const [nx, ny] of [[cx + 1, cy], [cx - 1, cy], [cx, cy + 1], [cx, cy - 1]]) {
      if (nx < 0 || ny < 0 || nx >= size || ny >= size) continue;
      const sign = signs[ny][nx];
      if (sign !== 0) borders.add(sign);
      else if (!seen[ny][nx]) {
        seen[ny][nx] = true;
        stack.push([nx, ny]);
      }
    }
  }
  return { points, borders };
}

/**
 * Territory as a paint map (1 Black, -1 White, 0 neither) and the points per side. Dead stones'
 * points count for the side around them, as the arbiter's marks make them empty.
 */
export function territoryOf(position, size, dead) {
  const signs = livingSigns(position, size, dead);
  const paint = emptyMap(size, 0);
  const seen = emptyMap(size, false);
  const count = { black: 0, white: 0 };
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (signs[y][x] !== 0 || seen[y][x]) continue;
      const { points, borders } = region(signs, size, x, y, seen);
      if (borders.size !== 1) continue;
      const owner = [...borders][0];
      for (const [px, py] of points) paint[py][px] = owner;
      count[owner === 1 ? 'black' : 'white'] += points.length;
    }
  }
  return { paint, count };
}
