"""Assembles the folder the browser peers are served from (build/bench/out/site/, git-ignored):

    index.html, bench_page.js, *_worker.js   build/bench/page/
    pyodide-<version>/                       dist/'s Pyodide with tapegrad's wheel (link; its name is
                                             dist/build-info.json's pyodide_dir)
    assets/                                  dist/'s page scripts (link): the kernel pool's workers
    site_config.js                           sets PYODIDE_DIR to that folder for pyodide_worker.js
    tfjs/, tfjs-backend-wasm/                the npm packages' dist folders (links; .wasm included)
    py/                                      peerbench's modules that run in Pyodide + manifest.json
    data/                                    each case's inputs from data.py, for TF.js
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np

from . import data
from .cases import BY_ID, LEARNING_RATE

ROOT = Path(__file__).resolve().parents[3]
PAGE = ROOT / "build" / "bench" / "page"
NODE_MODULES = ROOT / "build" / "bench" / "node_modules" / "@tensorflow"
SITE = ROOT / "build" / "bench" / "out" / "site"
PYODIDE_MODULES = ["__init__.py", "cases.py", "data.py", "timing.py", "peer_api.py", "run_peer.py",
                   "threads.py", "peers/__init__.py", "peers/tf_style.py", "peers/tapegrad_peer.py",
                   "peers/numpy_peer.py", "peers/kernel_probe.py"]


def _link(target: Path, link: Path) -> None:
    if not target.exists():
        raise SystemExit(f"bench: {target} is missing (run build/bench.sh, which installs it)")
    link.symlink_to(target, target_is_directory=target.is_dir())


def _case_inputs(case_id: str) -> tuple[dict, list[tuple[str, np.ndarray]]] | None:
    case = BY_ID[case_id]
    p = case.params
    if case.group in ("W2", "W3"):
        layers = data.mlp_params(p["sizes"])
        x, labels = data.mlp_batch(p["sizes"], p["batch"])
        arrays = [("x", x), ("labels", labels)]
        for i, (w, b) in enumerate(layers):
            arrays += [(f"w{i}", w), (f"b{i}", b)]
        return {"kind": "mlp", "layers": len(layers), "classes": p["sizes"][-1],
                "learning_rate": LEARNING_RATE}, arrays
    if case.group == "W4":
        a, b = data.gemm_operands(**p)
        return {"kind": "gemm", "transpose_a": p["transpose_a"], "transpose_b": p["transpose_b"]}, \
            [("a", a), ("b", b)]
    return None


def write_inputs(case_ids, folder: Path) -> None:
    """data/inputs.json (per case: kind, settings, arrays with dtype/shape/offset) and data/CASE.bin."""
    folder.mkdir(parents=True, exist_ok=True)
    specs = {}
    for case_id in case_ids:
        made = _case_inputs(case_id)
        if made is None:
            continue
        spec, arrays = made
        spec["arrays"], offset = [], 0
        with open(folder / f"{case_id}.bin", "wb") as f:
            for name, arr in arrays:
                arr = np.ascontiguousarray(arr)
                spec["arrays"].append({"name": name, "dtype": str(arr.dtype), "shape": list(arr.shape),
                                       "offset": offset})
                f.write(arr.tobytes())
                offset += arr.nbytes
        specs[case_id] = spec
    (folder / "inputs.json").write_text(json.dumps(specs, indent=1))


def assemble(case_ids, with_tfjs: bool = True) -> Path:
    info = json.loads((ROOT / "dist" / "build-info.json").read_text())
    if SITE.exists():
        shutil.rmtree(SITE)
    SITE.mkdir(parents=True)
    for f in PAGE.iterdir():
        shutil.copy(f, SITE / f.name)
    _link(ROOT / "dist" / info["pyodide_dir"], SITE / info["pyodide_dir"])
    _link(ROOT / "dist" / "assets", SITE / "assets")     # the kernel pool (all-threads column)
    (SITE / "site_config.js").write_text(f"self.PYODIDE_DIR = {json.dumps(info['pyodide_dir'] + '/')};\n")
    if with_tfjs:
        _link(NODE_MODULES / "tfjs" / "dist", SITE / "tfjs")
        _link(NODE_MODULES / "tfjs-backend-wasm" / "dist", SITE / "tfjs-backend-wasm")
    py = SITE / "py" / "peerbench"
    for rel in PYODIDE_MODULES:
        (py / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(Path(__file__).parent / rel, py / rel)
    (SITE / "py" / "manifest.json").write_text(json.dumps([f"peerbench/{r}" for r in PYODIDE_MODULES]))
    write_inputs(case_ids, SITE / "data")
    return SITE
