#!/usr/bin/env bash
# `npm run bench [-- --only W1,W3 --peers tapegrad,torch --no-browser|--browser-only]`: tapegrad side by
# side with its peers (issue 8). Installs what is missing: .venv (the engine), .bench-venv (the
# native peers, build/bench/peers.txt), Chromium + Playwright and build/bench/node_modules (TF.js)
# for the browser part, and dist/ (built if stale). Then runs engine/bench/peerbench/main.py, which
# prints the Markdown tables and writes bench-results/latest.json and latest.md.
set -euo pipefail
cd "$(dirname "$0")/.."
native=1 browser=1
for arg in "$@"; do
  case "$arg" in
    --no-browser) browser=0 ;;
    --browser-only) native=0 ;;
    -h|--help) native=0 browser=0 ;;
  esac
done
bash build/setup_python.sh
if [ "$native" = 1 ]; then
  bash build/bench/setup_peers.sh
fi
if [ "$browser" = 1 ]; then
  bash build/setup_browser.sh
  bash build/setup_node.sh
  if [ ! -f build/bench/node_modules/.package-lock.json ] \
     || [ build/bench/package-lock.json -nt build/bench/node_modules/.package-lock.json ]; then
    echo "bench setup: npm ci --prefix build/bench" >&2
    npm ci --prefix build/bench --no-audit --no-fund --loglevel=error >&2
  fi
  bash build/build.sh --if-stale
fi
PYTHONPATH="engine/bench${PYTHONPATH:+:$PYTHONPATH}" exec .venv/bin/python -m peerbench.main "$@"
