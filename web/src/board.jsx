// The large board (Shudan: SVG grid and star points, coordinates, stones), with the last move and optional move numbers.
import { Goban } from '@sabaki/shudan';
import { useEffect, useState } from 'preact/hooks';
import { emptyMap, vertexOf } from './go.js';

/** The window's size, following resizes. */
export function useWindowSize() {
  const read = () => ({ width: window.innerWidth, height: window.innerHeight });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const update = () => setSize(read());
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, []);
  return size;
}

/**
 * `signMap` to draw; `lastPoint` marked with a circle; `numbers` (a map of move numbers) shown as labels
 * when given; `highlight` points get a square; `dead` points are dimmed and crossed; `candidates`
 * ("D4" points, best first) are labelled 1, 2, ...; `paint` (1/-1 per point) shades territory;
 * `pixels` is the board's width.
 */
export function Board({ signMap, size, pixels, lastPoint, numbers, highlight = [], dead = [], candidates = [], paint,
  coordinates = true, onVertexClick, label }) {
  const cells = size + (coordinates ? 2 : 0.6);
  const vertexSize = Math.max(6, Math.floor(pixels / cells));
  const markerMap = emptyMap(size);
  if (numbers) {
    for (let y = 0; y < size; y++)
      for (let x = 0; x < size; x++)
        if (numbers[y][x] && signMap[y][x]) markerMap[y][x] = { type: 'label', label: String(numbers[y][x]) };
  }
  const last = vertexOf(lastPoint, size);
  if (last && !numbers) markerMap[last[1]][last[0]] = { type: 'circle' };
  const selected = highlight.map((p) => vertexOf(p, size)).filter(Boolean);
  for (const [x, y] of selected) if (!markerMap[y][x]) markerMap[y][x] = { type: 'square' };
  const dimmed = dead.map((p) => vertexOf(p, size)).filter(Boolean);
  for (const [x, y] of dimmed) markerMap[y][x] = { type: 'cross' };
  candidates.forEach((p, i) => {
    const v = vertexOf(p, size);
    if (v && !signMap[v[1]][v[0]]) markerMap[v[1]][v[0]] = { type: 'label', label: String(i + 1) };
  });
  return (
    <div class={`board${candidates.length ? ' with-candidates' : ''}`} role="img" aria-label={label}
      data-candidates={candidates.join(' ') || undefined} data-dead={dead.join(' ') || undefined}>
      <Goban
        vertexSize={vertexSize}
        signMap={signMap}
        markerMap={markerMap}
        showCoordinates={coordinates}
        selectedVertices={selected}
        dimmedVertices={dimmed}
        paintMap={paint}
        onVertexClick={onVertexClick}
        busy={false}
      />
    </div>
  );
}
