"""The runtime files a documentation site copies from a built tapegrad dist/ (tapegrad.sphinx,
tapegrad.markdown): only what its live examples need, at most ``LIMIT`` bytes as served.

What an example needs in the browser (``<tapegrad-playground>``, web/src/element.js):

- the element's script and stylesheet and its Python worker (``assets/worker.js``);
- Pyodide's core: ``pyodide.js``, ``pyodide.asm.js``, ``pyodide.asm.wasm``,
  ``python_stdlib.zip`` and a ``pyodide-lock.json`` that lists the copied packages only;
- the wheels of tapegrad and its dependencies (NumPy), and of the packages the site's examples
  import (matplotlib only where an example imports it; networkx where one imports it or calls
  ``build_graph``).

Not the memory snapshot (the page boots without it: Pyodide starts plain and installs the wheels),
not the precompressed ``.br``/``.gz`` copies (a plain static host serves the files as they are),
not the source maps. The dist/ stores its wheels' entries uncompressed (for the page's fast
install from the snapshot); the copy deflates them again, so their served size is 3-4 times
smaller, and its lock records the sha256 of the files it wrote (Pyodide checks a wheel against
it). Every file copied is first checked against the dist's records: build-info.json's sha256 and,
for a wheel, the dist lock's.

As a command (MkDocs: run it before ``mkdocs build``; the site publishes docs/tapegrad/)::

    python -m tapegrad.docs_runtime path/to/tapegrad/dist docs/tapegrad docs/

copies into docs/tapegrad/ what the ```` ```tapegrad ```` blocks of the Markdown files under docs/
need, with the pre-rendered output's stylesheet (docs-example.css), and prints the copy's size;
it exits 1, saying why, when the copy would weigh more than 25 MB.

>>> sorted(imported_modules("import numpy as np\\nfrom matplotlib import pyplot\\nimport os.path"))
['matplotlib', 'numpy', 'os']
"""
import argparse
import ast
import hashlib
import json
import os
import re
import shutil
import sys
import zipfile
from pathlib import Path

from .widget.docs_example import CSS

LIMIT = 25_000_000                 # bytes: the most a site's copy may weigh
MANIFEST = "docs-runtime.json"     # in the copy: what it holds, for the next build and for tests
ELEMENT_SCRIPT = "tapegrad-playground.js"
# what the element's script loads, named in it as a string: its stylesheet and its worker
# (today "tapegrad-playground.css" and "assets/worker.js")
_LOADED = re.compile(r"""["']((?:assets/)?[\w.-]+(?:/[\w.-]+)*\.(?:js|css))["']""")
CORE_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip")
BOOT_PACKAGES = ("tapegrad",)      # what the element's worker installs (and their dependencies)
# A fenced ```tapegrad block of a Markdown page (tapegrad.markdown).
FENCE = re.compile(r"^(?P<fence>`{3,}|~{3,})[ \t]*tapegrad(?P<opts>[^\n`]*)\n(?P<code>.*?)\n(?P=fence)[ \t]*$",
                   re.MULTILINE | re.DOTALL)
_IMPORT_LINE = re.compile(r"^\s*(?:from|import)\s+([A-Za-z_]\w*)", re.MULTILINE)
# Names in an example's code that need a package it does not import itself.
_NEEDS = {"build_graph": "networkx"}


class RuntimeTooLarge(Exception):
    """The copy a site needs is over the limit."""


