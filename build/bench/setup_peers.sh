#!/usr/bin/env bash
# Installs the native peers listed in build/bench/peers.txt into .bench-venv/ (each on its own, so
# one failure does not stop the others) and writes .bench-venv/peers-status.json: per peer
# {"status": "ok", "version"} or {"status": "missing", "reason"}. A peer already installed with
# the same requirements is not reinstalled. BENCH_PEERS_FILE replaces peers.txt (for tests).
set -uo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-python3}
VENV=.bench-venv
if [ ! -x "$VENV/bin/python" ]; then
  echo "bench setup: creating $VENV" >&2
  "$PY" -m venv "$VENV" || { echo "bench setup: cannot create $VENV" >&2; exit 1; }
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check --upgrade pip >&2
fi
status_lines=()
while read -r name reqs; do
  case "$name" in ''|'#'*) continue ;; esac
  stamp="$VENV/.peer-$name"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$reqs" ]; then
    status_lines+=("$name ok")
    continue
  fi
  echo "bench setup: pip install $reqs" >&2
  # shellcheck disable=SC2086
  if log=$("$VENV/bin/python" -m pip install -q --disable-pip-version-check $reqs 2>&1); then
    echo "$reqs" > "$stamp"
    status_lines+=("$name ok")
  else
    rm -f "$stamp"
    reason=$(printf '%s\n' "$log" | grep -v '^\s*$' | tail -n 1 | cut -c1-240 | tr '\n' ' ' | tr -d '"\\')
    echo "bench setup: $name MISSING: $reason" >&2
    status_lines+=("$name missing pip install $reqs failed: $reason")
  fi
done < "${BENCH_PEERS_FILE:-build/bench/peers.txt}"
printf '%s\n' "${status_lines[@]}" | "$VENV/bin/python" -c '
import json, sys
from importlib import metadata
dists = {"torch": "torch", "tensorflow": "tensorflow-cpu", "jax": "jax", "autograd": "autograd",
         "micrograd": "micrograd"}
status = {}
for line in sys.stdin:
    name, state, *reason = line.rstrip("\n").split(" ", 2)
    if state == "ok":
        try:
            status[name] = {"status": "ok", "version": metadata.version(dists.get(name, name))}
        except metadata.PackageNotFoundError:
            status[name] = {"status": "missing", "reason": "installed but its distribution is not found"}
    else:
        status[name] = {"status": "missing", "reason": " ".join(reason)}
json.dump(status, open(".bench-venv/peers-status.json", "w"), indent=1)
print("bench setup: peers " + ", ".join("%s %s" % (k, v["status"]) for k, v in status.items()), file=sys.stderr)
'
