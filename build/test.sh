#!/usr/bin/env bash
# `npm test`: set up what is missing, then run every test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash build/setup_python.sh
echo "== engine tests (native CPython)"
.venv/bin/python -m pytest tests/engine
