#!/usr/bin/env node
// Boot benchmark under Node.js: time from process start to a first computed gradient, booting
// Pyodide from dist/ the way the page does (memory snapshot + tapegrad preloaded) and, for
// comparison, a plain boot. Each run is a fresh process; Node keeps no HTTP or code cache, so
// "cold" is the first run and "warm" the later ones (only the OS file cache differs).
//
//   node build/bench_boot.mjs [--runs N]
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

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
  const opts = { indexURL, packages: ["tapegrad"] };
  if (mode === "snapshot") opts._loadSnapshot = fs.promises.readFile(indexURL + "snapshot.bin");
  const pyodide = await loadPyodide(opts);
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
