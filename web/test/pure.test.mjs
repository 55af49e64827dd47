// Unit tests of the pages' pure parts: points and positions, replay, clock countdown, count-out words.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyTick, describe, formatMs, periodLength, sideNow } from '../src/clocktime.js';
import { blocksOf, evidenceBoards, pointOf, positionOfSeen, replay, signMapOf, vertexOf } from '../src/go.js';
import { callWords } from '../src/speech.js';

test('points and vertices follow api.md: I skipped, row 1 at the bottom', () => {
  assert.deepEqual(vertexOf('A19', 19), [0, 0]);
  assert.deepEqual(vertexOf('T1', 19), [18, 18]);
  assert.deepEqual(vertexOf('J10', 19), [8, 9]);
  assert.equal(vertexOf('pass', 19), null);
  assert.equal(vertexOf('Z5', 19), null);
  assert.equal(pointOf([8, 9], 19), 'J10');
  const position = '.'.repeat(361).split('');
  position[0] = 'B';
  position[360] = 'W';
  const map = signMapOf(position.join(''), 19);
  assert.equal(map[0][0], 1);
  assert.equal(map[18][18], -1);
});

test("an evidence line's seen points become a position string like the state's", () => {
  const position = positionOfSeen({ black: ['A9', 'E5'], white: ['J1'], unreadable: ['B8'] }, 9);
  assert.equal(position.length, 81);
  assert.equal(position[0], 'B', 'A9 is the top left');
  assert.equal(position[4 * 9 + 4], 'B', 'E5 is the centre');
  assert.equal(position[80], 'W', 'J1 is the bottom right');
  assert.equal(position[1 * 9 + 1], '?', 'B8 unreadable');
  assert.equal([...position].filter((c) => c !== '.').length, 4);
  assert.equal(positionOfSeen({ black: [], white: [] }, 9), '.'.repeat(81));
});

test('evidence boards: the first seen, then each line\'s changes, a line with neither keeps the board', () => {
  const lines = [
    { what: 'old line' },
    { what: 'a', seen: { black: ['A9'], white: ['B9'] } },
    { what: 'b', changed: { black: ['C9'] } },
    { what: 'press' },
    { what: 'c', changed: { empty: ['B9'], unreadable: ['J1'] } },
  ];
  const boards = evidenceBoards(lines, 9);
  assert.equal(boards[0], null, 'no board before the first seen');
  assert.equal(boards[1].slice(0, 3), 'BW.');
  assert.equal(boards[2].slice(0, 3), 'BWB');
  assert.equal(boards[3], boards[2]);
  assert.equal(boards[4].slice(0, 3), 'B.B');
  assert.equal(boards[4][80], '?');
  assert.deepEqual(evidenceBoards([{ what: 'x' }, { what: 'y', changed: { black: ['A1'] } }], 9), [null, null]);
});

test('replay removes captured stones and counts them', () => {
  const moves = [
    ['black', 'B1'], ['white', 'A1'], ['black', 'A2'],
  ].map(([color, point], i) => ({ number: i + 1, color, point }));
  const after = replay(moves, 9);
  assert.equal(after.signMap[8][0], 0, 'A1 captured');
  assert.equal(after.captures.black, 1);
  const before = replay(moves, 9, 2);
  assert.equal(before.signMap[8][0], -1, 'A1 there after move 2');
  assert.equal(before.numbers[8][1], 1);
});

test('a running clock counts main time, then byo-yomi periods', () => {
  const reading = {
    running: 'black', paused: false, time_control: 'byoyomi-cn:main=20m,reserve=3,period=30s',
    black: { main_ms: 2000, periods: 3, period_ms: 30000 },
    white: { main_ms: 60000, periods: 3, period_ms: 30000 },
  };
  assert.equal(periodLength(reading.time_control), 30000);
  assert.equal(sideNow(reading, 'black', 1500).main, 500);
  const inPeriod = sideNow(reading, 'black', 12000);
  assert.deepEqual([inPeriod.main, inPeriod.period, inPeriod.periods], [0, 20000, 3]);
  const nextPeriod = sideNow(reading, 'black', 2000 + 30000 + 5000);
  assert.deepEqual([nextPeriod.period, nextPeriod.periods], [25000, 2]);
  assert.equal(sideNow(reading, 'white', 10000).main, 60000, 'the waiting clock stands');
  assert.equal(sideNow({ ...reading, paused: true }, 'black', 1500).main, 2000);
  assert.equal(formatMs(3723000), '1:02:03');
  assert.equal(describe(inPeriod).small, 'byo-yomi ×3');
});

test('count-out calls in Chinese and English', () => {
  const used = { event: 'clock_call', call: '1 minute used, 2 left', call_zh: '还剩2分钟', code: { kind: 'period_used', periods_left: 2, period_ms: 60000 } };
  assert.equal(callWords(used, 'zh'), '还剩2分钟');
  assert.equal(callWords(used, 'en'), '1 minute used, 2 left');
  assert.equal(callWords({ call: '30 seconds', call_zh: '30秒' }, 'zh'), '30秒');
  assert.equal(callWords({ call: '7' }, 'zh'), '7', 'an event from an older daemon falls back to the English words');
});

test('a clock tick replaces the time left and keeps what only the state has', () => {
  const state = {
    running: 'white', to_move: 'white', paused: false, flag_fallen: null,
    time_control: 'byoyomi-jp:main=60m,periods=5,period=30s',
    black: { main_ms: 600000, periods: 5, period_ms: 30000, used_ms: 5000, flagged: false },
    white: { main_ms: 500000, periods: 5, period_ms: 30000, used_ms: 9000, flagged: false },
  };
  const tick = {
    running: 'black',
    black: { main_ms: 599000, periods: 5, period_ms: 30000 },
    white: { main_ms: 0, periods: 0, period_ms: 0, flagged: true },
    flag_fallen: 'white',
  };
  const clock = applyTick(state, tick);
  assert.equal(clock.running, 'black');
  assert.equal(clock.time_control, state.time_control);
  assert.equal(clock.to_move, 'white');
  assert.equal(clock.black.main_ms, 599000);
  assert.equal(clock.black.used_ms, 5000);
  assert.equal(clock.black.flagged, false);
  assert.equal(clock.white.flagged, true);
  assert.equal(clock.flag_fallen, 'white');
  assert.equal(clock.paused, false);
  assert.equal(applyTick(clock, { running: null, paused: true, black: tick.black, white: tick.white }).paused, true);
});

test('a setup block goes on whole, without move numbers, and later moves are numbered after it', () => {
  const moves = [
    { number: 1, color: 'black', point: 'E5' },
    { number: 2, color: 'white', point: 'C3' },
    { number: 3, color: 'white', point: 'C7', order_known: false },
    { number: 4, color: 'black', point: 'G7', order_known: false },
    { number: 5, color: 'black', point: 'G3', order_known: false },
    { number: 6, color: 'white', point: 'D4' },
  ];
  assert.deepEqual(blocksOf(moves), [{ first: 3, last: 5 }]);
  const at = (point) => vertexOf(point, 9);
  const all = replay(moves, 9);
  for (const p of ['C7', 'G7', 'G3']) {
    const [x, y] = at(p);
    assert.notEqual(all.signMap[y][x], 0, p);
    assert.equal(all.numbers[y][x], 0, `${p} has no number`);
  }
  const [x6, y6] = at('D4');
  assert.equal(all.numbers[y6][x6], 6);
  // Inside the block no stone of it is shown: which came first is unknown.
  const inside = replay(moves, 9, 4);
  const [x, y] = at('C7');
  assert.equal(inside.signMap[y][x], 0);
});
