// The hall overview with 64 simulated tables: every board listed, live tiles, no console errors, axe clean.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { seriousViolations } from './axe.mjs';
import { launch, missing, openPage, screenshot, startDemo, until } from './support.mjs';

const skip = missing() || false;

describe('hall of 64 boards', { skip }, () => {
  let daemon;
  let browser;
  before(async () => {
    daemon = await startDemo({ boards: 64, speed: 2 });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  test('/ shows every board without console errors', async () => {
    const errors = [];
    const page = await openPage(browser, `${daemon.base}/`, { errors, viewport: { width: 1440, height: 1000 } });
    const boards = (await daemon.json('/api/v1/health')).boards.map((b) => b.board).sort();
    assert.equal(boards.length, 64);
    await until('64 tiles', async () => (await page.$$('.tile')).length === 64, 30000);
    const tiles = (await page.$$eval('.tile', (ts) => ts.map((t) => t.dataset.board))).sort();
    assert.deepEqual(tiles, boards);
    // Visible tiles draw their board; scroll through the hall so every tile is drawn once.
    const drawn = new Set();
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    for (let y = 0; y <= height; y += 800) {
      await page.evaluate((top) => window.scrollTo(0, top), y);
      await page.waitForTimeout(250);
      for (const id of await page.$$eval('.tile:has(svg.miniboard)', (ts) => ts.map((t) => t.dataset.board))) drawn.add(id);
    }
    assert.equal(drawn.size, 64, `tiles drawn: ${drawn.size}`);
    await page.evaluate(() => window.scrollTo(0, 0));
    // Stones reach the tiles live: some tile shows stones once games are under way.
    await until('stones on a tile', async () => (await page.$$('.tile svg.miniboard circle.b')).length > 0, 60000);
    await screenshot(page, 'hall-64');
    assert.deepEqual(await seriousViolations(page), []);
    assert.deepEqual(errors, []);
  });
});
