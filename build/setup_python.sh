#!/usr/bin/env bash
# Creates .venv with the engine installed in editable mode and its dev tools, when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv" >&2
  "$PY" -m venv .venv
fi
stamp=.venv/.tapegrad-setup
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  echo "setup: installing tapegrad (editable) with dev extras" >&2
  # setuptools >= 77 reads the SPDX license in pyproject.toml (dist/ builds the wheel without isolation)
  .venv/bin/python -m pip install -q --upgrade pip "setuptools>=77" wheel >&2
  .venv/bin/python -m pip install -q -e ".[dev]" >&2
  # the MPI suite (tests/mpi): mpi4py and MPICH's wheel; where they cannot be installed it skips
  .venv/bin/python -m pip install -q -e ".[mpi]" >&2 ||
    echo "setup: mpi4py/mpich could not be installed: the MPI suite (tests/mpi) skips" >&2
  touch "$stamp"
fi
bash build/setup_toolchain.sh && bash wasm_kernels/build.sh --if-stale native engine/tapegrad/kernels
