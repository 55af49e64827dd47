// The console's rulings as a team of two named arbiters in two Chromium pages, against the real binary reading a
// simulated table whose players think for a quarter of an hour: the late start (CN2002 22), "on my way" seen by the
// other arbiter, the filters and keys, seal and unseal, setting and correcting the result, the audit trail, warnings,
// the evidence board's coordinates, the printable result slip and the new-game form. Each is checked in the daemon.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { seriousViolations } from './axe.mjs';
import { ROOT, launch, missing, openPage, screenshot, startSimulator, until } from './support.mjs';

const skip = missing() || false;
const LI = 'console-li-wei-token';
const ANNA = 'console-anna-token';
const MINUTE = 60000;

describe('arbiter console rulings, two arbiters', { skip }, () => {
  let sim;
  let daemon;
  let browser;
  let li;
  let anna;
  let board;
  const errors = [];
  const state = async () => daemon.json(`/api/v1/boards/${board}`, LI);
  const audit = async () => (await daemon.json(`/api/v1/boards/${board}/audit`, LI)).audit;

  const login = async (token) => {
    const page = await openPage(browser, `${daemon.base}/arbiter`, { errors, viewport: { width: 1400, height: 1100 } });
    await page.fill('#token', token);
    await page.click('button[type=submit]');
    await page.waitForSelector('.panel .board .shudan-vertex');
    return page;
  };

  before(async () => {
    // Thinking takes at least 1000 s / speed: at 0.001 nobody moves during the test, so a late start applies.
    sim = await startSimulator({
      games: join(ROOT, 'daemon/assets/games/AlphaGo-2.0-AG-vs-AG-G12-English.sgf'),
      speed: 0.001,
      size: 19,
      timeControl: 'absolute:main=90m',
      configExtra: `[[server.arbiters]]\nname = "Li Wei"\ntoken = "${LI}"\n[[server.arbiters]]\nname = "Anna"\ntoken = "${ANNA}"\n`,
    });
    daemon = await sim.start();
    board = await daemon.firstBoard();
    await until('the game under way', async () => (await daemon.json(`/api/v1/boards/${board}`, LI)).phase === 'playing');
    browser = await launch();
    li = await login(LI);
    anna = await login(ANNA);
  });
  after(async () => {
    await browser?.close();
    await daemon?.stop();
    await sim?.sim.stop();
  });

  test('a 5-minute late start costs ten minutes and leaves nothing to rule (CN2002 22.2)', async () => {
    await li.selectOption('.late-start select', 'black');
    await li.fill('.late-start input[type=number]', '5');
    await li.fill('.late-start .note input', 'arrived at 9:05');
    await li.click('.late-start button:text-is("declare late")');
    const s = await until('the late start recorded', async () => {
      const now = await state();
      return now.infractions.find((i) => i.kind === 'late_start' && i.player === 'black') ? now : null;
    });
    const alert = s.infractions.find((i) => i.player === 'black');
    assert.equal(alert.status, 'sanctioned', 'closed at once: nothing left to confirm');
    assert.equal(alert.ruled_by, 'Li Wei');
    assert.ok(s.clock.black.main_ms <= 80 * MINUTE, `10 minutes taken: ${s.clock.black.main_ms}`);
    assert.equal(s.phase, 'playing', 'no forfeit within the limit');
    assert.equal(s.result ?? null, null);
    // The form now offers only White; the closed alert is not in the open list.
    await li.waitForSelector('.late-start select option[value="black"]', { state: 'detached' });
    assert.equal(await li.$(`.alerts-col > .alerts .alert[data-alert="${alert.id}"]`), null);
  });

  test('White 20 minutes late: an open alert advising the loss, seen by both arbiters with its evidence board', async () => {
    await li.fill('.late-start input[type=number]', '20');
    await li.click('.late-start button:text-is("declare late")');
    const alert = await until('the open late start', async () =>
      (await state()).infractions.find((i) => i.player === 'white' && i.status === 'open'));
    for (const page of [li, anna]) {
      const card = await page.waitForSelector(`.alerts-col > .alerts .alert[data-alert="${alert.id}"]`);
      assert.match(await card.textContent(), /late start/);
      // The evidence board is readable: letters and numbers around a 19-line board.
      const coords = await page.$$eval(`.alert[data-alert="${alert.id}"] .evidenceboard text.coord`, (t) => t.map((x) => x.textContent));
      assert.equal(coords.length, 4 * 19);
      assert.ok(coords.includes('T') && coords.includes('19') && !coords.includes('I'), coords.join(' '));
      // A late start is no stone of the record: no void or restore on its card.
      assert.equal(await page.$(`.alert[data-alert="${alert.id}"] button:has-text("void move")`), null);
    }
  });

  test('"on my way" names the taker to the other arbiter, who may take over; the filters follow', async () => {
    const id = (await state()).infractions.find((i) => i.status === 'open').id;
    const card = `.alert[data-alert="${id}"]`;
    assert.equal(await li.textContent('header .me strong'), 'Li Wei', 'the console knows whose token it holds');
    await li.click(`${card} button:text-is("on my way")`);
    await until('Li Wei on the way', async () => (await state()).infractions.find((i) => i.id === id).taken_by === 'Li Wei');
    await li.waitForSelector(`${card}[data-taken-by="Li Wei"] button:text-is("hand back")`);
    assert.equal(await li.$(`${card} button:text-is("take over")`), null, 'one\'s own alert is not taken over');
    // Anna's page hears it on the stream and shows who.
    await anna.waitForSelector(`${card}[data-taken-by="Li Wei"] .taken:has-text("Li Wei")`);
    assert.equal(await anna.$(`${card} button:text-is("on my way")`), null, 'taken: no second "on my way"');
    await anna.selectOption('.filters select[name=status]', 'waiting');
    await anna.waitForSelector(`.alerts-col > .alerts ${card}`, { state: 'detached' });
    await anna.selectOption('.filters select[name=status]', 'taken');
    await anna.waitForSelector(`.alerts-col > .alerts ${card}`);
    await anna.selectOption('.filters select[name=kind]', 'late_start');
    await anna.selectOption('.filters select[name=table]', board);
    await anna.waitForSelector(`.alerts-col > .alerts ${card}`);
    await anna.click(`${card} button:text-is("take over")`);
    await until('Anna on the way', async () => (await state()).infractions.find((i) => i.id === id).taken_by === 'Anna');
    await li.waitForSelector(`${card}[data-taken-by="Anna"]`);
    await screenshot(anna, 'console-taken');
    // The console with every new control on it passes axe.
    assert.deepEqual(await seriousViolations(li), []);
  });

  test('keys: "?" opens the help, "d" dismisses the selected alert', async () => {
    const id = (await state()).infractions.find((i) => i.status === 'open').id;
    await anna.click('.panel h2'); // the focus out of any field
    await anna.keyboard.press('?');
    await anna.waitForSelector('details.help[open] dt:text-is("declare late")');
    await anna.waitForSelector(`.alert.selected[data-alert="${id}"]`);
    await anna.keyboard.press('d');
    const ruled = await until('dismissed by key', async () => (await state()).infractions.find((i) => i.id === id && i.status === 'dismissed'));
    assert.equal(ruled.ruled_by, 'Anna');
    assert.equal((await state()).phase, 'playing', 'a dismissed late start loses nothing');
  });

  test('seal and unseal: the clock buttons only where they apply', async () => {
    await li.click('.seal-control button:text-is("seal move and adjourn")');
    await until('sealed', async () => (await state()).phase === 'paused');
    await li.waitForSelector('.seal-control button:text-is("unseal and resume")');
    assert.equal(await li.$('.clock-control button:text-is("resume clock")'), null, 'a sealed game resumes by unsealing');
    assert.equal(await li.$('.late-start'), null, 'after an adjournment the clock simply runs (22.1)');
    await li.click('.seal-control button:text-is("unseal and resume")');
    await until('playing again', async () => (await state()).phase === 'playing');
    const actions = (await audit()).map((e) => e.action);
    assert.deepEqual(actions.slice(-2), ['seal', 'unseal']);
  });

  test('the warnings of each player are on the board panel', async () => {
    const { warnings } = await state();
    const shown = await li.$eval('.panel .warnings', (e) => [e.dataset.black, e.dataset.white]);
    assert.deepEqual(shown, [String(warnings.black), String(warnings.white)]);
  });

  test('a result in play needs force; a correction follows; the finished game offers no clock or seal', async () => {
    await li.fill('.result-control label:has-text("result") input', 'B+R');
    assert.ok(await li.isDisabled('.result-control button[type=submit]'), 'no result on a game in play without force');
    await li.check('.result-control input[type=checkbox]');
    await li.fill('.result-control .note input', 'White resigned at the table');
    await li.click('.result-control button[type=submit]');
    await until('B+R', async () => (await state()).result === 'B+R');
    await li.waitForSelector('.result-control button:text-is("correct result")');
    await li.fill('.result-control label:has-text("result") input', 'W+R');
    await li.click('.result-control button[type=submit]');
    const s = await until('corrected to W+R', async () => ((await state()).result === 'W+R' ? await state() : null));
    assert.equal(s.phase, 'finished');
    for (const gone of ['.clock-control button:text-is("pause clock")', '.clock-control button:text-is("resume clock")', '.seal-control', '.late-start', '.move-control']) {
      await li.waitForSelector(gone, { state: 'detached' });
    }
  });

  test('the audit trail shows who ruled, when, what and the note', async () => {
    const trail = await audit();
    const set = trail.filter((e) => e.action === 'set_result');
    assert.equal(set.length, 2);
    const row = await li.waitForSelector(`.audit tr[data-number="${set[0].number}"]`);
    assert.equal(await row.$eval('.by', (e) => e.textContent), 'Li Wei');
    assert.equal(await row.$eval('.note', (e) => e.textContent), 'White resigned at the table');
    for (const [action, by] of [['late_start', 'Li Wei'], ['acknowledge', 'Anna'], ['ruling', 'Anna']]) {
      assert.ok(trail.some((e) => e.action === action && e.by === by), `${action} by ${by}`);
      assert.ok(await li.$(`.audit tr[data-action="${action}"]`), `${action} shown`);
    }
  });

  test('the result slip prints alone, with players, result, warnings and signature lines', async () => {
    const s = await state();
    assert.equal(await li.textContent('.slip .slip-result'), 'W+R');
    assert.equal(await li.textContent('.slip .slip-black'), s.black);
    assert.equal(await li.textContent('.slip .slip-arbiter'), 'Li Wei');
    assert.match(await li.textContent('.slip .signatures'), /Arbiter _+/);
    await li.emulateMedia({ media: 'print' });
    const shown = (sel) => li.$eval(sel, (e) => getComputedStyle(e).visibility);
    assert.equal(await shown('.slip .slip-result'), 'visible');
    assert.equal(await shown('.alerts-col'), 'hidden');
    assert.equal(await shown('.panel .board'), 'hidden');
    assert.equal(await li.$eval('.slip .no-print', (e) => getComputedStyle(e).display), 'none');
    await screenshot(li, 'console-result-slip');
    await li.emulateMedia({ media: 'screen' });
  });

  test('the new-game form: komi follows the ruleset, free handicap, and force over a game in play', async () => {
    const form = '.panel form.new-game';
    const komi = `${form} label:has-text("komi") input`;
    await li.click('.panel details summary:text-is("start a new game")');
    for (const [ruleset, expected] of [['jk', '6.5'], ['ing', '8'], ['historical', '0'], ['cn2002', '7.5']]) {
      await li.selectOption(`${form} select`, ruleset);
      assert.equal(await li.inputValue(komi), expected, `${ruleset} komi`);
    }
    assert.equal(await li.$(`${form} input[name=force]`), null, 'a finished game needs no force');
    await li.fill(`${form} label:has-text("handicap") input`, '3');
    await li.check(`${form} input[name=free_handicap]`);
    const old = (await state()).game;
    await li.click(`${form} button[type=submit]`);
    const started = await until('the handicap game', async () => {
      const s = await state();
      return s.game !== old && s.phase === 'playing' ? s : null;
    });
    const start = (await audit()).find((e) => e.action === 'start_game');
    assert.match(start.what, /3 handicap stones \(free placement\)/);
    // Over the game now in play, the form asks for force before it starts another.
    await li.waitForSelector(`${form} input[name=force]`);
    assert.ok(await li.isDisabled(`${form} button[type=submit]`));
    await li.check(`${form} input[name=force]`);
    await li.fill(`${form} label:has-text("handicap") input`, '0');
    await li.click(`${form} button[type=submit]`);
    await until('another game', async () => (await state()).game !== started.game);
    assert.deepEqual(errors, []);
  });
});
