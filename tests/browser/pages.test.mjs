// The viewer, the overlay and the arbiter console against `goban-bridge demo` with two simulated tables.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { seriousViolations } from './axe.mjs';
import {
  TOKEN, alertWithEvidence, evidenceShown, expectedEvidence, launch, missing, openPage, screenshot, shownPosition, sleep, startDemo,
  stonesOnly, until,
} from './support.mjs';

const skip = missing() || false;

describe('pages on a demo hall', { skip }, () => {
  let daemon;
  let browser;
  before(async () => {
    daemon = await startDemo({ boards: 2, speed: 6 });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  test('the clocks count down between the daemon\'s readings', async () => {
    // A board whose clock runs now (an alert may stop the other's clock until the arbiter rules).
    const board = await until('a running clock', async () => {
      const states = await daemon.json('/api/v1/boards');
      const list = Array.isArray(states) ? states : states.boards;
      return list.find((s) => s.clock?.running && !s.clock.paused && s.phase === 'playing')?.board;
    }, 60000);
    const page = await openPage(browser, `${daemon.base}/board/${board}`);
    await page.waitForSelector('.clock.running', { timeout: 60000 });
    // A move switches the clocks; try a few windows until one has no switch in it.
    const drop = await until('a running clock to count down', async () => {
      const read = () => page.$eval('.clock.running', (c) => ({ color: c.dataset.color, ms: Number(c.dataset.ms), text: c.querySelector('.time').textContent }));
      const a = await read();
      await sleep(1500);
      const b = await read();
      return a.color === b.color && a.ms - b.ms >= 1000 && a.ms - b.ms <= 2500 && a.text !== b.text ? { a, b } : null;
    }, 30000, 0);
    assert.ok(drop.b.ms < drop.a.ms);
    await screenshot(page, 'viewer-clock');
  });

  test('the viewer shows the stones of the API position after moves', async () => {
    const errors = [];
    const page = await openPage(browser, `${daemon.base}/board/table-1`, { errors });
    await until('five moves', async () => (await daemon.json('/api/v1/boards/table-1')).move_number >= 5, 60000);
    // The daemon moves on while we read: compare until one reading of each agrees.
    const agreed = await until('page and API to agree', async () => {
      const state = await daemon.json('/api/v1/boards/table-1');
      const shown = await shownPosition(page);
      return state.move_number >= 5 && shown === stonesOnly(state.position) ? state : null;
    }, 30000, 100);
    assert.ok(agreed.position.includes('B') && agreed.position.includes('W'));
    const listed = await page.$$eval('.moves li', (items) => items.map((li) => `${li.dataset.number}:${li.dataset.point}`));
    assert.ok(listed.length >= 5, `move list has ${listed.length} moves`);
    const api = (await daemon.json('/api/v1/boards/table-1')).moves.map((m) => `${m.number}:${m.point}`);
    assert.deepEqual(listed, api.slice(0, listed.length));
    await screenshot(page, 'viewer');
    assert.deepEqual(errors, []);
  });

  test('navigating back shows the position after an earlier move', async () => {
    const page = await openPage(browser, `${daemon.base}/board/table-1`);
    await page.waitForSelector('.moves li[data-number="3"] button');
    await page.click('.moves li[data-number="3"] button');
    const moves = (await daemon.json('/api/v1/boards/table-1')).moves.slice(0, 3);
    const shown = await shownPosition(page);
    const stones = [...shown].filter((c) => c !== '.').length;
    assert.equal(stones, 3, 'three stones after move 3');
    assert.match(await page.textContent('.nav .at'), /move 3 of/);
    // Each of the first three moves is drawn where the API says, in its colour.
    for (const m of moves) {
      const letters = 'ABCDEFGHJKLMNOPQRST';
      const x = letters.indexOf(m.point[0]);
      const y = 19 - Number(m.point.slice(1));
      assert.equal(shown[y * 19 + x], m.color === 'black' ? 'B' : 'W', `${m.number} ${m.point}`);
    }
    const sgf = await page.$eval('a.sgf', (a) => a.href);
    const text = await (await fetch(sgf)).text();
    assert.match(text, /^\(;/);
  });

  test('the overlay has a transparent background and no chrome', async () => {
    const page = await openPage(browser, `${daemon.base}/overlay/table-1?size=360&corner=tr&show=board,clock,players`);
    await page.waitForSelector('.overlay .board .shudan-vertex');
    const colors = await page.evaluate(() => [document.documentElement, document.body].map((e) => getComputedStyle(e).backgroundColor));
    assert.deepEqual(colors, ['rgba(0, 0, 0, 0)', 'rgba(0, 0, 0, 0)']);
    assert.equal(await page.$('header'), null);
    const box = await page.$eval('.overlay', (e) => e.getBoundingClientRect().toJSON());
    assert.ok(box.right > 1280 - 20 && box.top < 20, `top right corner: ${JSON.stringify(box)}`);
    await page.screenshot({ path: `${(await import('./support.mjs')).SHOTS}/overlay.png`, omitBackground: true });
  });

  test('an infraction appears on the arbiter page; dismissing needs the token', async () => {
    const errors = [];
    const page = await openPage(browser, `${daemon.base}/arbiter`, { errors });
    await page.fill('#token', TOKEN);
    await page.click('button[type=submit]');
    assert.equal(new URL(page.url()).search, '', 'the token is never in the URL');
    const card = await page.waitForSelector('.alert.open', { timeout: 90000 });
    const board = await card.getAttribute('data-board');
    const id = await card.getAttribute('data-alert');
    await screenshot(page, 'arbiter');
    const status = async () => {
      const state = await daemon.json(`/api/v1/boards/${board}`, TOKEN);
      return state.infractions.find((i) => i.id === id)?.status;
    };
    assert.equal(await status(), 'open');
    // Without a valid token the daemon refuses, the alert stays open and the console asks for the token again.
    await page.evaluate(() => sessionStorage.setItem('goban-bridge.arbiter-token', 'not-the-token'));
    const selector = `.alert[data-alert="${id}"]`;
    await page.click(`${selector} button.dismiss`);
    await page.waitForSelector('.login .error');
    assert.match(await page.textContent('.login .error'), /refused/);
    assert.equal(await status(), 'open');
    // With it, the alert is dismissed, on the page and in the daemon.
    await page.fill('#token', TOKEN);
    await page.click('button[type=submit]');
    await page.waitForSelector(`${selector} button.dismiss`);
    await page.click(`${selector} button.dismiss`);
    await until('the dismissal', async () => (await status()) === 'dismissed');
    await page.waitForSelector(`.alerts-col > .alerts ${selector}`, { state: 'detached' });
    const axe = await seriousViolations(page);
    assert.deepEqual(axe, []);
    assert.deepEqual(errors.filter((e) => !/401/.test(e)), []);
  });

  test("an alert's evidence board shows what the sensors read at each line and steps through them", async () => {
    const errors = [];
    const page = await openPage(browser, `${daemon.base}/arbiter`, { errors });
    await page.fill('#token', TOKEN);
    await page.click('button[type=submit]');
    const { size, alert } = await alertWithEvidence(daemon, TOKEN);
    const selector = `.alert[data-alert="${alert.id}"]`;
    await page.waitForSelector(`${selector} .evidence svg`, { timeout: 30000 });
    const lines = alert.evidence;
    const boards = new Set();
    let ringed = 0;
    // From the latest line (shown first) back to the oldest, one "earlier reading" at a time.
    for (let k = lines.length - 1; k >= 0; k--) {
      if (k < lines.length - 1) await page.click(`${selector} button[aria-label="earlier reading"]`);
      const shown = await until(`line ${k + 1} shown`, async () => {
        const s = await page.evaluate(evidenceShown(alert.id));
        return s?.step === k ? s : null;
      }, 10000, 50);
      const { step, ...drawn } = shown;
      assert.deepEqual(drawn, expectedEvidence(lines, k, size), `line ${k + 1}: ${lines[k].what}`);
      assert.equal(await page.textContent(`${selector} .evidence .nav span`), `${k + 1}/${lines.length}`);
      assert.ok((await page.textContent(`${selector} .evidence .what`)).includes(lines[k].what));
      boards.add(JSON.stringify([drawn.black, drawn.white]));
      if (drawn.ringed.length) ringed += 1;
    }
    assert.ok(lines[0].seen && lines.slice(1).every((l) => !l.seen), 'the whole board once, then changes');
    assert.ok(boards.size >= 2, `stepping changes the board: ${boards.size}`);
    assert.ok(ringed > 0, 'the points of some line are ringed');
    assert.ok(await page.$eval(`${selector} button[aria-label="earlier reading"]`, (b) => b.disabled), 'the oldest line is the first');
    await page.$eval(selector, (card) => card.scrollIntoView());
    await screenshot(page, 'arbiter-evidence');
    assert.deepEqual(errors, []);
  });

  test('the arbiter console fits a phone', async () => {
    const page = await openPage(browser, `${daemon.base}/arbiter`, { viewport: { width: 390, height: 844 } });
    await page.fill('#token', TOKEN);
    await page.click('button[type=submit]');
    await page.waitForSelector('.panel .board .shudan-vertex');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `no horizontal scrolling: ${width}px`);
    await screenshot(page, 'arbiter-phone');
  });

  test('viewer and overlay pass axe with no serious violations', async () => {
    for (const path of ['/board/table-1', '/overlay/table-1', '/arbiter']) {
      const page = await openPage(browser, daemon.base + path);
      await page.waitForSelector(path === '/arbiter' ? '#token' : '.board .shudan-vertex');
      assert.deepEqual(await seriousViolations(page), [], path);
    }
  });

  test('/api/docs serves Swagger UI from the binary', async () => {
    const errors = [];
    const page = await openPage(browser, `${daemon.base}/api/docs/`, { errors });
    await page.waitForSelector('.swagger-ui .opblock', { timeout: 30000 });
    await screenshot(page, 'api-docs');
    assert.deepEqual(errors, []);
  });
});
