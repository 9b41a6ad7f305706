#!/usr/bin/env bash
# The checks that need a CUDA GPU, in one run, for a machine that has one (CI has none; `npm test`
# runs tests/gpu there and it skips, saying why). Needs CuPy, NumPy, networkx and pytest in the
# Python it runs with (PYTHON, default python3) and array-api-compat (pip, or wheels in .whl/).
#
#   bash build/gpu_check.sh            # logs and figures go to $OUT (default gpu-results/)
#
# 1. the GPU suite (tests/gpu) on CuPy;
# 2. the engine's seed, op and tape tests with TAPEGRAD_ARRAY_NAMESPACE=cupy (values on the device);
# 3. the GPU benchmark rows (engine/bench/gpu_w3w4.py: W3 and W4).
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
OUT=${OUT:-gpu-results}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
if ls .whl/*.whl >/dev/null 2>&1; then
  "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/gpu-site .whl/*.whl || exit 1
  export PYTHONPATH=/tmp/gpu-site
fi
export PYTHONPATH=$PWD/engine${PYTHONPATH:+:$PYTHONPATH}
status=0

echo "== machine"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || status=1
"$PY" -c "import sys, numpy, cupy; print('python', sys.version.split()[0], '| numpy', numpy.__version__,
'| cupy', cupy.__version__, '| CUDA runtime', cupy.cuda.runtime.runtimeGetVersion())" || status=1

echo "== 1. GPU suite (tests/gpu)"
"$PY" -m pytest -rsxX -p no:cacheprovider tests/gpu 2>&1 | tee "$OUT/gpu_suite.log" || status=1

echo "== 2. engine tests on CuPy (seeds, op tests, tape, gradient checks, backend seam)"
TAPEGRAD_ARRAY_NAMESPACE=cupy timeout "${ENGINE_LIMIT_S:-300}" "$PY" -m pytest -q -rfE \
  -p no:cacheprovider -W "ignore::UserWarning" \
  tests/engine/test_seeds.py tests/engine/test_ops_*.py tests/engine/test_tape.py \
  tests/engine/test_gradcheck.py tests/engine/test_backend_seam.py 2>&1 \
  | tee "$OUT/engine_on_cupy.log" || status=1

echo "== 3. GPU benchmark rows (W3, W4)"
"$PY" engine/bench/gpu_w3w4.py --repeat 20 2>&1 | tee "$OUT/gpu_w3w4.txt" || status=1
exit $status
