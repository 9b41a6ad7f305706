"""tapegrad.docs_runtime: the runtime files a docs site copies from a built dist/ (only what its
examples need, wheels deflated again, a lock that matches the files written, at most 25 MB)."""
import hashlib
import json
import sys
import zipfile

import pytest

from tapegrad import docs_runtime

pytestmark = pytest.mark.skipif(sys.platform == "emscripten", reason="writes folders of files")

PYODIDE = "pyodide-0.27.7"
# name: (depends, imports)
PACKAGES = {
    "numpy": ([], ["numpy"]),
    "tapegrad": (["numpy"], ["tapegrad"]),
    "networkx": ([], ["networkx"]),
    "six": ([], ["six"]),
    "matplotlib": (["numpy", "six"], ["matplotlib", "pylab"]),
    "pytest": ([], ["pytest", "_pytest"]),
}
# a module's text, repeated: deflates to a small fraction
MODULE = b"def f(x):\n    return x * x  # squared\n" * 400


def _sha(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _wheel(path, name, method=zipfile.ZIP_STORED):
    with zipfile.ZipFile(path, "w", compression=method) as z:
        z.writestr(f"{name}/", b"")
        z.writestr(f"{name}/__init__.py", MODULE)
        z.writestr(f"{name}-1.0.dist-info/RECORD", b"")


def stand_in_dist(root, stored=True):
    """A small stand-in for a built dist/: the element, worker, Pyodide's core, a memory snapshot,
    precompressed copies and source maps, six wheels (entries stored, as the build writes them,
    unless ``stored`` is false), the lock and build-info.json with every file's sha256."""
    pdir = root / PYODIDE
    (root / "assets").mkdir(parents=True)
    pdir.mkdir()
    texts = {"tapegrad-playground.js": '/* element */ new URL("assets/worker.js", b); css("tapegrad-playground.css")',
             "tapegrad-playground.css": "/* css */",
             "assets/worker.js": "/* worker */", "tapegrad-playground.js.map": "{}",
             "tapegrad-playground.js.br": "br", "index.html": "<!doctype html>",
             "boot/index.html": "<!doctype html>", "docs/embedding.css": "/* docs */"}
    for name in docs_runtime.CORE_FILES + ("pyodide.mjs", "snapshot.bin", "snapshot-libs.json"):
        texts[f"{PYODIDE}/{name}"] = f"/* {name} */"
    for rel, text in texts.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    lock = {"info": {"version": "0.27.7"}, "packages": {}}
    for name, (depends, imports) in PACKAGES.items():
        file_name = f"{name}-1.0-py3-none-any.whl"
        _wheel(pdir / file_name, name, zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED)
        lock["packages"][name] = {"name": name, "version": "1.0", "file_name": file_name,
                                  "install_dir": "site", "sha256": _sha(pdir / file_name),
                                  "package_type": "package", "imports": imports, "depends": depends}
    (pdir / "pyodide-lock.json").write_text(json.dumps(lock))
    files = {p.relative_to(root).as_posix(): _sha(p) for p in sorted(root.rglob("*")) if p.is_file()}
    (root / "build-info.json").write_text(json.dumps({"pyodide_dir": PYODIDE, "files": files}))
    return root


def _files(folder):
    return {p.relative_to(folder).as_posix(): p.stat().st_size for p in folder.rglob("*") if p.is_file()}


def test_modules_an_example_needs():
    assert docs_runtime.imported_modules("import tensorflow as tf\nfrom matplotlib import pyplot as plt\n"
                                         "from . import x\nimport numpy.linalg, os\n") \
        == {"tensorflow", "matplotlib", "numpy", "os"}
    assert docs_runtime.imported_modules("import networkx\nthis is not Python(") == {"networkx"}
    assert "networkx" in docs_runtime.needed_modules("g = tf.graph.build_graph(tape)")


def test_packages_are_the_boot_ones_and_those_the_examples_import():
    lock = json.loads(json.dumps({"packages": {n: {"depends": d, "imports": i}
                                               for n, (d, i) in PACKAGES.items()}}))
    assert docs_runtime.packages_for(lock, {"tensorflow", "keras", "os"}) == ["numpy", "tapegrad"]
    assert docs_runtime.packages_for(lock, {"pylab"}) == ["numpy", "tapegrad", "six", "matplotlib"]
    assert docs_runtime.packages_for(lock, {"networkx"}) == ["numpy", "tapegrad", "networkx"]


def test_copy_holds_only_what_the_examples_need(tmp_path):
    dist = stand_in_dist(tmp_path / "dist")
    target = tmp_path / "site" / "tapegrad"
    copy = docs_runtime.copy_runtime(dist, target, {"tensorflow"})
    wheels = [f"{PYODIDE}/numpy-1.0-py3-none-any.whl", f"{PYODIDE}/tapegrad-1.0-py3-none-any.whl"]
    expected = {"tapegrad-playground.js", "tapegrad-playground.css", "assets/worker.js",
                docs_runtime.MANIFEST, f"{PYODIDE}/pyodide-lock.json", *wheels,
                *(f"{PYODIDE}/{name}" for name in docs_runtime.CORE_FILES)}
    assert set(_files(target)) == expected            # no snapshot, .br/.gz copies, maps, pages
    assert copy.files == _files(target) and copy.bytes == sum(_files(target).values())
    assert copy.packages == ["numpy", "tapegrad"]
    assert f"{copy.bytes} bytes" in copy.summary()
    lock = json.loads((target / PYODIDE / "pyodide-lock.json").read_text())
    assert sorted(lock["packages"]) == ["numpy", "tapegrad"]
    for rel in wheels:                                 # deflated again; the lock matches the files
        name = rel.split("/")[1].split("-")[0]
        assert lock["packages"][name]["sha256"] == _sha(target / rel)
        with zipfile.ZipFile(target / rel) as new, zipfile.ZipFile(dist / rel) as old:
            assert [i.filename for i in new.infolist()] == [i.filename for i in old.infolist()]
            assert all(new.read(i.filename) == old.read(i.filename) for i in old.infolist())
            assert {i.compress_type for i in new.infolist() if i.file_size} == {zipfile.ZIP_DEFLATED}
        assert (target / rel).stat().st_size < (dist / rel).stat().st_size / 4


def test_the_element_files_are_those_its_script_loads(tmp_path):
    dist = stand_in_dist(tmp_path / "dist")
    (dist / "assets" / "worker-AB12CD34.js").write_text('importScripts("pyodide.js"); "assets/chunk.js"')
    (dist / "assets" / "chunk.js").write_text("/* a chunk */")
    (dist / "tapegrad-playground.js").write_text('new URL("assets/worker-AB12CD34.js"); "tapegrad-playground.css"; '
                                                 '"assets/missing.js"')
    assert docs_runtime.Dist(dist).element_files() == [
        "tapegrad-playground.js", "assets/worker-AB12CD34.js", "tapegrad-playground.css", "assets/chunk.js"]


def test_an_example_importing_matplotlib_brings_it_and_a_later_copy_drops_it(tmp_path):
    dist = stand_in_dist(tmp_path / "dist")
    target = tmp_path / "tapegrad"
    copy = docs_runtime.copy_runtime(dist, target, {"matplotlib"})
    assert copy.packages == ["numpy", "tapegrad", "six", "matplotlib"]
    assert (target / PYODIDE / "matplotlib-1.0-py3-none-any.whl").is_file()
    (target / "stale.txt").write_text("from an earlier copy")
    again = docs_runtime.copy_runtime(dist, target, set())
    assert again.packages == ["numpy", "tapegrad"]
    assert not (target / PYODIDE / "matplotlib-1.0-py3-none-any.whl").exists()
    assert not (target / "stale.txt").exists() and set(again.files) == set(_files(target))


def test_wheels_already_compressed_are_copied_as_they_are(tmp_path):
    dist = stand_in_dist(tmp_path / "dist", stored=False)
    target = tmp_path / "tapegrad"
    docs_runtime.copy_runtime(dist, target, set())
    rel = f"{PYODIDE}/numpy-1.0-py3-none-any.whl"
    assert (target / rel).read_bytes() == (dist / rel).read_bytes()
    lock = json.loads((target / PYODIDE / "pyodide-lock.json").read_text())
    assert lock["packages"]["numpy"]["sha256"] == _sha(dist / rel)


def test_a_dist_file_altered_since_the_build_is_refused(tmp_path):
    dist = stand_in_dist(tmp_path / "dist")
    (dist / PYODIDE / "pyodide.asm.wasm").write_text("altered")
    with pytest.raises(ValueError, match="pyodide.asm.wasm does not match its sha256 in the dist's build-info.json"):
        docs_runtime.copy_runtime(dist, tmp_path / "tapegrad", set())
    dist = stand_in_dist(tmp_path / "dist2")
    _wheel(dist / PYODIDE / "tapegrad-1.0-py3-none-any.whl", "other")
    (dist / "build-info.json").write_text(json.dumps({"pyodide_dir": PYODIDE}))
    with pytest.raises(ValueError, match="tapegrad-1.0-py3-none-any.whl does not match its sha256 in the dist's pyodide-lock.json"):
        docs_runtime.copy_runtime(dist, tmp_path / "tapegrad2", set())


def test_a_copy_over_the_limit_fails_saying_so(tmp_path):
    dist = stand_in_dist(tmp_path / "dist")
    with pytest.raises(docs_runtime.RuntimeTooLarge, match=r"over the 0 MB limit .*numpy, tapegrad"):
        docs_runtime.copy_runtime(dist, tmp_path / "tapegrad", set(), limit=1000)


def test_command_copies_what_the_markdown_pages_need(tmp_path, capsys):
    dist = stand_in_dist(tmp_path / "dist")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Plots\n\n```tapegrad readonly\nimport matplotlib.pyplot as plt\n```\n")
    (docs / "other.md").write_text("```python\nimport networkx\n```\n")      # not an example
    target = docs / "tapegrad"
    assert docs_runtime.main([str(dist), str(target), str(docs)]) == 0
    out = capsys.readouterr().out
    assert "packages: numpy, tapegrad, six, matplotlib" in out
    assert f"({sum(_files(target).values())} bytes)" in out
    assert (target / "docs-example.css").read_bytes() == docs_runtime.CSS.read_bytes()
    assert not (target / PYODIDE / "networkx-1.0-py3-none-any.whl").exists()
    assert docs_runtime.main([str(dist), str(target), str(docs), "--limit", "100"]) == 1
    assert "over the 0 MB limit" in capsys.readouterr().err
