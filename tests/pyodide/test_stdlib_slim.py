"""The page's slim standard library (build/build_dist.py make_slim_stdlib): made from the pinned
python_stdlib.zip and the measured list build/stdlib_kept.txt, with the hash the lock records; a
changed list stops the build naming the file and the lock entry."""
import json
import sys
import zipfile

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "build"))
import build_dist  # noqa: E402

FULL = ROOT / "node_modules" / "pyodide" / "python_stdlib.zip"
LOCK = json.loads((ROOT / "build" / "assets.lock.json").read_text())


@pytest.fixture(scope="module")
def full():
    if not FULL.is_file():
        pytest.fail(f"{FULL} is missing; run: npm ci")
    return FULL


def test_the_slim_zip_has_the_kept_modules_and_the_locked_hash(full, tmp_path):
    left_out = build_dist.make_slim_stdlib(full, tmp_path / "slim.zip", LOCK)
    kept = {line.strip() for line in build_dist.STDLIB_KEPT.read_text().splitlines()
            if line.strip() and not line.startswith("#")}
    with zipfile.ZipFile(tmp_path / "slim.zip") as z:
        modules = {build_dist.module_of(n) for n in z.namelist()} - {None}
        assert all(i.compress_type == zipfile.ZIP_STORED for i in z.infolist())   # brotli compresses the whole
    with zipfile.ZipFile(full) as z:
        everything = {build_dist.module_of(n) for n in z.namelist()} - {None}
    assert {"encodings", "encodings.utf_8", "json", "traceback", "_pyodide"} <= modules
    assert modules == {m for m in kept if m in everything}
    assert set(left_out) == everything - modules and "xmlrpc.client" in left_out


def test_a_changed_list_fails_naming_the_lock_entry(full, tmp_path, monkeypatch):
    changed = tmp_path / "kept.txt"
    changed.write_text(build_dist.STDLIB_KEPT.read_text() + "xmlrpc\n")
    monkeypatch.setattr(build_dist, "STDLIB_KEPT", changed)
    with pytest.raises(build_dist.BuildError, match="python_stdlib_slim.zip.*record the new hash"):
        build_dist.make_slim_stdlib(full, tmp_path / "slim.zip", LOCK)


def test_a_module_the_zip_lacks_fails_naming_it(full, tmp_path, monkeypatch):
    changed = tmp_path / "kept.txt"
    changed.write_text("json\nno_such_module\n")
    monkeypatch.setattr(build_dist, "STDLIB_KEPT", changed)
    with pytest.raises(build_dist.BuildError, match="no_such_module"):
        build_dist.make_slim_stdlib(full, tmp_path / "slim.zip", LOCK)
