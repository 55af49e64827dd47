// The arbiter console's actions against `goban-bridge demo` with one table: rulings on an alert, its evidence,
// clock pause/resume/adjust, voiding and restoring a move, and the start-game form. Each is checked in the daemon.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ROOT, TOKEN, launch, missing, openPage, screenshot, startDemo, startSimulator, until } from './support.mjs';

const skip = missing() || false;

describe('arbiter console actions', { skip }, () => {
  let daemon;
  let browser;
  let page;
  const errors = [];
  const board = () => page.getAttribute('.panel', 'data-board');
  const state = async () => daemon.json(`/api/v1/boards/${await board()}`, TOKEN);
  const actions = async () => {
    const body = await daemon.json(`/api/v1/boards/${await board()}/audit`, TOKEN);
    return (Array.isArray(body) ? body : body.audit ?? []).map((a) => a.action);
  };
  const whiteMs = async () => {
    const { clock } = await state();
    return clock.white.main_ms + clock.white.period_ms;
  };

  before(async () => {
    daemon = await startDemo({ boards: 1, speed: 8 });
    browser = await launch();
    page = await openPage(browser, `${daemon.base}/arbiter`, { errors, viewport: { width: 1280, height: 1000 } });
    await page.fill('#token', TOKEN);
    await page.click('button[type=submit]');
    await page.waitForSelector('.panel .board .shudan-vertex');
  });
  after(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  /** Rules on the first open alert from its card, after stepping back through its evidence; answers its state. */
  const ruleFromCard = async (action, expected) => {
    const card = await page.waitForSelector('.alerts-col > .alerts .alert.open', { timeout: 120000 });
    const id = await card.getAttribute('data-alert');
    const selector = `.alert[data-alert="${id}"]`;
    // The evidence is a small board with the reading named; stepping back shows an earlier reading.
    assert.ok(await page.$(`${selector} .evidence svg`), 'the evidence board is drawn');
    const [, of] = (await page.textContent(`${selector} .evidence .nav span`)).split('/').map(Number);
    if (of > 1) {
      await page.click(`${selector} button[aria-label="earlier reading"]`);
      assert.equal(await page.textContent(`${selector} .evidence .nav span`), `${of - 1}/${of}`);
    }
    await page.fill(`${selector} .note input`, `browser test: ${action}`);
    await page.click(`${selector} .actions button:text-is("${action}")`);
    const ruled = await until(`the alert ${expected}`, async () => (await state()).infractions.find((i) => i.id === id && i.status === expected));
    assert.equal(ruled.note, `browser test: ${action}`);
    await page.waitForSelector(`.alerts-col > .alerts ${selector}`, { state: 'detached' });
    return ruled;
  };

  test('the first alert is confirmed from its card', async () => {
    await ruleFromCard('confirm', 'confirmed');
    await screenshot(page, 'arbiter-ruling');
  });

  test('the clock is paused, adjusted both ways and resumed', async () => {
    // An alert may have stopped the clock: start from a running one.
    if (await page.$('.clock-control button:text-is("resume clock")')) {
      await page.click('.clock-control button:text-is("resume clock")');
    }
    await page.click('.clock-control button:text-is("pause clock")');
    await until('the clock paused', async () => {
      const s = await state();
      return s.clock?.paused || s.phase === 'paused';
    });
    await page.waitForSelector('.clock-control button:text-is("resume clock")');
    // Paused, the time only changes by what the arbiter adds or takes.
    const before = await whiteMs();
    await page.selectOption('.clock-control select', 'white');
    await page.fill('.clock-control input[type=number]', '90');
    await page.click('.clock-control button:text-is("add")');
    await until('90 s added to White', async () => (await whiteMs()) === before + 90000);
    await page.fill('.clock-control input[type=number]', '30');
    await page.click('.clock-control button:text-is("take")');
    await until('30 s taken from White', async () => (await whiteMs()) === before + 60000);
    await page.click('.clock-control button:text-is("resume clock")');
    await until('the clock running again', async () => {
      const s = await state();
      return !s.clock?.paused && s.phase !== 'paused';
    });
    const done = await actions();
    for (const a of ['pause', 'adjust_clock', 'resume']) assert.ok(done.includes(a), `${a} in the audit trail: ${done}`);
  });

  test('a move is voided and restored', async () => {
    await page.fill('.move-control input', '2');
    await page.click('.move-control button:text-is("void")');
    await until('move 2 voided', async () => {
      const error = await page.$('.move-control .error');
      if (error) throw new Error(await error.textContent());
      return (await actions()).includes('void_move');
    });
    await page.click('.move-control button:text-is("restore")');
    await until('move 2 restored', async () => (await actions()).includes('restore_move'));
    assert.equal(await page.$('.move-control .error'), null);
  });

  test('the next alert is sanctioned from its card, and the sanction is in effect', async () => {
    const ruled = await ruleFromCard('sanction', 'sanctioned');
    assert.ok(ruled.sanction_applied, `sanction applied: ${JSON.stringify(ruled)}`);
  });

  test('the start-game form starts a game with its players, ruleset, komi, handicap and time control', async () => {
    const old = (await state()).game;
    await page.click('.panel details summary:text-is("start a new game")');
    const form = '.panel form.new-game';
    const field = (label) => `${form} label:has-text("${label}") input`;
    await page.fill(field('black player'), 'Nie Weiping');
    await page.fill(field('white player'), 'Cho Chikun');
    await page.fill(field('komi'), '6.5');
    await page.fill(field('handicap'), '0');
    await page.fill(field('time control'), 'byoyomi-jp:main=10m,periods=5,period=30s');
    await page.selectOption(`${form} select`, 'jk');
    assert.equal(await page.inputValue(field('komi')), '6.5', 'the ruleset brings its komi');
    // Over a game in play the form asks for force first.
    if (await page.$(`${form} input[name=force]`)) {
      assert.ok(await page.isDisabled(`${form} button[type=submit]`));
      await page.check(`${form} input[name=force]`);
    }
    await page.click(`${form} button[type=submit]`);
    const started = await until('the new game', async () => {
      const s = await state();
      return s.game !== old && s.black === 'Nie Weiping' ? s : null;
    });
    assert.equal(started.white, 'Cho Chikun');
    assert.equal(started.ruleset, 'jk');
    assert.equal(started.komi, 6.5);
    assert.ok((await actions()).includes('start_game'));
    await page.waitForSelector(`.panel h2:has-text("Nie Weiping")`);
    await screenshot(page, 'arbiter-new-game');
    assert.deepEqual(errors, []);
  });
});

/** Replaces the page's speech synthesis with a recorder of what it is asked to say (the daemon stays real). */
function recordSpeech() {
  window.spoken = [];
  const synth = {
    speak: (u) => window.spoken.push({ text: u.text, lang: u.lang }),
    cancel() {}, pause() {}, resume() {}, getVoices: () => [], addEventListener() {}, removeEventListener() {},
    speaking: false, pending: false, paused: false,
  };
  Object.defineProperty(window, 'speechSynthesis', { value: synth, configurable: true });
  if (!('SpeechSynthesisUtterance' in window)) {
    window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; } };
  }
}

