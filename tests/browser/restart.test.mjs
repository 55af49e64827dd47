// With a separate simulator: the viewer across a daemon restart (no gap in its move list), and counting with dead stones.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ROOT, TOKEN, launch, missing, openPage, screenshot, sleep, startSimulator, until } from './support.mjs';

const skip = missing() || false;

describe('viewer across a daemon restart', { skip }, () => {
  let sim;
  let daemon;
  let browser;
  before(async () => {
    sim = await startSimulator({ games: join(ROOT, 'daemon/assets/games/AlphaGo-2.0-AG-vs-AG-G12-English.sgf'), speed: 4 });
    daemon = await sim.start();
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await daemon?.stop();
    await sim?.sim.stop();
  });

  test('the viewer reconnects by itself and its move list has no gap', async () => {
    const id = await daemon.firstBoard();
    const page = await openPage(browser, `${daemon.base}/board/${id}`);
    await until('a few moves on the page', async () => (await page.$$('.moves li')).length >= 4, 60000);
    await daemon.stop();
    await page.waitForSelector('.conn.reconnecting', { timeout: 15000 });
    const before = (await page.$$('.moves li')).length;
    await sleep(3000); // moves are played while the daemon is away
    daemon = await sim.start();
    await page.waitForSelector('.conn.live', { timeout: 30000 });
    // Moves the page has not seen: played while the daemon was away, or after it came back.
    const api = await until('moves after the restart', async () => {
      const state = await daemon.json(`/api/v1/boards/${id}`);
      return state.moves.length > before ? state : null;
    }, 60000);
    const listed = await until('the page to catch up', async () => {
      const items = await page.$$eval('.moves li', (lis) => lis.map((li) => ({ n: Number(li.dataset.number), p: li.dataset.point })));
      return items.length >= api.moves.length ? items : null;
    }, 30000);
    listed.forEach((m, i) => assert.equal(m.n, i + 1, `move ${i + 1} is in the list`));
    // The game goes on while we read: compare what both have.
    const fresh = await daemon.json(`/api/v1/boards/${id}`);
    const common = Math.min(listed.length, fresh.moves.length);
    assert.deepEqual(listed.slice(0, common).map((m) => m.p), fresh.moves.slice(0, common).map((m) => m.point));
    await screenshot(page, 'viewer-after-restart');
  });
});

describe('counting a finished 9x9 game', { skip }, () => {
  let sim;
  let daemon;
  let browser;
  before(async () => {
    sim = await startSimulator({ games: join(ROOT, 'tests/browser/fixtures/counting-9x9.sgf'), speed: 8, size: 9 });
    daemon = await sim.start();
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await daemon?.stop();
    await sim?.sim.stop();
  });

  test('marking the dead white stone changes the shown score', async () => {
    const id = await daemon.firstBoard();
    const page = await openPage(browser, `${daemon.base}/arbiter`, { viewport: { width: 1280, height: 1000 } });
    await page.fill('#token', TOKEN);
    await page.click('button[type=submit]');
    await until('the counting phase', async () => (await daemon.json(`/api/v1/boards/${id}`, TOKEN)).phase === 'counting', 90000);
    await page.waitForSelector('.panel[data-phase="counting"] .score');
    const before = await page.getAttribute('.score', 'data-score');
    // B5 is the white stone inside Black's area: x = 1, y = 9 - 5.
    await page.click('.panel .shudan-vertex[data-x="1"][data-y="4"]');
    await until('B5 marked dead', async () => (await daemon.json(`/api/v1/boards/${id}`, TOKEN)).dead_stones.includes('B5'));
    const after = await until('a new score', async () => {
      const score = await page.getAttribute('.score', 'data-score');
      return score && score !== before ? score : null;
    });
    const state = await daemon.json(`/api/v1/boards/${id}`, TOKEN);
    assert.equal(after, state.proposed_result);
    assert.ok(await page.$('.panel .shudan-vertex.shudan-dimmed[data-x="1"][data-y="4"]'), 'the dead stone is dimmed');
    await screenshot(page, 'arbiter-counting');
  });
});
