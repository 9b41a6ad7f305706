#!/usr/bin/env node
// Writes a Pyodide memory snapshot: the interpreter's heap with the modules the playground's first
// run imports already loaded (NumPy, tapegrad, networkx and the stdlib modules they use). The page
// restores it instead of starting Python and importing them (the slowest part of a boot).
// Uses Pyodide's experimental _makeSnapshot API of 0.27.x; the page falls back to a plain boot
// when the snapshot cannot be used.
//
// 0.27's snapshot holds the heap, but neither the file system nor the shared libraries (NumPy's
// extension modules are WebAssembly instances of their own). OUT_FILE's sibling
// snapshot-libs.json records what the page needs to link the libraries the imports opened back
// in at the same places (web/src/snapshot-libs.js), and the snapshot's full length; the page
// still writes every package's files.
//
//   node build/make_snapshot.mjs PYODIDE_DIR OUT_FILE [--stdlib ZIP] [--package NAME ...] [--file SRC=DEST ...] [module ...]
//   (packages in install order: dependencies first; --file writes SRC into Pyodide's file system
//   at DEST before the imports, for a module the page writes there too, e.g. its runtime;
//   --stdlib: the standard library's zip the page gives Pyodide, python_stdlib.zip by default:
//   the snapshot holds zipimport's table of that file's entries, so the page must give the same)
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { storedZipEntries } from "../web/src/pyodide-boot.js";
import { recordLibraries } from "../web/src/snapshot-libs.js";
import { packSnapshot, restoreSparse, sparseHeader, sparseSnapshot } from "../web/src/snapshot-file.js";
import crypto from "node:crypto";

