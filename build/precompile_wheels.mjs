#!/usr/bin/env node
// Adds CPython 3.12 bytecode to pure-Python modules of wheels, so Pyodide imports them without
// compiling source at every page load. Bytecode must come from Pyodide's own interpreter (its
// magic number and cache tag), so this boots the Pyodide being assembled under Node and compiles
// there. Each .py gets __pycache__/NAME.cpython-312.pyc in "unchecked hash" mode: the loader never
// compares it with the source (unpacking a wheel does not keep file times, so the default
// timestamp check would always fail and recompile). The .py files stay, for tracebacks; modules
// under tests/ folders get no bytecode (never imported in the page).
//
//   node build/precompile_wheels.mjs PYODIDE_DIR IN.whl:OUT.whl [IN2.whl:OUT2.whl ...]
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [dir, ...pairs] = process.argv.slice(2);
if (!dir || pairs.length === 0 || pairs.some((p) => !p.includes(":"))) {
  console.error("usage: node build/precompile_wheels.mjs PYODIDE_DIR IN.whl:OUT.whl [...]");
  process.exit(2);
}
const indexURL = path.resolve(dir) + path.sep;
const { loadPyodide } = await import(pathToFileURL(path.join(indexURL, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL });

const ADD_BYTECODE = `
import base64, hashlib, importlib.util, io, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

EPOCH = (1980, 1, 1, 0, 0, 0)        # fixed entry times: the same input gives the same bytes

def _entry(name):
    info = zipfile.ZipInfo(name, EPOCH)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    return info

def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"

def add_bytecode(src, dst):
    tag = sys.implementation.cache_tag
    with zipfile.ZipFile(src) as zin:
        names = zin.namelist()
        record = next(n for n in names if n.endswith(".dist-info/RECORD"))
        compiled, skipped = {}, []
        for n in names:
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
            for n in names:
                if n != record:
                    zout.writestr(_entry(n), zin.read(n), compresslevel=6)
            for n, data in compiled.items():
                zout.writestr(_entry(n), data, compresslevel=6)
            lines = zin.read(record).decode().splitlines()
            lines += [_record_line(n, d) for n, d in compiled.items()]
            zout.writestr(_entry(record), "\\n".join(lines) + "\\n", compresslevel=6)
    return len(compiled), skipped
`;
pyodide.runPython("import sys\n" + ADD_BYTECODE);
const addBytecode = pyodide.globals.get("add_bytecode");
for (const pair of pairs) {
  const i = pair.lastIndexOf(".whl:");
  const [src, dst] = [pair.slice(0, i + 4), pair.slice(i + 5)];
  pyodide.FS.writeFile("/tmp/in.whl", fs.readFileSync(src));
  const [count, skipped] = addBytecode("/tmp/in.whl", "/tmp/out.whl").toJs();
  fs.writeFileSync(dst, pyodide.FS.readFile("/tmp/out.whl"));
  const note = skipped.length ? ` (left as source, not valid Python 3.12: ${skipped.join(", ")})` : "";
  console.error(`precompile: ${path.basename(src)}: ${count} modules${note}`);
}
