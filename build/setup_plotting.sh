#!/usr/bin/env bash
# Installs matplotlib into .venv when missing: the playground's gallery has plotting examples, and
# tests/engine/test_web_examples.py and the browser suite run them natively too. The version is
# the one Pyodide 0.27.7 ships, so both sides draw with the same library.
set -euo pipefail
cd "$(dirname "$0")/.."
MATPLOTLIB_VERSION=3.8.4
PYPARSING_VERSION=3.1.2   # newer ones warn on every import of this matplotlib
bash build/setup_python.sh
if ! .venv/bin/python -c "import matplotlib" 2>/dev/null; then
  echo "setup: installing matplotlib==$MATPLOTLIB_VERSION into .venv" >&2
  .venv/bin/python -m pip install -q --disable-pip-version-check \
    "matplotlib==$MATPLOTLIB_VERSION" "pyparsing==$PYPARSING_VERSION" >&2
fi
