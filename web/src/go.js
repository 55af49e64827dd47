// Go helpers shared by the pages: the API's position string and "D4" points to Shudan's maps, and game replay.
import GoBoard from '@sabaki/go-board';

/** Column letters of the usual notation (I skipped), as in api.md. */
export const LETTERS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ';

const SIGN = { B: 1, W: -1 };

/** The API's `position` (row-major, row 0 = top line as seen from Black) as a Shudan sign map. */
export function signMapOf(position, size) {
  const map = [];
  for (let y = 0; y < size; y++) {
    const row = new Array(size).fill(0);
    for (let x = 0; x < size; x++) row[x] = SIGN[position?.[y * size + x]] ?? 0;
    map.push(row);
  }
  return map;
}

const MARKS = [['black', 'B'], ['white', 'W'], ['empty', '.'], ['unreadable', '?']];

/** `readings` (`{black, white, empty, unreadable}` lists of "D4" points, api.md) written into `out`, a position array. */
function applyReadings(out, readings, size) {
  for (const [key, mark] of MARKS) {
    for (const point of readings?.[key] || []) {
      const v = vertexOf(point, size);
      if (v) out[v[1] * size + v[0]] = mark;
    }
  }
  return out;
}

/**
 * An evidence line's `seen` as a position string: "B", "W", "?" (unreadable) or "." per point,
 * row-major like the state's `position`.
 */
export function positionOfSeen(seen, size) {
  return applyReadings(new Array(size * size).fill('.'), seen, size).join('');
}

/**
 * The board of each evidence line (api.md `infractions[].evidence`): the first line's `seen`, then each
 * later line's `changed` applied to the board before (a line with neither keeps it). Null for lines
 * before any board, and for every line of an alert from a daemon that does not record them.
 */
export function evidenceBoards(lines, size) {
  let board = null;
  return lines.map((line) => {
    if (line.seen) board = positionOfSeen(line.seen, size);
    else if (line.changed && board) board = applyReadings([...board], line.changed, size).join('');
    return board;
  });
}

/** An empty map of `size` filled with `value`. */
export function emptyMap(size, value = null) {
  return Array.from({ length: size }, () => new Array(size).fill(value));
}

/** "D4" as Shudan's [x, y] (y = 0 at the top), or null for "pass" and anything off the board. */
export function vertexOf(point, size) {
  if (typeof point !== 'string' || point.toLowerCase() === 'pass') return null;
  const x = LETTERS.indexOf(point[0].toUpperCase());
  const row = Number.parseInt(point.slice(1), 10);
  if (x < 0 || x >= size || !(row >= 1 && row <= size)) return null;
  return [x, size - row];
}

/** Shudan's [x, y] as "D4". */
export function pointOf([x, y], size) {
  return `${LETTERS[x]}${size - y}`;
}

export function signOf(color) {
  return color === 'black' ? 1 : color === 'white' ? -1 : 0;
}

/**
 * The position after move `upto` (all moves when undefined), replayed from an empty board
 * (plus the handicap stones, placed as black setup stones), with captures and the move number of each stone.
 */
export function replay(moves, size, upto = Infinity, handicap = 0) {
  let board = GoBoard.fromDimensions(size);
  const numbers = emptyMap(size, 0);
  if (handicap >= 2) {
    for (const v of board.getHandicapPlacement(handicap)) board = board.set(v, 1);
  }
  // A setup block's stones (`order_known: false`) go on together once `upto` is past its last
  // move, and carry no number: their order is unknown (api.md `moves[].order_known`).
  const blockEnd = new Map(blocksOf(moves).map((b) => [b.first, b.last]));
  let end = 0;
  for (const move of moves) {
    if (move.number > upto) break;
    if (move.order_known === false && move.number > end) end = blockEnd.get(move.number) ?? move.number;
    if (move.order_known === false && end > upto) break;
    const v = vertexOf(move.point, size);
    if (!v) continue;
    board = board.makeMove(signOf(move.color), v);
    numbers[v[1]][v[0]] = move.order_known === false ? 0 : move.number;
  }
  return {
    signMap: board.signMap,
    numbers,
    captures: { black: board.getCaptures(1), white: board.getCaptures(-1) },
  };
}

/**
 * The setup blocks of a move list: each run of moves with `order_known: false` (moves played while
 * the board could not see, order unknown) as `{ first, last }` move numbers.
 */
export function blocksOf(moves) {
  const blocks = [];
  for (const move of moves) {
    if (move.order_known !== false) continue;
    const open = blocks[blocks.length - 1];
    if (open && open.last + 1 === move.number) open.last = move.number;
    else blocks.push({ first: move.number, last: move.number });
  }
  return blocks;
}
