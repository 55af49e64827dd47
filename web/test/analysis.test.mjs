// Unit tests of the broadcast parts: one result formatter with units, the analysis held per board, territory of the counting view.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { emptyAnalysis, analysisOf, withAnalysis, withPage } from '../src/analysis.js';
import { formatLead, formatResult, resultOf, unitOf } from '../src/result.js';
import { territoryOf } from '../src/territory.js';

test('a result always carries its unit, the same on every page', () => {
  assert.equal(formatResult('W+3.75', 'stones'), 'W+3.75 stones');
  assert.equal(formatResult('B+6.5', 'points'), 'B+6.5 points');
  assert.equal(formatResult('B+1', 'points'), 'B+1 point');
  assert.equal(formatResult('B+R', 'stones'), 'B+R (resignation)');
  assert.equal(formatResult('W+T', 'points'), 'W+T (time)');
  assert.equal(formatResult('0', 'stones'), 'draw (jigo)');
  assert.equal(unitOf({ ruleset: 'cn2002' }), 'stones');
  assert.equal(unitOf({ ruleset: 'jk' }), 'points');
  assert.equal(unitOf({ ruleset: 'jk', result_unit: 'stones' }), 'stones', 'the state says');
  assert.equal(resultOf({ ruleset: 'cn2002', proposed_result: 'B+0.25' }), 'B+0.25 stones (proposed)');
  assert.equal(formatLead(3.5, 'points'), 'B+3.5 points');
  assert.equal(formatLead(-3.5, 'stones'), 'W+1.8 stones');
  assert.equal(formatLead(0.01, 'stones'), 'even');
});

const analysis = (seq, move, lead, game = 'g1') => ({
  v: 1, position_seq: seq, board: 't', game, move_number: move, to_move: 'black', score_lead: lead, winrate: null,
  candidates: [{ point: 'D4', pv: ['D4'] }], engine: { name: 'GNU Go 3.8', budget: '5s per position' },
});

test('the analysis held follows the page, then the stream; a voided move and a new game reset the graph', () => {
  let held = withPage(emptyAnalysis(), {
    enabled: true, engine: { name: 'GNU Go 3.8', budget: '5s per position' }, latest: analysis(4, 1, 2),
    history: [{ move_number: 1, position_seq: 4, score_lead: 2 }],
  });
  assert.equal(held.enabled, true);
  held = withAnalysis(held, analysis(6, 2, -1));
  held = withAnalysis(held, analysis(8, 3, 1));
  assert.deepEqual(held.history.map((p) => p.move_number), [1, 2, 3]);
  held = withAnalysis(held, analysis(10, 2, 5));
  assert.deepEqual(held.history.map((p) => p.move_number), [1, 2], 'move 3 was voided');
  assert.equal(held.latest.position_seq, 10);
  assert.equal(analysisOf(held, { game: 'g1', move_number: 2 }).position_seq, 10);
  assert.equal(analysisOf(held, { game: 'g1', move_number: 3 }), null, 'not about the position shown');
  held = withAnalysis(held, analysis(2, 1, 0, 'g2'));
  assert.deepEqual(held.history.map((p) => p.move_number), [1], 'a new game starts a new graph');
  const off = withPage(emptyAnalysis(), { enabled: false, off_reason: 'GNU Go not found', history: [], latest: null });
  assert.equal(off.enabled, false);
  assert.equal(off.offReason, 'GNU Go not found');
});

test('territory counts empty regions of one colour, dead stones taken off', () => {
  // 5x5: a black wall on column C, white stones on D and E lines; one white stone dead in Black's area.
  const rows = [
    '.BW..',
    '.BW..',
    'WBW..',
    '.BW..',
    '.BW..',
  ];
  const position = rows.join('');
  const alive = territoryOf(position, 5, []);
  assert.equal(alive.count.black, 0, 'the white stone at A3 breaks Black\'s area');
  assert.equal(alive.count.white, 10);
  const counted = territoryOf(position, 5, ['A3']);
  assert.equal(counted.count.black, 5, 'A3 dead: column A is Black\'s');
  assert.equal(counted.paint[2][0], 1);
  assert.equal(counted.paint[0][4], -1);
});
