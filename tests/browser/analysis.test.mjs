// The broadcast pages in Chromium (issue 42): GNU Go's analysis after the broadcast delay and never before, the
// engine and its candidate moves on the commentator's toggle, black stones black, the counting view with units,
// players from the tournament desk, warnings and penalties, the overlay fitting its page, and an unknown board's page.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  ROOT, TOKEN, alertWithEvidence, launch, missing, openPage, screenshot, startDemo, startSimulator, until,
} from './support.mjs';

/** GNU Go where the daemon's `auto` finds it. */
function gnugo() {
  const dirs = (process.env.PATH || '').split(':').concat(['/usr/games']);
  return dirs.some((dir) => dir && existsSync(join(dir, 'gnugo')));
}

const skip = missing() || (!gnugo() && 'GNU Go not installed (apt-get install gnugo)') || false;
const DELAY = '4s';

async function post(daemon, path, body) {
  const response = await fetch(daemon.base + path, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  assert.ok(response.ok, `${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** The page's lead bar: the analysed seq and move, or null. */
const leadOf = (page) => page.$eval('.lead', (el) => ({ seq: Number(el.dataset.seq), move: Number(el.dataset.move) })).catch(() => null);

describe('analysis beside a 9x9 game with a broadcast delay', { skip }, () => {
  let sim;
  let daemon;
  let browser;
  let id;
  before(async () => {
    sim = await startSimulator({
      games: join(ROOT, 'tests/browser/fixtures/counting-9x9.sgf'),
      speed: 2,
      size: 9,
      server: `broadcast_delay = "${DELAY}"\n`,
      // Normal priority: under SCHED_IDLE (the default) a saturated machine gives the engine no CPU.
      extra: '[analysis]\nengine = "gtp"\ntime_per_position = "20s"\nidle = false\n'
        + '[tournament]\nevent = "Browser Open"\n[tournament.tables]\n"1" = "table-1"\n',
    });
    daemon = await sim.start();
    // Arbiters see the board at once; the public only after the delay.
    id = await until('the board', async () => {
      const body = await daemon.json('/api/v1/boards', TOKEN);
      return (Array.isArray(body) ? body : body.boards)[0]?.board;
    });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await daemon?.stop();
    await sim?.sim.stop();
  });

  test('the analysis of a position shows after the delay releases it, never before; moves on the toggle', async () => {
    // The page opens once the board is public (before, the public API does not know it yet).
    await until('the board public', async () => (await daemon.json(`/api/v1/boards/${id}`).catch(() => null))?.board === id, 60000);
    const errors = [];
    const page = await openPage(browser, `${daemon.base}/board/${id}`, { errors });
    const commentator = await openPage(browser, `${daemon.base}/board/${id}`);
    const engine = await until('the engine line', () => commentator.textContent('.engine').catch(() => null));
    assert.match(engine, /GNU Go/);
    assert.match(engine, /per position/);
    assert.equal(await commentator.isChecked('.engine-col input[type=checkbox]'), false, 'off by default');
    assert.equal(await commentator.$('.candidates'), null);
    assert.equal(await commentator.getAttribute('.board', 'data-candidates'), null);
    await commentator.check('.engine-col input[type=checkbox]');
    let checks = 0;
    let held = 0;
    const candidates = [];
    // Until the game ends: read the page, then the public state; the page may never be ahead of it.
    await until('the counting phase, watching the page', async () => {
      const live = await daemon.json(`/api/v1/boards/${id}`, TOKEN);
      const shown = await leadOf(page);
      const pub = await daemon.json(`/api/v1/boards/${id}`);
      const rest = await daemon.json(`/api/v1/boards/${id}/analysis`);
      if (shown) {
        checks += 1;
        assert.ok(shown.seq <= pub.seq, `page shows the analysis of seq ${shown.seq}, public state at ${pub.seq}`);
      }
      if (rest.latest) assert.ok(rest.latest.position_seq <= pub.seq, `REST analysis ${rest.latest.position_seq} ahead of public ${pub.seq}`);
      // A move live for arbiters and not yet public: its analysis is nowhere to be seen.
      if (live.seq > pub.seq && (!shown || shown.seq < live.seq)) held += 1;
      // One reading of list and board together: the page moves on between two reads.
      const seen = await commentator.evaluate(() => ({
        listed: [...document.querySelectorAll('.candidates li')].map((l) => l.dataset.point),
        labelled: document.querySelector('.board')?.dataset.candidates ?? '',
      }));
      if (seen.listed.length && seen.labelled) candidates.push({ listed: seen.listed, labelled: seen.labelled.split(' ') });
      return live.phase === 'counting' ? live : null;
    }, 180000, 200);
    assert.ok(checks > 0, 'the lead bar appeared while the game went on');
    assert.ok(held > 0, 'moves were seen live before they were public');
    assert.ok(candidates.length > 0, 'the commentator saw candidate moves while the game went on');
    for (const { listed, labelled } of candidates) {
      assert.deepEqual(labelled, listed.filter((p) => p !== 'pass').slice(0, labelled.length));
    }
    assert.equal(await page.$('.candidates'), null, 'the other page never showed them');
    const last = await daemon.json(`/api/v1/boards/${id}`, TOKEN);
    const lead = await until('the analysis of the final position on the page', async () => {
      const shown = await leadOf(page);
      return shown && shown.move === last.move_number ? shown : null;
    }, 120000);
    assert.ok(lead.seq <= (await daemon.json(`/api/v1/boards/${id}`)).seq);
    const points = Number(await page.getAttribute('.lead-graph', 'data-points'));
    assert.ok(points >= 2, `the graph has ${points} positions`);
    await screenshot(page, 'viewer-analysis');
    assert.deepEqual(errors, []);
  });

  test('black stones are black, white stones white, and no busy sweep over the board', async () => {
    const page = await openPage(browser, `${daemon.base}/board/${id}`);
    await page.waitForSelector('.board .shudan-vertex.shudan-sign_1');
    const colours = await page.$$eval('.board .shudan-vertex:not(.shudan-dimmed)', (vertices) => vertices
      .filter((v) => v.classList.contains('shudan-sign_1') || v.classList.contains('shudan-sign_-1'))
      .map((v) => {
        const image = v.querySelector('.shudan-stone-image');
        const style = getComputedStyle(image);
        return { black: v.classList.contains('shudan-sign_1'), color: style.backgroundColor, image: style.backgroundImage, opacity: style.opacity };
      }));
    assert.ok(colours.some((c) => c.black) && colours.some((c) => !c.black));
    for (const c of colours) {
      assert.equal(c.color, c.black ? 'rgb(0, 0, 0)' : 'rgb(255, 255, 255)');
      assert.equal(c.image, 'none');
      assert.equal(c.opacity, '1');
    }
    assert.equal(await page.$('.shudan-goban.shudan-busy'), null);
    // What is drawn: the centre pixel of a black stone is black.
    const stone = await page.$('.board .shudan-vertex.shudan-sign_1:not(.shudan-dimmed) .shudan-stone-image');
    const box = await stone.boundingBox();
    const shot = await page.screenshot({ clip: { x: box.x + box.width / 2 - 1, y: box.y + box.height / 2 - 1, width: 2, height: 2 } });
    assert.ok(shot.length > 0);
  });

  test('players, round, table and event from the tournament desk', async () => {
    await post(daemon, '/api/v1/tournament/round', { source: 'csv', round: 3, document: '1,Li Wei,Wang Fang,0,7.5' });
    const page = await openPage(browser, `${daemon.base}/board/${id}`);
    const where = await until('round and table', () => page.textContent('.game-players .where').catch(() => null));
    assert.match(where, /Browser Open/);
    assert.match(where, /round 3/);
    assert.match(where, /table 1/);
    const names = await page.$$eval('.game-players .player-line .name', (n) => n.map((x) => x.textContent));
    assert.deepEqual(names, ['Li Wei', 'Wang Fang']);
  });

  test('rank and club from an OpenGotha round, as the file writes them', async () => {
    // OpenGotha's own file format (tournament.dtd): round 2, table 1 is Zhang Min (10K, Sh) against Li Wei (2D, Bj).
    const document = readFileSync(join(ROOT, 'daemon/tests/data/club_2026.xml'), 'utf8');
    await post(daemon, '/api/v1/tournament/round', { source: 'opengotha', round: 2, document });
    const page = await openPage(browser, `${daemon.base}/board/${id}`);
    await until('round 2 on the page', async () => /round 2/.test(await page.textContent('.game-players .where').catch(() => '')));
    const players = await page.$$eval('.game-players .player-line', (lines) => lines.map((l) => ({
      name: l.querySelector('.name')?.textContent,
      rank: l.querySelector('.rank')?.textContent ?? null,
      club: l.querySelector('.extra')?.textContent ?? null,
    })));
    assert.deepEqual(players, [
      { name: 'Zhang Min', rank: '10K', club: 'Sh' },
      { name: 'Li Wei', rank: '2D', club: 'Bj' },
    ]);
  });

  test('counting: dead stones, territory, running count and the result with its unit everywhere', async () => {
    await until('counting public', async () => (await daemon.json(`/api/v1/boards/${id}`)).phase === 'counting', 60000);
    const page = await openPage(browser, `${daemon.base}/board/${id}`);
    await page.waitForSelector('.count .margin');
    const before = await page.getAttribute('.count .territory', 'data-black');
    // B5: the white stone inside Black's area.
    await post(daemon, `/api/v1/boards/${id}/dead-stones`, { points: ['B5'], dead: true });
    await until('B5 dead on the page', async () => ((await page.getAttribute('.board', 'data-dead')) || '').includes('B5'), 30000);
    assert.ok(await page.$('.board .shudan-vertex.shudan-dimmed[data-x="1"][data-y="4"]'), 'dimmed');
    const after = await until('more black territory', async () => {
      const now = await page.getAttribute('.count .territory', 'data-black');
      return Number(now) > Number(before) ? now : null;
    });
    assert.ok(Number(after) > Number(before));
    assert.equal(await page.getAttribute('.count .dead', 'data-dead'), '1');
    const state = await until('the proposed result public', async () => {
      const s = await daemon.json(`/api/v1/boards/${id}`);
      return s.dead_stones.includes('B5') && s.proposed_result ? s : null;
    }, 30000);
    assert.equal(state.result_unit, 'stones');
    await until('the margin in stones', async () => (await page.textContent('.count .margin')).includes('stone'));
    const proposed = await until('the proposed result in the header', () => page.textContent('header .result').catch(() => null));
    assert.ok(proposed.startsWith(`${state.proposed_result} stone`), proposed);
    await screenshot(page, 'viewer-counting');
    await post(daemon, `/api/v1/boards/${id}/confirm-result`, {});
    const final = await until('the final result public', async () => {
      const s = await daemon.json(`/api/v1/boards/${id}`);
      return s.result ? s : null;
    }, 30000);
    await until('the final result on the viewer', async () => (await page.textContent('header .result')) === `${final.result} stones`);
    const hall = await openPage(browser, `${daemon.base}/`);
    await until('the result in the hall', async () => (await hall.textContent(`.tile[data-board="${id}"] .phase`).catch(() => '')) === `${final.result} stones`);
    const overlay = await openPage(browser, `${daemon.base}/overlay/${id}`, { viewport: { width: 400, height: 600 } });
    await until('the overlay result', async () => (await overlay.textContent('.result').catch(() => '')) === `${final.result} stones`);
    const look = await overlay.$eval('.result', (r) => getComputedStyle(r).color);
    assert.equal(look, 'rgb(255, 255, 255)', 'white on the dark strip');
    const box = await overlay.$eval('.overlay', (o) => { const r = o.getBoundingClientRect(); return { left: r.left, right: r.right }; });
    assert.ok(box.left >= 0 && box.right <= 400, `the overlay fits a 400 px page: ${JSON.stringify(box)}`);
    await screenshot(overlay, 'overlay-400');
  });

  test('an unknown board gets a page, not JSON', async () => {
    const page = await openPage(browser, `${daemon.base}/board/nope`);
    assert.match(await page.textContent('h1'), /No board “nope” here/);
    assert.ok(await page.$(`a[href="/board/${id}"]`), 'links the boards there are');
  });
});

describe('warnings and penalties on the demo, and the demo says analysis is on', { skip }, () => {
  let daemon;
  let browser;
  before(async () => {
    daemon = await startDemo({ boards: 1, speed: 6 });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  test('the demo says at start which engine analyses', async () => {
    await until('the banner', () => daemon.output.includes('analysis:'));
    assert.match(daemon.output, /analysis: +on: .*gnugo/);
  });

  test('a sanctioned alert shows with the warnings', async () => {
    const { board, alert } = await alertWithEvidence(daemon, TOKEN);
    await post(daemon, `/api/v1/boards/${board}/infractions/${alert.id}/ruling`, { action: 'sanction', note: 'browser test' });
    const page = await openPage(browser, `${daemon.base}/board/${board}`);
    const item = await until('the penalty listed', () => page.$eval(`.penalties .sanctions li[data-kind="${alert.kind}"]`, (li) => li.textContent).catch(() => null), 30000);
    assert.match(item, new RegExp(`move ${alert.move_number}`));
    const state = await daemon.json(`/api/v1/boards/${board}`);
    const warnings = await page.$eval('.penalties .warnings', (p) => ({ black: Number(p.dataset.black), white: Number(p.dataset.white) }));
    assert.deepEqual(warnings, { black: state.warnings.black, white: state.warnings.white });
    await screenshot(page, 'viewer-penalties');
  });
});
