#!/usr/bin/env bash
# Installs node_modules (the pyodide npm package) from package-lock.json when missing or stale.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci" >&2
  npm ci --no-audit --no-fund --loglevel=error >&2
fi
