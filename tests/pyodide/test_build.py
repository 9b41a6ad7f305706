"""The dist/ build verifies every asset: a missing or altered file fails, naming the file."""
import json
import shutil
from pathlib import Path

from conftest import DIST, ROOT, copy_cache, run_build

LOCK = json.loads((ROOT / "build" / "assets.lock.json").read_text())


def test_dist_layout_and_lock(dist_info):
    pdir = DIST / dist_info["pyodide_dir"]
    assert (DIST / "index.html").is_file() and (DIST / "boot" / "worker.js").is_file()
    lock = json.loads((pdir / "pyodide-lock.json").read_text())
    assert lock["info"]["version"] == LOCK["pyodide"]["version"]
    for name in ("numpy", "networkx", "tapegrad", "pytest", "matplotlib", "micropip"):
        entry = lock["packages"][name]
        assert (pdir / entry["file_name"]).is_file(), name
    assert set(lock["packages"]["tapegrad"]["depends"]) >= {"numpy"}
    assert (pdir / "snapshot.bin").stat().st_size > 1_000_000  # boot snapshot made by the build
    # Nothing in the page or worker points at another host.
    for f in ("index.html", "boot/index.html", "boot/worker.js"):
        text = (DIST / f).read_text()
        assert "http://" not in text and "https://" not in text, f


def test_offline_rebuild_from_cache(tmp_path):
    cache = copy_cache(tmp_path / "cache")
    r = run_build("--offline", "--cache", cache, "--out", tmp_path / "dist")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "dist" / "build-info.json").is_file()


def test_corrupted_cached_wheel_fails_naming_it(tmp_path):
    cache = copy_cache(tmp_path / "cache")
    numpy = next((cache / "pyodide-packages").glob("numpy-*.whl"))
    data = bytearray(numpy.read_bytes())
    data[1000] ^= 0xFF
    numpy.write_bytes(bytes(data))
    r = run_build("--offline", "--cache", cache, "--out", tmp_path / "dist")
    assert r.returncode == 1
    assert "sha256 mismatch" in r.stderr and numpy.name in r.stderr, r.stderr
    assert not (tmp_path / "dist").exists()


def test_missing_pypi_wheel_fails_naming_it(tmp_path):
    cache = copy_cache(tmp_path / "cache")
    (cache / "wheels" / "networkx-3.4.2-py3-none-any.whl").unlink()
    r = run_build("--offline", "--cache", cache, "--out", tmp_path / "dist")
    assert r.returncode == 1
    assert "missing asset" in r.stderr and "networkx-3.4.2-py3-none-any.whl" in r.stderr, r.stderr


def test_altered_pyodide_core_fails_naming_it(tmp_path):
    cache = copy_cache(tmp_path / "cache")
    core = tmp_path / "pyodide"
    shutil.copytree(ROOT / "node_modules" / "pyodide", core)
    with open(core / "python_stdlib.zip", "ab") as f:
        f.write(b"x")
    r = run_build("--offline", "--cache", cache, "--pyodide-dir", core, "--out", tmp_path / "dist")
    assert r.returncode == 1
    assert "sha256 mismatch" in r.stderr and "python_stdlib.zip" in r.stderr, r.stderr


def test_missing_pyodide_core_file_fails_naming_it(tmp_path):
    cache = copy_cache(tmp_path / "cache")
    core = tmp_path / "pyodide"
    shutil.copytree(ROOT / "node_modules" / "pyodide", core)
    (core / "pyodide.asm.wasm").unlink()
    r = run_build("--offline", "--cache", cache, "--pyodide-dir", core, "--out", tmp_path / "dist")
    assert r.returncode == 1
    assert "missing asset" in r.stderr and "pyodide.asm.wasm" in r.stderr, r.stderr


def test_if_stale_skips_a_current_dist_and_rebuilds_an_altered_one(tmp_path):
    cache = copy_cache(tmp_path / "cache")
    out = tmp_path / "dist"
    assert run_build("--offline", "--cache", cache, "--out", out).returncode == 0
    r = run_build("--offline", "--if-stale", "--cache", cache, "--out", out)
    assert r.returncode == 0 and "up to date" in r.stderr, r.stderr
    (out / "boot" / "worker.js").write_text("tampered")
    r = run_build("--offline", "--if-stale", "--cache", cache, "--out", out)
    assert r.returncode == 0 and "worker.js" in r.stderr and "rebuilding" in r.stderr, r.stderr
    assert (out / "boot" / "worker.js").read_text() != "tampered"