def imported_modules(code):
    """The top-level modules ``code`` imports (anywhere in it); a line-based scan if it does not
    parse."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return set(_IMPORT_LINE.findall(code))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module.split(".")[0])
    return names


def needed_modules(code):
    """The modules an example needs: those it imports, and networkx where it calls build_graph."""
    names = imported_modules(code)
    names.update(module for word, module in _NEEDS.items() if word in code)
    return names


def _closure(lock, names):
    """``names`` (lock package names) and everything they depend on, dependencies first."""
    order = []

    def visit(name):
        if name in order:
            return
        if name not in lock["packages"]:
            raise KeyError(f"tapegrad docs runtime: package {name!r} is not in the dist's pyodide-lock.json")
        for dep in lock["packages"][name]["depends"]:
            visit(dep)
        order.append(name)
    for name in names:
        visit(name)
    return order


def packages_for(lock, modules):
    """The lock's packages a site needs: the element's boot packages and those that provide one
    of ``modules`` (top-level import names), with their dependencies."""
    providers = sorted(name for name, entry in lock["packages"].items()
                       if set(entry.get("imports", ())) & set(modules))
    return _closure(lock, list(BOOT_PACKAGES) + providers)


def _sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class Dist:
    """A built tapegrad dist/: its build record (build-info.json), Pyodide folder and lock."""

    def __init__(self, root):
        self.root = Path(root).resolve()
        if not (self.root / ELEMENT_SCRIPT).is_file():
            raise FileNotFoundError(f"tapegrad docs runtime: {self.root} is not a built tapegrad dist/ "
                                    f"(no {ELEMENT_SCRIPT}); build it with npm run build")
        info = self.root / "build-info.json"
        self.info = json.loads(info.read_text()) if info.is_file() else {}
        self.pyodide_dir = self.info.get("pyodide_dir") or self._find_pyodide_dir()
        self.lock = json.loads((self.root / self.pyodide_dir / "pyodide-lock.json").read_text())

    def _find_pyodide_dir(self):
        found = sorted(p.name for p in self.root.glob("pyodide-*") if (p / "pyodide-lock.json").is_file())
        if len(found) != 1:
            raise FileNotFoundError(f"tapegrad docs runtime: {self.root} holds no single Pyodide "
                                    f"folder with a pyodide-lock.json (found {found})")
        return found[0]

    def element_files(self):
        """The element's script and the files it loads (found in it by name, then in theirs)."""
        files, todo = [], [ELEMENT_SCRIPT]
        while todo:
            rel = todo.pop(0)
            if rel in files:
                continue
            files.append(rel)
            if rel.endswith(".js"):
                text = (self.root / rel).read_text(encoding="utf-8", errors="replace")
                todo += [name for name in _LOADED.findall(text) if (self.root / name).is_file()]
        return files

    def checked(self, rel, expected=None):
        """The sha256 of the dist's file ``rel``, checked against build-info.json's record and
        ``expected`` (a lock's); a mismatch means the dist was altered since it was built."""
        path = self.root / rel
        if not path.is_file():
            raise FileNotFoundError(f"tapegrad docs runtime: the dist has no {rel} ({path})")
        digest = _sha256(path)
        for record, where in ((self.info.get("files", {}).get(rel), "build-info.json"),
                              (expected, "pyodide-lock.json")):
            if record is not None and record != digest:
                raise ValueError(f"tapegrad docs runtime: {path} does not match its sha256 in the "
                                 f"dist's {where}; rebuild the dist (npm run build)")
        return digest


def _link_or_copy(src, dst):
    dst.parent.mkdir(parents=True, exist_ok=True)
    if dst.exists() or dst.is_symlink():
        dst.unlink()
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def _stored(src):
    """Whether a wheel has entries stored uncompressed (the dist's prepared wheels do)."""
    with zipfile.ZipFile(src) as z:
        return any(i.compress_type == zipfile.ZIP_STORED and i.file_size for i in z.infolist())


def _deflate_wheel(src, dst):
    """Writes ``src``'s entries, deflated, to ``dst`` (names, dates and modes kept)."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    part = dst.with_name(dst.name + ".part")
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(part, "w") as zout:
        for old in zin.infolist():
            new = zipfile.ZipInfo(old.filename, old.date_time)
            new.external_attr, new.create_system = old.external_attr, old.create_system
            data = zin.read(old)
            method = zipfile.ZIP_DEFLATED if data else zipfile.ZIP_STORED
            zout.writestr(new, data, compress_type=method, compresslevel=9)
    if dst.exists():
        dst.unlink()
    os.replace(part, dst)


def _copy_wheel(src, dst, source_sha, before):
    """Copies one wheel (deflated again where the dist stores it uncompressed); returns the
    sha256 of the file written. ``before``: the last copy's record of it (kept if still current)."""
    if before and before.get("source") == source_sha and dst.is_file() and _sha256(dst) == before["sha256"]:
        return before["sha256"]
    if _stored(src):
        _deflate_wheel(src, dst)
        return _sha256(dst)
    _link_or_copy(src, dst)
    return source_sha


class Copy:
    """What copy_runtime wrote: ``files`` (paths in the copy -> bytes), ``packages`` (the lock's
    package names copied) and ``bytes`` (their total, measured from the files)."""

    def __init__(self, target, files, packages):
        self.target, self.files, self.packages = target, files, packages
        self.bytes = sum(files.values())

    def summary(self):
        return (f"tapegrad docs runtime: {len(self.files)} files, {self.bytes / 1e6:.1f} MB "
                f"({self.bytes} bytes) in {self.target}; packages: {', '.join(self.packages)}")


def _read_manifest(target):
    try:
        return json.loads((target / MANIFEST).read_text()).get("files", {})
    except (OSError, ValueError):
        return {}


