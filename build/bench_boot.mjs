#!/usr/bin/env node
// Boot benchmark under Node.js: time from process start to a first computed gradient, booting
// Pyodide from dist/ the way the page does (the memory snapshot, with NumPy's shared libraries
// linked back in and the packages' files written: web/src/pyodide-boot.js) and, for comparison,
// a plain boot. Each run is a fresh process; Node keeps no HTTP or code cache, so
// "cold" is the first run and "warm" the later ones (only the OS file cache differs).
//
//   node build/bench_boot.mjs [--runs N]
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { STDLIB_SLIM, storedZipEntries, withLinkedLibraries } from "../web/src/pyodide-boot.js";
import { sparseSnapshot } from "../web/src/snapshot-file.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const FIRST_GRADIENT = `
import tapegrad as tf
x = tf.Variable(3.0)
with tf.GradientTape() as t:
    y = x * x
str(t.gradient(y, x))
`;

async function child(mode) {
  const info = JSON.parse(fs.readFileSync(path.join(ROOT, "dist", "build-info.json"), "utf8"));
  const indexURL = path.join(ROOT, "dist", info.pyodide_dir) + path.sep;
  const { loadPyodide } = await import(pathToFileURL(path.join(indexURL, "pyodide.mjs")).href);
  if (mode === "plain") return report(mode, await loadPyodide({ indexURL, packages: ["tapegrad"] }));
  const record = JSON.parse(fs.readFileSync(indexURL + "snapshot-libs.json", "utf8"));
  const lock = JSON.parse(fs.readFileSync(indexURL + "pyodide-lock.json", "utf8"));
  const files = Object.fromEntries(record.packages.map((name) =>
    [name, new Map(storedZipEntries(fs.readFileSync(indexURL + lock.packages[name].file_name)))]));
  const modules = {};
  for (const lib of record.libs) modules[lib.name] = await WebAssembly.compile(fs.readFileSync(indexURL + lib.url));
  await import(pathToFileURL(indexURL + "pyodide.asm.js").href);
  const snapshot = sparseSnapshot(fs.readFileSync(indexURL + "snapshot.bin"));
  const pyodide = await withLinkedLibraries({ record, modules }, snapshot, {}, () =>
    // the slim standard library the snapshot was taken with (web/src/pyodide-boot.js STDLIB_SLIM)
    loadPyodide({ indexURL, packages: [], _loadSnapshot: snapshot, stdLibURL: indexURL + STDLIB_SLIM }));
  const site = pyodide._api.sitepackages;
  for (const name of record.packages) {
    for (const [file, data] of files[name]) {
      pyodide.FS.mkdirTree(path.posix.dirname(`${site}/${file}`));
      pyodide.FS.writeFile(`${site}/${file}`, data);
    }
    pyodide.loadedPackages[name] = "default channel";
  }
  pyodide.runPython(`import sys; sys.path_importer_cache.pop(${JSON.stringify(site)}, None)`);
  report(mode, pyodide);
}

function report(mode, pyodide) {
  const booted = performance.now();
  const text = pyodide.runPython(FIRST_GRADIENT);
  // performance.now() counts from the start of this process.
  console.log(JSON.stringify({ mode, booted, gradient: performance.now(), text }));
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

async function main() {
  const i = process.argv.indexOf("--runs");
  const runs = i > 0 ? Number(process.argv[i + 1]) : 3;
  const self = fileURLToPath(import.meta.url);
  console.log(`Node.js ${process.version} (dist/ from ${path.join(ROOT, "dist")})`);
  for (const mode of ["snapshot", "plain"]) {
    const results = [];
    for (let r = 0; r < runs; r++) {
      const out = execFileSync(process.execPath, [self, "--child", mode], { encoding: "utf8" });
      results.push(JSON.parse(out.trim().split("\n").pop()));
    }
    const s = (ms) => (ms / 1000).toFixed(2);
    const warm = results.slice(1).map((r) => r.gradient);
    console.log(`  ${mode.padEnd(8)} first gradient: cold ${s(results[0].gradient)} s, warm median ` +
      `${warm.length ? s(median(warm)) : "-"} s (runs: ${results.map((r) => s(r.gradient)).join(", ")}; ` +
      `Pyodide+packages ready at ${s(median(results.map((r) => r.booted)))} s)`);
    if (mode === "snapshot") console.log(`  result: ${results[0].text}`);
  }
}

if (process.argv[2] === "--child") await child(process.argv[3]);
else await main();
