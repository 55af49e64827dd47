// The viewer, the arbiter console, the overlay and the hall in Firefox (Debian's firefox-esr over WebDriver BiDi),
// against `goban-bridge demo` with two simulated tables. The same checks as in Chromium, read from the DOM.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { click, firefoxMissing, has, launchFirefox, logIn } from './firefox.mjs';
import { TOKEN, alertWithEvidence, evidenceShown, expectedEvidence, missing, sleep, startDemo, stonesOnly, until } from './support.mjs';

function skipReason() {
  const why = missing() || firefoxMissing();
  if (why && process.env.CI === 'true') throw new Error(`Firefox tests cannot run under CI: ${why}`);
  if (why) console.log(`# SKIP Firefox tests: ${why}`);
  return why || false;
}

/** The stones of the Shudan board on the page, as the API's position string. */
const SHOWN = `(() => {
  const vertices = [...document.querySelectorAll('.board .shudan-vertex')];
  const size = Math.round(Math.sqrt(vertices.length));
  const out = new Array(size * size).fill('.');
  for (const v of vertices) {
    const i = Number(v.dataset.y) * size + Number(v.dataset.x);
    if (v.classList.contains('shudan-sign_1')) out[i] = 'B';
    else if (v.classList.contains('shudan-sign_-1')) out[i] = 'W';
  }
  return out.join('');
})()`;

