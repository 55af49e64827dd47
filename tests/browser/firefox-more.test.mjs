// The rest of the checks in Firefox (firefox-esr over WebDriver BiDi), as in Chromium: the 64-board hall
// without console errors, the viewer across a daemon restart with no gap, and marking a dead group while counting.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { click, firefoxMissing, has, launchFirefox, logIn } from './firefox.mjs';
import { ROOT, TOKEN, missing, sleep, startDemo, startSimulator, until } from './support.mjs';

function skipReason() {
  const why = missing() || firefoxMissing();
  if (why && process.env.CI === 'true') throw new Error(`Firefox tests cannot run under CI: ${why}`);
  if (why) console.log(`# SKIP Firefox tests: ${why}`);
  return why || false;
}
const skip = skipReason();

describe('hall of 64 boards in Firefox', { skip }, () => {
  let daemon;
  let firefox;
  before(async () => {
    daemon = await startDemo({ boards: 64, speed: 2 });
    firefox = await launchFirefox();
  });
  after(async () => {
    await firefox?.close();
    await daemon?.stop();
  });

  test('/ shows every board without console errors', async () => {
    await firefox.goto(`${daemon.base}/`);
    const boards = (await daemon.json('/api/v1/health')).boards.map((b) => b.board).sort();
    assert.equal(boards.length, 64);
    const tiles = await until('64 tiles', async () => {
      const ids = await firefox.evaluate(`[...document.querySelectorAll('.tile')].map((t) => t.dataset.board)`);
      return ids.length === 64 ? ids.sort() : null;
    });
    assert.deepEqual(tiles, boards);
    // Visible tiles draw their board; scroll through the hall so every tile is drawn once.
    const drawn = new Set();
    const height = await firefox.evaluate('document.documentElement.scrollHeight');
    for (let y = 0; y <= height; y += 600) {
      await firefox.evaluate(`window.scrollTo(0, ${y})`);
      await sleep(300);
      for (const id of await firefox.evaluate(`[...document.querySelectorAll('.tile')].filter((t) => t.querySelector('svg.miniboard')).map((t) => t.dataset.board)`)) drawn.add(id);
    }
    assert.equal(drawn.size, 64, `tiles drawn: ${drawn.size}`);
    await firefox.evaluate('window.scrollTo(0, 0)');
    await until('stones on a tile', () => has(firefox, '.tile svg.miniboard circle.b'), 60000);
    assert.deepEqual(firefox.errors, []);
  });
});

describe('Firefox viewer across a daemon restart', { skip }, () => {
  let sim;
  let daemon;
  let firefox;
  before(async () => {
    sim = await startSimulator({ games: join(ROOT, 'daemon/assets/games/AlphaGo-2.0-AG-vs-AG-G12-English.sgf'), speed: 4 });
    daemon = await sim.start();
    firefox = await launchFirefox();
  });
  after(async () => {
    await firefox?.close();
    await daemon?.stop();
    await sim?.sim.stop();
  });

  test('the viewer reconnects by itself and its move list has no gap', async () => {
    const id = await daemon.firstBoard();
    const listed = () => firefox.evaluate(`[...document.querySelectorAll('.moves li')].map((li) => ({ n: Number(li.dataset.number), p: li.dataset.point }))`);
    await firefox.goto(`${daemon.base}/board/${id}`);
    await until('a few moves on the page', async () => (await listed()).length >= 4, 60000);
    await daemon.stop();
    await until('the page reconnecting', () => has(firefox, '.conn.reconnecting'), 15000);
    const before = (await listed()).length;
    await sleep(3000); // moves are played while the daemon is away
    daemon = await sim.start();
    await until('the page live again', () => has(firefox, '.conn.live'), 30000);
    const api = await until('moves after the restart', async () => {
      const state = await daemon.json(`/api/v1/boards/${id}`);
      return state.moves.length > before ? state : null;
    }, 60000);
    const shown = await until('the page to catch up', async () => {
      const items = await listed();
      return items.length >= api.moves.length ? items : null;
    }, 30000);
    shown.forEach((m, i) => assert.equal(m.n, i + 1, `move ${i + 1} is in the list`));
    const fresh = await daemon.json(`/api/v1/boards/${id}`);
    const common = Math.min(shown.length, fresh.moves.length);
    assert.deepEqual(shown.slice(0, common).map((m) => m.p), fresh.moves.slice(0, common).map((m) => m.point));
  });
});

describe('Firefox: counting a finished 9x9 game', { skip }, () => {
  let sim;
  let daemon;
  let firefox;
  before(async () => {
    sim = await startSimulator({ games: join(ROOT, 'tests/browser/fixtures/counting-9x9.sgf'), speed: 8, size: 9 });
    daemon = await sim.start();
    firefox = await launchFirefox();
  });
  after(async () => {
    await firefox?.close();
    await daemon?.stop();
    await sim?.sim.stop();
  });

  test('marking the dead white stone changes the shown score', async () => {
    const id = await daemon.firstBoard();
    await firefox.goto(`${daemon.base}/arbiter`);
    await logIn(firefox);
    await until('the counting phase', async () => (await daemon.json(`/api/v1/boards/${id}`, TOKEN)).phase === 'counting', 90000);
    await until('the score on the page', () => has(firefox, '.panel[data-phase="counting"] .score'));
    const score = () => firefox.evaluate(`document.querySelector('.score')?.dataset.score ?? null`);
    const before = await score();
    // B5 is the white stone inside Black's area: x = 1, y = 9 - 5.
    await click(firefox, '.panel .shudan-vertex[data-x="1"][data-y="4"]');
    await until('B5 marked dead', async () => (await daemon.json(`/api/v1/boards/${id}`, TOKEN)).dead_stones.includes('B5'));
    const after = await until('a new score', async () => {
      const s = await score();
      return s && s !== before ? s : null;
    });
    assert.equal(after, (await daemon.json(`/api/v1/boards/${id}`, TOKEN)).proposed_result);
    assert.ok(await has(firefox, '.panel .shudan-vertex.shudan-dimmed[data-x="1"][data-y="4"]'), 'the dead stone is dimmed');
  });
});
