#!/usr/bin/env bash
# `npm start`: builds dist/ when missing or stale, then serves it on http://127.0.0.1:${PORT:-8000}/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash build/build.sh --if-stale
exec node build/serve.mjs --port "${PORT:-8000}"