describe('pages in Firefox', { skip: skipReason() }, () => {
  let daemon;
  let firefox;
  before(async () => {
    daemon = await startDemo({ boards: 2, speed: 6 });
    firefox = await launchFirefox();
  });
  after(async () => {
    await firefox?.close();
    await daemon?.stop();
  });

  test('the viewer shows the API position and its clock counts down', async () => {
    await firefox.goto(`${daemon.base}/board/table-1`);
    await until('the board drawn', () => firefox.evaluate(`document.querySelectorAll('.board .shudan-vertex').length === 361`));
    const agreed = await until('page and API to agree', async () => {
      const state = await daemon.json('/api/v1/boards/table-1');
      return state.move_number >= 3 && (await firefox.evaluate(SHOWN)) === stonesOnly(state.position) ? state : null;
    }, 60000, 100);
    assert.ok(agreed.position.includes('B'));
    // The move list comes from GET /moves and the moves events, the board from the state: wait for the list too.
    const listed = await until('three moves listed', async () => {
      const points = await firefox.evaluate(`[...document.querySelectorAll('.moves li')].map((li) => li.dataset.point)`);
      return points.length >= 3 ? points : null;
    });
    assert.deepEqual(listed.slice(0, 3), (await daemon.json('/api/v1/boards/table-1')).moves.slice(0, 3).map((m) => m.point));
    const read = `(() => { const c = document.querySelector('.clock.running'); return c && { color: c.dataset.color, ms: Number(c.dataset.ms) }; })()`;
    await until('a clock counting down', async () => {
      const a = await firefox.evaluate(read);
      await sleep(1500);
      const b = await firefox.evaluate(read);
      return a && b && a.color === b.color && a.ms - b.ms >= 1000 && a.ms - b.ms <= 2500;
    }, 60000, 0);
    assert.deepEqual(firefox.errors, []);
  });

  test('the overlay is transparent', async () => {
    await firefox.goto(`${daemon.base}/overlay/table-1?size=360&corner=tr`);
    await until('the overlay board', () => firefox.evaluate(`Boolean(document.querySelector('.overlay .board .shudan-vertex'))`));
    const colors = await firefox.evaluate(`[document.documentElement, document.body].map((e) => getComputedStyle(e).backgroundColor)`);
    assert.deepEqual(colors, ['rgba(0, 0, 0, 0)', 'rgba(0, 0, 0, 0)']);
  });

  test('the arbiter console takes the token and shows a board', async () => {
    await firefox.goto(`${daemon.base}/arbiter`);
    await until('the login form', () => firefox.evaluate(`Boolean(document.querySelector('#token'))`));
    await firefox.evaluate(`(() => {
      const input = document.querySelector('#token');
      input.value = ${JSON.stringify(TOKEN)};
      input.dispatchEvent(new Event('input', { bubbles: true }));
    })()`);
    // Preact renders the typed value on the next frame; the form submits what it rendered.
    await until('the token typed', () => firefox.evaluate(`new Promise((ok) => requestAnimationFrame(() => ok(true)))`));
    await firefox.evaluate(`document.querySelector('button[type=submit]').click()`);
    await until('the console', () => firefox.evaluate(`Boolean(document.querySelector('.panel .board .shudan-vertex'))`));
    assert.equal(await firefox.evaluate('location.search'), '');
    assert.equal(await firefox.evaluate(`sessionStorage.getItem('goban-bridge.arbiter-token')`), TOKEN);
    assert.deepEqual(firefox.errors, []);
  });

  test('an injected infraction shows its evidence board, stepping; dismissing it needs the token', async () => {
    const errors = firefox.errors.length;
    await firefox.goto(`${daemon.base}/arbiter`);
    await logIn(firefox);
    const { board, size, alert } = await alertWithEvidence(daemon, TOKEN);
    const selector = `.alert[data-alert="${alert.id}"]`;
    await until('the alert on the page', () => has(firefox, `${selector} .evidence svg`));
    // The evidence, from the latest line back to the oldest: each line's board and points as the API has them.
    const lines = alert.evidence;
    const boards = new Set();
    for (let k = lines.length - 1; k >= 0; k--) {
      if (k < lines.length - 1) await click(firefox, `${selector} button[aria-label="earlier reading"]`);
      const shown = await until(`line ${k + 1} shown`, async () => {
        const s = await firefox.evaluate(evidenceShown(alert.id));
        return s?.step === k ? s : null;
      }, 10000, 50);
      const { step, ...drawn } = shown;
      assert.deepEqual(drawn, expectedEvidence(lines, k, size), `line ${k + 1}: ${lines[k].what}`);
      boards.add(JSON.stringify([drawn.black, drawn.white]));
    }
    assert.ok(boards.size >= 2, `stepping changes the board: ${boards.size}`);
    const status = async () => (await daemon.json(`/api/v1/boards/${board}`, TOKEN)).infractions.find((i) => i.id === alert.id)?.status;
    // Without a valid token the daemon refuses, the alert stays open, and the console asks for the token again.
    await firefox.evaluate(`sessionStorage.setItem('goban-bridge.arbiter-token', 'not-the-token')`);
    await click(firefox, `${selector} button.dismiss`);
    await until('the login form again', () => has(firefox, '.login .error'));
    assert.equal(await firefox.evaluate(`sessionStorage.getItem('goban-bridge.arbiter-token')`), null);
    assert.equal(await status(), 'open');
    // With it, the alert is dismissed, in the daemon and on the page.
    await logIn(firefox);
    await until('the alert again', () => has(firefox, `${selector} button.dismiss`));
    await click(firefox, `${selector} button.dismiss`);
    await until('the dismissal', async () => (await status()) === 'dismissed');
    await until('the card closed', async () => !(await has(firefox, `.alerts-col > .alerts ${selector}`)));
    // The refused requests log 401s; nothing else.
    assert.deepEqual(firefox.errors.slice(errors).filter((e) => !/401|Unauthorized/i.test(e)), []);
  });

  test('the hall shows both boards', async () => {
    await firefox.goto(`${daemon.base}/`);
    const tiles = await until('two tiles', async () => {
      const ids = await firefox.evaluate(`[...document.querySelectorAll('.tile')].map((t) => t.dataset.board)`);
      return ids.length === 2 ? ids.sort() : null;
    });
    assert.deepEqual(tiles, ['table-1', 'table-2']);
    await until('a drawn tile', () => firefox.evaluate(`Boolean(document.querySelector('.tile svg.miniboard'))`));
    assert.deepEqual(firefox.errors, []);
  });
});
