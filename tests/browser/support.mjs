// Test support: the real goban-bridge binary (demo, or simulate + run), headless Chromium, and a few waits.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = process.env.GOBAN_BRIDGE_BIN || join(process.env.CARGO_TARGET_DIR || join(ROOT, 'target'), 'debug/goban-bridge');
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const SHOTS = join(process.env.CARGO_TARGET_DIR || join(ROOT, 'target'), 'browser-screenshots');
export const TOKEN = 'browser-test-token';

/** Why the suite cannot run here, or null. Under CI=true a missing part is a failure, not a skip. */
export function missing() {
  let why = null;
  if (!existsSync(CHROMIUM)) why = `no Chromium at ${CHROMIUM} (apt-get install chromium)`;
  else if (!existsSync(BIN)) why = `no goban-bridge binary at ${BIN} (cargo build -p goban-bridge)`;
  if (why && process.env.CI === 'true') throw new Error(`browser tests cannot run under CI: ${why}`);
  if (why) console.log(`# SKIP browser tests: ${why}`);
  return why;
}

export async function freePort() {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => ok(port));
    });
    server.on('error', fail);
  });
}

export const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

/** Polls `probe` until it returns a truthy value or `ms` passed. */
export async function until(what, probe, ms = 30000, every = 250) {
  const deadline = Date.now() + ms;
  let last;
  while (Date.now() < deadline) {
    try {
      last = await probe();
      if (last) return last;
    } catch (error) {
      last = error;
    }
    await sleep(every);
  }
  throw new Error(`timed out waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)?.slice(0, 300)})`);
}

/** A child process whose output is kept, stopped with SIGTERM (then SIGKILL). */
class Child {
  constructor(name, args, env = {}) {
    this.name = name;
    this.output = '';
    this.proc = spawn(BIN, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc.stdout.on('data', (d) => (this.output += d));
    this.proc.stderr.on('data', (d) => (this.output += d));
    this.exited = new Promise((ok) => this.proc.on('exit', ok));
  }

  async stop() {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    this.proc.kill('SIGTERM');
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 10000);
    await this.exited;
    clearTimeout(timer);
  }
}

/** A daemon with its base URL; `json(path, token)` reads the API. */
export class Daemon extends Child {
  constructor(args, port, env) {
    super('goban-bridge', args, env);
    this.base = `http://127.0.0.1:${port}`;
  }

  async json(path, token) {
    const response = await fetch(this.base + path, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response.json();
  }

  /** The first board's id (GET /boards answers an array of states, or `{"boards": [...]}` before the slim state). */
  async firstBoard() {
    const body = await this.json('/api/v1/boards');
    return (Array.isArray(body) ? body : body.boards)[0].board;
  }

  async ready() {
    await until(`${this.name} at ${this.base}`, async () => {
      if (this.proc.exitCode !== null) throw new Error(`exited: ${this.output.slice(-2000)}`);
      return (await fetch(`${this.base}/api/v1/health`)).ok;
    }, 60000);
    return this;
  }
}

/** `goban-bridge demo` with `boards` simulated tables; `port` and the arbiter `token` may be given. */
export async function startDemo({ boards = 2, speed = 6, port, token = TOKEN } = {}) {
  port ??= await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'goban-browser-'));
  const daemon = new Daemon(
    ['demo', '--listen', `127.0.0.1:${port}`, '--boards', String(boards), '--speed', String(speed), '--journal', join(dir, 'demo.sqlite')],
    port,
    { GOBAN_ARBITER_TOKENS: token, RUST_LOG: 'warn' },
  );
  return daemon.ready();
}

/**
 * `goban-bridge simulate` on pseudo-terminals (kept across daemon restarts) and the config of a daemon reading them;
 * `server` adds lines to `[server]`, `extra` and `configExtra` append sections (`[analysis]`, `[tournament]`, `[[server.arbiters]]`).
 */
