// Builds src/ into dist/ (committed and embedded in the daemon binary); `--check` rebuilds into a
// temporary directory and fails when the committed dist/ differs, so the bundle cannot drift from its sources.
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const check = process.argv.includes('--check');
const outdir = check ? mkdtempSync(join(tmpdir(), 'goban-web-')) : 'dist';

await build({
  entryPoints: { app: 'src/main.jsx' },
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['chrome110', 'firefox110', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  loader: { '.png': 'dataurl', '.svg': 'dataurl' },
  legalComments: 'linked',
  outdir,
  logLevel: 'warning',
});

if (check) {
  let stale = [];
  const built = readdirSync(outdir).sort();
  const committed = readdirSync('dist').sort();
  if (built.join() !== committed.join()) stale.push(`files: built ${built} vs committed ${committed}`);
  for (const name of built) {
    const a = readFileSync(join(outdir, name));
    let b;
    try { b = readFileSync(join('dist', name)); } catch { b = Buffer.alloc(0); }
    if (!a.equals(b)) stale.push(name);
  }
  rmSync(outdir, { recursive: true, force: true });
  if (stale.length) {
    console.error(`web/dist is stale (${stale.join(', ')}): run \`npm ci && npm run build\` in web/ and commit dist/`);
    process.exit(1);
  }
  console.log('web/dist matches web/src');
}