const [dir, out, ...rest] = process.argv.slice(2);
const option = (name) => rest.filter((a, i) => rest[i - 1] === name);
const packages = option("--package");
const files = option("--file").map((spec) => spec.split("="));
const stdLibURL = option("--stdlib")[0];
const modules = rest.filter((a, i) => !a.startsWith("--") && !rest[i - 1]?.startsWith("--"));
if (!dir || !out) {
  console.error("usage: node build/make_snapshot.mjs PYODIDE_DIR OUT_FILE [--package NAME ...] [--file SRC=DEST ...] [module ...]");
  process.exit(2);
}
const indexURL = path.resolve(dir) + path.sep;
const { loadPyodide } = await import(pathToFileURL(path.join(indexURL, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL, _makeSnapshot: true, ...(stdLibURL ? { stdLibURL: path.resolve(stdLibURL) } : {}) });
const Module = pyodide._module;
// Unpacked here rather than by loadPackage, which leaves JavaScript references that a snapshot
// cannot hold ("Unexpected hiwire entry"). The build stores the wheels' entries uncompressed.
const lock = JSON.parse(fs.readFileSync(path.join(indexURL, "pyodide-lock.json"), "utf8"));
const site = pyodide._api.sitepackages;
// Free function-table slots before the libraries' regions: a browser's start-up fills a slot that
// Node's does not (Chromium's: one more), and the libraries must find their regions free there.
const TABLE_RESERVE = 64;
Module.wasmTable.grow(TABLE_RESERVE);
const tableLengthBefore = Module.wasmTable.length;
for (const name of packages) {
  const entry = lock.packages[name];
  if (!entry) throw new Error(`package ${name} is not in pyodide-lock.json`);
  const missing = entry.depends.filter((d) => !packages.slice(0, packages.indexOf(name)).includes(d));
  if (missing.length) throw new Error(`package ${name} needs ${missing} installed before it (--package order)`);
  for (const [file, data] of storedZipEntries(fs.readFileSync(path.join(indexURL, entry.file_name)))) {
    pyodide.FS.mkdirTree(path.posix.dirname(`${site}/${file}`));
    pyodide.FS.writeFile(`${site}/${file}`, data);
  }
}
// Shared libraries are not preloaded (as Pyodide's installer would do, all of them): the imports
// open the ones they need (dlopen reads them from the file system), each with a handle in the
// heap where emscripten notes its memory and table base. The page does the same for the others,
// on first import (NumPy's random and fft modules, tests).
for (const [src, dest] of files) {
  if (!src || !dest) throw new Error("--file wants SRC=DEST");
  pyodide.FS.mkdirTree(path.posix.dirname(dest));
  pyodide.FS.writeFile(dest, fs.readFileSync(src));
}
pyodide.globals.set("_snapshot_modules", pyodide.toPy(modules));
// A file left open by an import (networkx's backend lookup keeps /lib/python312.zip open through
// importlib.metadata) must not be frozen: its descriptor lives in JavaScript, not in the snapshot,
// and closing the stale one later would close whatever file got that number (seen: matplotlib's
// font). Such files are closed and the caches holding them cleared; the check below makes sure.
pyodide.runPython(`
import gc, importlib, io
def _open_files():
    return {id(o): o for o in gc.get_objects() if isinstance(o, io.IOBase) and not o.closed}
_before = _open_files()
_m = _f = None
for _m in _snapshot_modules:
    importlib.import_module(_m)
import importlib.metadata
importlib.metadata.FastPath.__new__.cache_clear()
for _f in [f for k, f in _open_files().items() if k not in _before]:
    _f.close()
gc.collect()
_left = [f for k, f in _open_files().items() if k not in _before]
if _left:
    raise RuntimeError(f"files still open after the snapshot's imports: {_left}")
del _m, _f, _left, _before, _open_files, _snapshot_modules, gc, importlib, io
`);
const record = recordLibraries(Module, tableLengthBefore);
// Each library the snapshot links is also written beside it as a .wasm file of its own (served as
// application/wasm): the page compiles it while it streams in (and the browser may keep the
// compiled code with the cached file), without waiting for the whole wheel that ships it.
const outDir = path.dirname(out);
fs.rmSync(path.join(outDir, "snapshot-libs"), { recursive: true, force: true });
fs.mkdirSync(path.join(outDir, "snapshot-libs"));
for (const lib of record.libs) {
  const file = lib.name.startsWith(site + "/") ? lib.name.slice(site.length + 1) : null;
  const pkg = file && packages.find((p) => lock.packages[p].imports.some((i) => file.startsWith(i + "/")));
  if (!pkg) throw new Error(`snapshot: cannot tell which package ships ${lib.name}`);
  const bytes = pyodide.FS.readFile(lib.name);
  const url = `snapshot-libs/${path.posix.basename(file).replace(/\.so$/, "")}.wasm`;
  fs.writeFileSync(path.join(outDir, url), bytes);
  const sha256 = crypto.createHash("sha256").update(bytes).digest("hex");
  Object.assign(lib, { package: pkg, file, url, sha256 });
}
record.packages = packages;
// The imports leave freed memory behind (file contents read, code compiled, temporaries): zeroed,
// it costs the snapshot file nothing (zero pages are not stored, zero runs compress to nothing).
// Every free block malloc hands out below the heap's current end is zeroed, largest first, then
// all are freed again; a block from beyond the end (malloc grew the heap) ends that size. Pyodide's
// Python has no pymalloc, so this reaches every freed Python object too. Measured: 1.6 MB zeroed,
// 0.28 MB less brotli (docs/performance.md, "First-visit bytes, third pass").
pyodide.runPython(`
import ctypes, gc
def _zero_free_memory():
    gc.collect()
    libc = ctypes.CDLL(None)
    libc.malloc.restype, libc.malloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t]
    libc.free.argtypes = [ctypes.c_void_p]
    libc.sbrk.restype, libc.sbrk.argtypes = ctypes.c_void_p, [ctypes.c_ssize_t]
    end, held, size = libc.sbrk(0), [], 1 << 16
    while size >= 16:
        while (p := libc.malloc(size)) and p + size <= end:
            ctypes.memset(p, 0, size)
            held.append(p)
        if p:
            libc.free(p)
        size //= 2
    for p in held:
        libc.free(p)
    # (malloc may grow the heap once per size by up to its granularity; more means a fault here)
    if libc.sbrk(0) - end > 1 << 20:
        raise RuntimeError(f"zeroing the free memory grew the heap by {libc.sbrk(0) - end} bytes")
_zero_free_memory()
del _zero_free_memory, ctypes, gc
`);
const snapshot = pyodide.makeMemorySnapshot();
// The page sizes Pyodide's heap by it before the snapshot file has arrived (web/src/pyodide-boot.js).
record.snapshotLength = snapshot.length;

/** The heap as a page sees it when Pyodide restores a snapshot (the interpreter's static data,
 * before any of the snapshot is written): a second Pyodide is started on the snapshot and stopped
 * right there. Pages of the snapshot equal to it are not stored (web/src/snapshot-file.js). */
async function freshHeapAtRestore(bytes) {
  let fresh = null;
  const create = globalThis._createPyodideModule;
  globalThis._createPyodideModule = async (settings) => {
    const M = await create(settings);
    settings.API.restoreSnapshot = () => {
      fresh = M.HEAP8.slice();
      throw new Error("make_snapshot: the fresh heap is taken");
    };
    return M;
  };
  try {
    await loadPyodide({ indexURL, packages: [], _loadSnapshot: bytes, ...(stdLibURL ? { stdLibURL: path.resolve(stdLibURL) } : {}) });
  } catch (err) {
    if (!fresh) throw err;
  } finally {
    globalThis._createPyodideModule = create;
  }
  return new Uint8Array(fresh.buffer, fresh.byteOffset, fresh.byteLength);
}
const fresh = await freshHeapAtRestore(snapshot.slice());
const packed = packSnapshot(snapshot, fresh);
// The page's restore, into a copy of the fresh heap, must give the snapshot back.
const lazy = sparseSnapshot(packed.bytes);
const header = sparseHeader(lazy);
const heap = fresh.slice();
restoreSparse(heap, lazy);
const heapPart = snapshot.subarray(header.length);
if (lazy.length !== snapshot.length || !header.every((b, i) => b === snapshot[i]) ||
    !heapPart.every((b, i) => b === heap[i])) {
  throw new Error("snapshot: the sparse file does not give the snapshot back");
}
fs.writeFileSync(out, packed.bytes);
fs.writeFileSync(path.join(outDir, "snapshot-libs.json"), JSON.stringify(record) + "\n");
console.error(`snapshot: wrote ${out}: ${(packed.dataBytes / 1e6).toFixed(1)} MB of a ${(snapshot.length / 1e6).toFixed(1)} MB heap ` +
  `(zero pages and ${(packed.keptBytes / 1e6).toFixed(1)} MB the fresh heap holds left out); ${record.libs.length} shared libraries linked`);