export async function startSimulator({
  games, boards = 1, speed = 4, size = 19, timeControl = 'byoyomi-cn:main=20m,reserve=3,period=30s', server = '', extra = '', configExtra = '',
}) {
  const dir = mkdtempSync(join(tmpdir(), 'goban-browser-sim-'));
  const ports = join(dir, 'ports');
  mkdirSync(ports);
  const sim = new Child('simulator', ['simulate', '--games', games, '--boards', String(boards), '--speed', String(speed), '--dir', ports]);
  await until('simulated tables', () => sim.output.includes('\t'), 30000);
  const port = await freePort();
  let config = `[server]\nlisten = "127.0.0.1:${port}"\narbiter_tokens = ["${TOKEN}"]\n${server}[journal]\npath = "${join(dir, 'journal.sqlite')}"\n`;
  for (const line of sim.output.split('\n').filter((l) => l.includes('\t'))) {
    const [name, , boardPort, clockPort] = line.split('\t');
    config += `[[board]]\nid = "${name}"\nboard_port = "${boardPort}"\nclock_port = "${clockPort ?? boardPort}"\nsize = ${size}\n`
      + `autostart = true\ntime_control = "${timeControl}"\nblack = "Black Player"\nwhite = "White Player"\n`;
  }
  const configPath = join(dir, 'goban.toml');
  writeFileSync(configPath, config + extra + configExtra);
  return {
    sim,
    port,
    start: () => new Daemon(['run', '--config', configPath], port, { RUST_LOG: 'warn' }).ready(),
  };
}

/** Headless Chromium through playwright-core, with console errors collected per page. */
export async function launch() {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

export async function openPage(browser, url, { viewport = { width: 1280, height: 900 }, errors = [] } = {}) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  return page;
}

export async function screenshot(page, name) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

/** The stones a Shudan board shows, as the API's position string (row-major, "." "B" "W"). */
export async function shownPosition(page, selector = '.board') {
  return page.$eval(selector, (board) => {
    const vertices = [...board.querySelectorAll('.shudan-vertex')];
    const size = Math.round(Math.sqrt(vertices.length));
    const out = new Array(size * size).fill('.');
    for (const v of vertices) {
      const x = Number(v.dataset.x);
      const y = Number(v.dataset.y);
      if (v.classList.contains('shudan-sign_1')) out[y * size + x] = 'B';
      else if (v.classList.contains('shudan-sign_-1')) out[y * size + x] = 'W';
    }
    return out.join('');
  });
}

/** The API position with unreadable and other marks as empty, for comparison with the page. */
export const stonesOnly = (position) => position.replace(/[^BW]/g, '.');

const LETTERS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ';

/** "D4" as the row-major index the pages use (row 0 at the top, I skipped), as api.md writes points. */
export function indexOf(point, size) {
  return (size - Number(point.slice(1))) * size + LETTERS.indexOf(point[0]);
}

/**
 * What evidence line `k` of `lines` (api.md `infractions[].evidence`) should show: the stone and unreadable
 * indices of its board (the first line's `seen`, then every later `changed` up to line k) and its ringed points.
 */
export function expectedEvidence(lines, k, size) {
  const board = new Map();
  for (const line of lines.slice(0, k + 1)) {
    if (line.seen) board.clear();
    for (const [key, mark] of [['black', 'B'], ['white', 'W'], ['empty', '.'], ['unreadable', '?']]) {
      for (const p of (line.seen ?? line.changed)?.[key] || []) board.set(indexOf(p, size), mark);
    }
  }
  const of = (mark) => [...board].filter(([, m]) => m === mark).map(([i]) => i).sort((a, b) => a - b);
  return {
    black: of('B'),
    white: of('W'),
    unreadable: of('?'),
    ringed: (lines[k].points || []).map((p) => indexOf(p, size)).sort((a, b) => a - b),
  };
}

/**
 * A browser expression answering what the evidence board of alert `id` shows: its step and the stone,
 * unreadable and ringed point indices (the same shape as `expectedEvidence`). Works in Playwright and over BiDi.
 */
export function evidenceShown(id) {
  return `(() => {
    const box = document.querySelector('.alert[data-alert=${JSON.stringify(id)}] .evidence');
    if (!box) return null;
    const points = (sel) => [...box.querySelectorAll(sel)].map((e) => Number(e.dataset.point)).sort((a, b) => a - b);
    return {
      step: Number(box.dataset.step),
      black: points('svg circle.b'),
      white: points('svg circle.w'),
      unreadable: points('svg rect.unknown'),
      ringed: points('svg circle.highlight'),
    };
  })()`;
}

/** Waits for an open alert whose evidence shows a board and a change to it; answers `{ board, size, alert }`. */
export async function alertWithEvidence(daemon, token, ms = 120000) {
  return until('an open alert with evidence boards', async () => {
    const body = await daemon.json('/api/v1/boards', token);
    for (const summary of Array.isArray(body) ? body : body.boards) {
      const state = await daemon.json(`/api/v1/boards/${summary.board}`, token);
      for (const alert of state.infractions || []) {
        const changes = alert.evidence.filter((e) => e.changed).length;
        if (alert.status === 'open' && alert.evidence[0]?.seen && changes >= 1) return { board: summary.board, size: state.size, alert };
      }
    }
    return null;
  }, ms, 1000);
}
