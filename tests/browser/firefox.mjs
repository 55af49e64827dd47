// Firefox through its own WebDriver BiDi endpoint (no geckodriver, no Playwright build of Firefox):
// playwright-core 1.65's BiDi path sends emulation.setMediaFeaturesOverride, which Debian's
// firefox-esr 153 does not know, so a few BiDi commands are sent here directly.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TOKEN, until } from './support.mjs';

export const FIREFOX = process.env.FIREFOX || '/usr/bin/firefox-esr';

/** Why Firefox cannot run here, or null (Node's WebSocket is built in from Node 22, a flag before). */
export function firefoxMissing() {
  if (!existsSync(FIREFOX)) return `no Firefox at ${FIREFOX} (apt-get install firefox-esr)`;
  if (typeof WebSocket === 'undefined') return 'no WebSocket in this Node (Node 22, or node --experimental-websocket)';
  return null;
}

/** A headless Firefox with one tab; `goto(url)`, `evaluate(expression)` and the console errors it logged. */
export async function launchFirefox() {
  const profile = mkdtempSync(join(tmpdir(), 'goban-firefox-'));
  const proc = spawn(FIREFOX, ['--headless', '--no-remote', '--profile', profile, '--remote-debugging-port=0', 'about:blank'],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = await new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`Firefox did not start: ${output.slice(-1000)}`)), 60000);
    const read = (d) => {
      output += d;
      const m = output.match(/WebDriver BiDi listening on (ws:\/\/\S+)/);
      if (m) { clearTimeout(timer); ok(m[1]); }
    };
    proc.stdout.on('data', read);
    proc.stderr.on('data', read);
  });
  const socket = new WebSocket(`${url}/session`);
  await new Promise((ok, fail) => { socket.onopen = ok; socket.onerror = fail; });
  let id = 0;
  const waiting = new Map();
  const errors = [];
  socket.onmessage = ({ data }) => {
    const message = JSON.parse(data);
    if (message.id !== undefined) {
      const { ok, fail } = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.type === 'error') fail(new Error(`${message.error}: ${message.message}`));
      else ok(message.result);
    } else if (message.method === 'log.entryAdded' && message.params.level === 'error') {
      errors.push(message.params.text);
    }
  };
  const send = (method, params = {}) => new Promise((ok, fail) => {
    waiting.set(++id, { ok, fail });
    socket.send(JSON.stringify({ id, method, params }));
  });
  const session = await send('session.new', { capabilities: {} });
  await send('session.subscribe', { events: ['log.entryAdded'] });
  const { contexts } = await send('browsingContext.getTree', {});
  const context = contexts[0].context;
  return {
    version: session.capabilities.browserVersion,
    errors,
    goto: (to) => send('browsingContext.navigate', { context, url: to, wait: 'complete' }),
    /** The JSON value of `expression` (awaited if it is a promise). */
    async evaluate(expression) {
      const result = await send('script.evaluate', {
        expression: `(async () => JSON.stringify(await (${expression})))()`,
        target: { context },
        awaitPromise: true,
      });
      if (result.type === 'exception') throw new Error(result.exceptionDetails.text);
      return result.result.value === undefined ? undefined : JSON.parse(result.result.value);
    },
    async close() {
      await send('browser.close').catch(() => {});
      socket.close();
      if (proc.exitCode === null) await new Promise((ok) => { proc.on('exit', ok); setTimeout(() => { proc.kill('SIGKILL'); ok(); }, 10000); });
    },
  };
}

/** Types `value` into the input at `selector` as Preact sees it, and waits a frame for it to render. */
export async function type(firefox, selector, value) {
  await firefox.evaluate(`(() => {
    const input = document.querySelector(${JSON.stringify(selector)});
    input.value = ${JSON.stringify(value)};
    input.dispatchEvent(new Event('input', { bubbles: true }));
  })()`);
  await firefox.evaluate(`new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() => ok(true))))`);
}

/** Clicks the element at `selector`. */
export const click = (firefox, selector) => firefox.evaluate(`document.querySelector(${JSON.stringify(selector)}).click()`);

/** Whether an element matches `selector`. */
export const has = (firefox, selector) => firefox.evaluate(`Boolean(document.querySelector(${JSON.stringify(selector)}))`);

/** Enters the arbiter token at the login form when the console asks for it, and waits for the console. */
export async function logIn(firefox, token = TOKEN) {
  await until('the login form or the console', async () => (await has(firefox, '#token')) || has(firefox, '.console'));
  if (await has(firefox, '#token')) {
    await type(firefox, '#token', token);
    await click(firefox, 'button[type=submit]');
  }
  await until('the console', () => has(firefox, '.panel .board .shudan-vertex'));
}
