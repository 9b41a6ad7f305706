#!/usr/bin/env node
// Writes a Pyodide memory snapshot: the interpreter's heap right after start-up, with a few pure
// stdlib modules the engine imports already loaded. The page restores it instead of starting
// Python from scratch (the slowest part of a boot). Uses Pyodide's experimental _makeSnapshot API
// of 0.27.x; the page falls back to a plain boot when the snapshot cannot be used.
//
//   node build/make_snapshot.mjs PYODIDE_DIR OUT_FILE [module ...]
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [dir, out, ...modules] = process.argv.slice(2);
if (!dir || !out) {
  console.error("usage: node build/make_snapshot.mjs PYODIDE_DIR OUT_FILE [module ...]");
  process.exit(2);
}
const indexURL = path.resolve(dir) + path.sep;
const { loadPyodide } = await import(pathToFileURL(path.join(indexURL, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL, _makeSnapshot: true });
pyodide.globals.set("_snapshot_modules", pyodide.toPy(modules));
pyodide.runPython(`
import importlib
for _m in _snapshot_modules:
    importlib.import_module(_m)
del _m, _snapshot_modules, importlib
`);
const snapshot = pyodide.makeMemorySnapshot();
fs.writeFileSync(out, snapshot);
console.error(`snapshot: wrote ${out} (${(snapshot.length / 1e6).toFixed(1)} MB)`);
