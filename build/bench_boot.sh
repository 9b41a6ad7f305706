#!/usr/bin/env bash
# `npm run bench:boot`: time from start to a first computed gradient, in Node.js and in headless
# Chromium (cold and warm). Installs Chromium and Playwright when missing, builds dist/ if stale.
set -euo pipefail
cd "$(dirname "$0")/.."
bash build/setup_browser.sh
bash build/build.sh --if-stale
node build/bench_boot.mjs --runs "${RUNS:-3}"
.venv/bin/python tests/browser/bench_boot.py --runs "${RUNS:-3}"
