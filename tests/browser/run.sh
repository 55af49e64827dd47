#!/usr/bin/env bash
# The browser step of .ci/run: the committed web bundle matches web/src, then the pages in headless Chromium
# against the real binary (tests/browser/README.md). Outside CI a missing Chromium or npm skips with a message;
# under CI=true they are installed from Debian, and anything still missing fails.
set -euo pipefail
cd "$(dirname "$0")/../.."

ci="${CI:-false}"
if [ "$ci" = true ]; then
  need=()
  command -v npm >/dev/null 2>&1 || need+=(nodejs npm)
  [ -x /usr/bin/chromium ] || need+=(chromium)
  [ -x /usr/bin/firefox-esr ] || need+=(firefox-esr)
  if [ ${#need[@]} -gt 0 ]; then
    echo "browser: installing ${need[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  fi
fi
if ! command -v npm >/dev/null 2>&1; then
  [ "$ci" = true ] && { echo "browser: npm missing under CI" >&2; exit 1; }
  echo "browser: SKIP (no npm; apt-get install nodejs npm)"; exit 0
fi
if [ ! -x /usr/bin/chromium ]; then
  [ "$ci" = true ] && { echo "browser: chromium missing under CI" >&2; exit 1; }
  echo "browser: SKIP (no /usr/bin/chromium; apt-get install chromium)"; exit 0
fi

(cd web && npm ci --no-audit --no-fund --loglevel=error && npm run --silent check && npm test)
(cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)
cargo build -p goban-bridge
cd tests/browser
# One file at a time: each starts its own daemon and simulated tables on 2 cores.
status=0
for file in pages.test.mjs console.test.mjs console-rulings.test.mjs token.test.mjs restart.test.mjs hall.test.mjs analysis.test.mjs; do
  timeout 300 node --test --test-reporter=spec "$file" || status=1
done
# Firefox speaks WebDriver BiDi over a WebSocket: built into Node from 22, behind a flag in Node 20.
ws=()
node -e 'process.exit(typeof WebSocket === "undefined" ? 1 : 0)' || ws=(--experimental-websocket)
for file in firefox.test.mjs firefox-more.test.mjs; do
  timeout 300 node "${ws[@]}" --test --test-reporter=spec "$file" || status=1
done
exit "$status"
