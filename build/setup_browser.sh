#!/usr/bin/env bash
# Installs what the headless-browser benchmark needs, when missing: Debian's Chromium (apt, as root)
# and Python Playwright in .venv (its driver ships in the wheel; it never downloads a browser).
set -euo pipefail
cd "$(dirname "$0")/.."
PLAYWRIGHT_VERSION=1.64.1
if [ ! -x /usr/bin/chromium ]; then
  echo "setup: installing Debian chromium" >&2
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium >&2
fi
bash build/setup_python.sh
if ! .venv/bin/python -c "import playwright" 2>/dev/null; then
  echo "setup: installing playwright==$PLAYWRIGHT_VERSION into .venv" >&2
  .venv/bin/python -m pip install -q --disable-pip-version-check "playwright==$PLAYWRIGHT_VERSION" >&2
fi