def _remove_others(target, keep):
    """Deletes the files under ``target`` that are not in ``keep`` (an earlier, larger copy's)."""
    for path in sorted(target.rglob("*"), reverse=True):
        rel = path.relative_to(target).as_posix()
        if path.is_dir() and not path.is_symlink():
            if not any(path.iterdir()):
                path.rmdir()
        elif rel not in keep:
            path.unlink()


def copy_runtime(dist, target, modules=(), limit=LIMIT, extra=()):
    """Copies into ``target`` (a folder of the site, emptied of anything else) the runtime files
    that the site's examples need from the built ``dist``: ``modules`` are the top-level modules
    the examples need (``needed_modules`` of each one's code); ``extra`` files are copied into
    ``target`` too. Returns a ``Copy``; raises RuntimeTooLarge when the files written weigh more
    than ``limit`` bytes."""
    dist = dist if isinstance(dist, Dist) else Dist(dist)
    target = Path(target)
    names = packages_for(dist.lock, modules)
    before = _read_manifest(target)
    record = {}
    for rel in [*dist.element_files(), *(f"{dist.pyodide_dir}/{name}" for name in CORE_FILES)]:
        digest = dist.checked(rel)
        _link_or_copy(dist.root / rel, target / rel)
        record[rel] = {"sha256": digest}
    for path in map(Path, extra):
        _link_or_copy(path, target / path.name)
        record[path.name] = {"sha256": _sha256(path)}
    lock = {"info": dist.lock["info"], "packages": {}}
    for name in names:
        entry = dict(dist.lock["packages"][name])
        rel = f"{dist.pyodide_dir}/{entry['file_name']}"
        source = dist.checked(rel, entry["sha256"])
        entry["sha256"] = _copy_wheel(dist.root / rel, target / rel, source, before.get(rel))
        lock["packages"][name] = entry
        record[rel] = {"sha256": entry["sha256"], "source": source}
    lock_rel = f"{dist.pyodide_dir}/pyodide-lock.json"
    (target / lock_rel).write_text(json.dumps(lock, indent=1) + "\n")
    (target / MANIFEST).write_text(json.dumps({"dist": str(dist.root), "packages": names,
                                               "files": record}, indent=1) + "\n")
    _remove_others(target, {*record, lock_rel, MANIFEST})
    files = {p.relative_to(target).as_posix(): p.stat().st_size
             for p in sorted(target.rglob("*")) if p.is_file()}
    copy = Copy(target, files, names)
    if copy.bytes > limit:
        biggest = ", ".join(f"{rel} {size / 1e6:.1f} MB" for rel, size in
                            sorted(files.items(), key=lambda kv: -kv[1])[:5])
        raise RuntimeTooLarge(f"tapegrad docs runtime: the copy in {target} weighs {copy.bytes / 1e6:.1f} MB, "
                              f"over the {limit / 1e6:.0f} MB limit (largest: {biggest}); the examples' "
                              f"imports asked for {', '.join(names)}. Serve a dist/ instead "
                              "(tapegrad_dist_url / dist_url)")
    return copy


def modules_in_markdown(paths):
    """The modules needed by the ```tapegrad blocks of the Markdown files at ``paths`` (files,
    or folders searched for *.md)."""
    modules = set()
    for path in map(Path, paths):
        for f in sorted(path.rglob("*.md")) if path.is_dir() else [path]:
            for m in FENCE.finditer(f.read_text(encoding="utf-8")):
                modules |= needed_modules(m.group("code"))
    return modules


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tapegrad.docs_runtime",
                                     description="Copy the tapegrad runtime files a docs site's "
                                                 "examples need from a built dist/.")
    parser.add_argument("dist", help="a built tapegrad dist/ (npm run build)")
    parser.add_argument("target", help="the folder to fill, e.g. docs/tapegrad (emptied of anything else)")
    parser.add_argument("pages", nargs="*", help="Markdown files or folders whose ```tapegrad blocks "
                                                 "say which packages to copy")
    parser.add_argument("--limit", type=int, default=LIMIT, help="most bytes allowed (default %(default)s)")
    args = parser.parse_args(argv)
    try:
        # the pre-rendered output's stylesheet, which tapegrad.markdown links beside the element
        copy = copy_runtime(args.dist, args.target, modules_in_markdown(args.pages), args.limit,
                            extra=[CSS])
    except (RuntimeTooLarge, FileNotFoundError, ValueError, KeyError) as err:
        print(err, file=sys.stderr)
        return 1
    print(copy.summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
