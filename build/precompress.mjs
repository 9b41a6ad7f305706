#!/usr/bin/env node
// Precompressed copies of dist/'s files for build/serve.mjs, which sends each client the smallest
// its Accept-Encoding allows: FILE.br (brotli) and FILE.gz (gzip) beside FILE.
//
//   node build/precompress.mjs DIR [--cache CACHE_DIR]
//
// Every file of DIR (HTML, JavaScript, CSS, JSON, source maps, SVG, Python, text, WebAssembly, the
// snapshot, stored wheels...) gets both copies when gzip makes it at least MIN_SAVING smaller;
// files compressed already (deflated wheels, images) are left alone. Brotli runs at its best
// quality (11) on files up to BEST_UP_TO bytes and on the large files every first visit fetches
// before its first gradient (FIRST_VISIT: the snapshot, Pyodide's WebAssembly, the slim standard
// library, NumPy's libraries: 1.3 MB fewer than quality 9, docs/performance.md "First-visit bytes,
// third pass"), at quality 9 on the other large ones (the lazy wheels). Files are compressed in
// parallel (zlib's thread pool). Copies are kept in CACHE_DIR by content hash, so a rebuild
// compresses only what changed (the snapshot changes with every build: about 95 s at quality 11
// on one core). Prints the bytes before and after.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";

const MIN_SAVING = 0.05;
const BEST_UP_TO = 1 << 20;
const FIRST_VISIT = /(^|\/)(snapshot\.bin|pyodide\.asm\.wasm|python_stdlib_slim\.zip|snapshot-libs\/[^/]+\.wasm)$/;
// TAPEGRAD_BROTLI_BEST=0 treats those as the other large files (quality 9): for the test suite's
// throwaway builds (tests/pyodide/conftest.py), which check the build, not its compression.
const best = (file) => process.env.TAPEGRAD_BROTLI_BEST !== "0" && FIRST_VISIT.test(file);
const SKIP = /\.(gz|br|png|jpe?g|gif|webp|ico|woff2?)$/i;
const KEY = "v2";   // change when the settings above change

function filesUnder(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : e.isFile() && !SKIP.test(e.name) ? [p] : [];
  });
}

const gzip = promisify(zlib.gzip);
const brotliCompress = promisify(zlib.brotliCompress);

function brotli(file, bytes) {
  const large = bytes.length > BEST_UP_TO;
  return brotliCompress(bytes, { params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: !large || best(file) ? 11 : 9,
    [zlib.constants.BROTLI_PARAM_LGWIN]: large ? 24 : 22,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
  } });
}

/** The gzip and brotli copies of `file`'s `bytes` ({gz, br}), or null when not worth sending. */
async function compressed(file, bytes, cache) {
  const hash = crypto.createHash("sha256").update(bytes).digest("hex");
  const stem = cache && path.join(cache, `${hash}-${KEY}${best(file) ? "-best" : ""}`);
  if (stem && fs.existsSync(`${stem}.none`)) return null;
  if (stem && fs.existsSync(`${stem}.gz`) && fs.existsSync(`${stem}.br`)) {
    return { gz: fs.readFileSync(`${stem}.gz`), br: fs.readFileSync(`${stem}.br`) };
  }
  const gz = await gzip(bytes, { level: 9 });
  const worth = gz.length <= bytes.length * (1 - MIN_SAVING);
  const out = worth ? { gz, br: await brotli(file, bytes) } : null;
  if (stem) {
    if (!out) fs.writeFileSync(`${stem}.none`, "");
    else for (const ext of ["gz", "br"]) {
      fs.writeFileSync(`${stem}.${ext}.part`, out[ext]);
      fs.renameSync(`${stem}.${ext}.part`, `${stem}.${ext}`);   // atomic: a concurrent build may win
    }
  }
  return out;
}

async function main() {
  const args = process.argv.slice(2);
  const dir = args[0];
  const at = args.indexOf("--cache");
  const cache = at >= 0 ? args[at + 1] : null;
  if (!dir || !fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    console.error("usage: node build/precompress.mjs DIR [--cache CACHE_DIR]");
    process.exit(2);
  }
  if (cache) fs.mkdirSync(cache, { recursive: true });
  const total = { files: 0, bytes: 0, gz: 0, br: 0 };
  // Largest first, so that the longest compression (the snapshot) starts at once.
  const files = filesUnder(dir).map((file) => [file, fs.statSync(file).size]).sort((a, b) => b[1] - a[1]);
  await Promise.all(files.map(async ([file]) => {
    const bytes = fs.readFileSync(file);
    const out = await compressed(path.relative(dir, file), bytes, cache);
    if (!out) return;
    fs.writeFileSync(`${file}.gz`, out.gz);
    fs.writeFileSync(`${file}.br`, out.br);
    total.files += 1;
    total.bytes += bytes.length;
    total.gz += out.gz.length;
    total.br += out.br.length;
  }));
  const mb = (n) => (n / 1e6).toFixed(1);
  console.error(`precompressed ${total.files} files: ${mb(total.bytes)} MB, gzip ${mb(total.gz)} MB, brotli ${mb(total.br)} MB`);
}

await main();
