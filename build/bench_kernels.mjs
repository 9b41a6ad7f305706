#!/usr/bin/env node
// `npm run bench:kernels`: the C kernels against NumPy (engine/bench/kernels.py) in every place the
// engine runs: natively (CPython), in Pyodide under Node (plain SIMD; and relaxed SIMD, which Node 20
// enables only with --experimental-wasm-relaxed-simd) and in Pyodide in headless Chromium (relaxed
// SIMD where the browser validates it). Builds what is missing first. The machine's load average is
// printed with each table: timings on a loaded machine are slower and noisier.
//
//   node build/bench_kernels.mjs [--quick] [--only matmul,fused] [--skip native,node,chromium]
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const argv = process.argv.slice(2);
const skipAt = argv.indexOf("--skip");
const skip = new Set(skipAt >= 0 ? (argv.splice(skipAt, 2)[1] ?? "").split(",") : []);
const benchArgs = argv;  // passed through: --quick, --only GROUPS
const py = path.join(ROOT, ".venv", "bin", "python");
const bench = path.join("engine", "bench", "kernels.py");

function loadavg() {
  try { return fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" "); }
  catch { return "unknown"; }
}

function run(title, cmd, args, env = {}) {
  console.log(`\n### ${title} (load average ${loadavg()})`);
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: "inherit", env: { ...process.env, ...env } });
  if (r.status !== 0) console.log(`(${title}: exit ${r.status ?? r.signal})`);
  return r.status === 0;
}

let ok = run("setup and build", "bash", ["-c", "bash build/setup_python.sh && bash build/build.sh --if-stale"]);
if (!ok) process.exit(1);
if (!skip.has("native")) ok = run("native CPython", py, [bench, ...benchArgs]) && ok;
if (!skip.has("node")) {
  ok = run("Pyodide in Node, plain SIMD", "node", ["build/run_in_pyodide.mjs", bench, ...benchArgs]) && ok;
  ok = run("Pyodide in Node, relaxed SIMD", "node",
           ["--experimental-wasm-relaxed-simd", "build/run_in_pyodide.mjs", bench, ...benchArgs]) && ok;
}
if (!skip.has("chromium")) {
  ok = run("setup headless Chromium", "bash", ["build/setup_browser.sh"]) && ok;
  ok = run("Pyodide in headless Chromium", py, ["tests/browser/bench_kernels.py", "--", ...benchArgs]) && ok;
}
process.exit(ok ? 0 : 1);
