#!/usr/bin/env node
// Rewrites wheels into the form the page unpacks fastest at boot (measured: build/README.md):
//  - CPython 3.12 bytecode for every module (not under tests/), so Pyodide imports without
//    compiling source at each page load. It must come from Pyodide's own interpreter (magic number,
//    cache tag), so this boots the Pyodide being assembled, under Node. Each .py gets
//    __pycache__/NAME.cpython-312.pyc in "unchecked hash" mode: unpacking a wheel does not keep file
//    times, so the default timestamp check would always fail and recompile. The .py stays, for
//    tracebacks.
//  - entries stored, not deflated: Python's zlib inflating in WebAssembly in a just-started
//    interpreter was the slowest part of installing numpy. The server sends the wheel gzip-encoded,
//    which the browser inflates natively, so the transfer stays small.
//  - files matching a job's `drop` patterns left out (for numpy: type stubs, C headers, static
//    libraries, Cython declarations and f2py, none of which runs in a browser).
//
//   node build/prepare_wheels.mjs PYODIDE_DIR JOBS.json
//   JOBS.json: [{"in": "numpy-...whl", "out": "/path/out.whl", "drop": ["*.pyi", "numpy/f2py/*"]}, ...]
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [dir, jobsFile] = process.argv.slice(2);
if (!dir || !jobsFile) {
  console.error("usage: node build/prepare_wheels.mjs PYODIDE_DIR JOBS.json");
  process.exit(2);
}
const jobs = JSON.parse(fs.readFileSync(jobsFile, "utf8"));
const indexURL = path.resolve(dir) + path.sep;
const { loadPyodide } = await import(pathToFileURL(path.join(indexURL, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL });

const PREPARE = `
import base64, fnmatch, hashlib, importlib.util, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

EPOCH = (1980, 1, 1, 0, 0, 0)        # fixed entry times: the same input gives the same bytes

def _entry(name):
    info = zipfile.ZipInfo(name, EPOCH)
    info.compress_type = zipfile.ZIP_STORED
    info.external_attr = 0o644 << 16
    return info

def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"

def prepare(src, dst, drop):
    tag = sys.implementation.cache_tag
    with zipfile.ZipFile(src) as zin:
        names = zin.namelist()
        record = next(n for n in names if n.endswith(".dist-info/RECORD"))
        dropped = {n for n in names if n != record and any(fnmatch.fnmatch(n, p) for p in drop)}
        kept = [n for n in names if n not in dropped]
        compiled, skipped = {}, []
        for n in kept:
            if not n.endswith(".py") or "/tests/" in n:    # test suites are never imported here
                continue
            head, _, stem = n.rpartition("/")
            pyc = (head + "/" if head else "") + f"__pycache__/{stem[:-3]}.{tag}.pyc"
            if pyc in names:                                # compiled already
                continue
            source = zin.read(n)
            try:
                code = compile(source, n, "exec", dont_inherit=True)
            except SyntaxError:                     # e.g. test data written for another Python
                skipped.append(n)
                continue
            compiled[pyc] = bytes(_code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False))
        with zipfile.ZipFile(dst, "w") as zout:
            for n in kept:
                if n != record:
                    zout.writestr(_entry(n), zin.read(n))
            for n, data in compiled.items():
                zout.writestr(_entry(n), data)
            lines = [l for l in zin.read(record).decode().splitlines() if l.split(",", 1)[0] not in dropped]
            lines += [_record_line(n, d) for n, d in compiled.items()]
            zout.writestr(_entry(record), "\\n".join(lines) + "\\n")
    return len(compiled), len(dropped), skipped
`;
pyodide.runPython(PREPARE);
const prepare = pyodide.globals.get("prepare");
for (const job of jobs) {
  pyodide.FS.writeFile("/tmp/in.whl", fs.readFileSync(job.in));
  const [count, dropped, skipped] = prepare("/tmp/in.whl", "/tmp/out.whl", pyodide.toPy(job.drop ?? [])).toJs();
  fs.writeFileSync(job.out, pyodide.FS.readFile("/tmp/out.whl"));
  const notes = [`${count} modules compiled`];
  if (dropped) notes.push(`${dropped} files left out`);
  if (skipped.length) notes.push(`left as source, not valid Python 3.12: ${skipped.join(", ")}`);
  console.error(`prepare: ${path.basename(job.in)}: ${notes.join("; ")}`);
}
