#!/usr/bin/env bash
# `npm run build`: installs what is missing, then assembles dist/ (see build/build_dist.py).
# Extra arguments go to build_dist.py, e.g. --if-stale (skip when dist/ is current) or --offline.
set -euo pipefail
cd "$(dirname "$0")/.."
bash build/setup_python.sh
bash build/setup_node.sh
if ! .venv/bin/python -c "import setuptools, wheel" 2>/dev/null; then
  echo "setup: installing setuptools and wheel into .venv (to build the engine wheel offline)" >&2
  .venv/bin/python -m pip install -q --disable-pip-version-check setuptools wheel >&2
fi
exec .venv/bin/python build/build_dist.py "$@"