/** The `clock_call` events of a board's SSE stream, as another client of the daemon sees them. */
function collectCalls(base, board) {
  const calls = [];
  const abort = new AbortController();
  (async () => {
    const response = await fetch(`${base}/api/v1/boards/${board}/events`, { headers: { Authorization: `Bearer ${TOKEN}` }, signal: abort.signal });
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body) {
      buffer += decoder.decode(chunk, { stream: true });
      const lines = buffer.split('\n');
      buffer = lines.pop();
      for (const line of lines.filter((l) => l.startsWith('data:'))) {
        const data = JSON.parse(line.slice(5));
        if (data.event === 'clock_call') calls.push(data);
      }
    }
  })().catch(() => {});
  return { calls, stop: () => abort.abort() };
}

describe('the spoken byo-yomi count-out', { skip }, () => {
  let sim;
  let daemon;
  let browser;
  let stream;
  before(async () => {
    // 20 s of main time: each side's "main time over" call comes within a minute of the start.
    sim = await startSimulator({
      games: join(ROOT, 'daemon/assets/games/AlphaGo-2.0-AG-vs-AG-G12-English.sgf'),
      speed: 4,
      timeControl: 'byoyomi-cn:main=20s,reserve=3,period=60s',
    });
    daemon = await sim.start();
    stream = collectCalls(daemon.base, await daemon.firstBoard());
    browser = await launch();
  });
  after(async () => {
    stream?.stop();
    await browser?.close();
    await daemon?.stop();
    await sim?.sim.stop();
  });

  test('speaks the referee\'s calls in Chinese, then in English', async () => {
    const board = await daemon.firstBoard();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript(recordSpeech);
    const page = await context.newPage();
    await page.goto(`${daemon.base}/arbiter`);
    await page.fill('#token', TOKEN);
    await page.click('button[type=submit]');
    await page.waitForSelector('.panel .board .shudan-vertex');
    await page.selectOption('header select >> nth=0', board);
    await page.selectOption('header select >> nth=1', 'zh');
    await page.check('header label:has-text("count-out voice") input');
    const spoken = () => page.evaluate(() => window.spoken);
    const first = await until('a call spoken', async () => (await spoken())[0], 90000);
    assert.equal(first.lang, 'zh-CN');
    const heard = await until('the call on the stream', async () => stream.calls[0]);
    assert.equal(first.text, heard.call_zh, `spoken ${first.text}, called ${JSON.stringify(heard)}`);
    // The next call (the other side's main time running out) in English.
    await page.selectOption('header select >> nth=1', 'en');
    const second = await until('a second call spoken', async () => (await spoken())[1], 90000);
    assert.equal(second.lang, 'en-GB');
    const next = await until('the second call on the stream', async () => stream.calls[1]);
    assert.equal(second.text, next.call);
    assert.notEqual(next.color, heard.color, 'one call per side');
  });
});
