#!/usr/bin/env node
// Precompressed copies of dist/'s files for build/serve.mjs, which sends each client the smallest
// its Accept-Encoding allows: FILE.br (brotli) and FILE.gz (gzip) beside FILE.
//
//   node build/precompress.mjs DIR [--cache CACHE_DIR]
//
// Every file of DIR (HTML, JavaScript, CSS, JSON, source maps, SVG, Python, text, WebAssembly, the
// snapshot, stored wheels...) gets both copies when gzip makes it at least MIN_SAVING smaller;
// files compressed already (deflated wheels, images) are left alone. Brotli runs at its best
// quality (11) on files up to BEST_UP_TO bytes and at quality 9 above (11 took 40 s for the
// 10 MB pyodide.asm.wasm, for 13% fewer bytes than 9). Copies are kept in CACHE_DIR by content
// hash, so a rebuild compresses only what changed. Prints the bytes before and after.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const MIN_SAVING = 0.05;
const BEST_UP_TO = 1 << 20;
const SKIP = /\.(gz|br|png|jpe?g|gif|webp|ico|woff2?)$/i;
const KEY = "v1";   // change when the settings above change

function filesUnder(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : e.isFile() && !SKIP.test(e.name) ? [p] : [];
  });
}

function brotli(bytes) {
  const large = bytes.length > BEST_UP_TO;
  return zlib.brotliCompressSync(bytes, { params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: large ? 9 : 11,
    [zlib.constants.BROTLI_PARAM_LGWIN]: large ? 24 : 22,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
  } });
}

/** The gzip and brotli copies of `bytes` ({gz, br}), or null when not worth sending. */
function compressed(bytes, cache) {
  const hash = crypto.createHash("sha256").update(bytes).digest("hex");
  const stem = cache && path.join(cache, `${hash}-${KEY}`);
  if (stem && fs.existsSync(`${stem}.none`)) return null;
  if (stem && fs.existsSync(`${stem}.gz`) && fs.existsSync(`${stem}.br`)) {
    return { gz: fs.readFileSync(`${stem}.gz`), br: fs.readFileSync(`${stem}.br`) };
  }
  const gz = zlib.gzipSync(bytes, { level: 9 });
  const worth = gz.length <= bytes.length * (1 - MIN_SAVING);
  const out = worth ? { gz, br: brotli(bytes) } : null;
  if (stem) {
    if (!out) fs.writeFileSync(`${stem}.none`, "");
    else for (const ext of ["gz", "br"]) {
      fs.writeFileSync(`${stem}.${ext}.part`, out[ext]);
      fs.renameSync(`${stem}.${ext}.part`, `${stem}.${ext}`);   // atomic: a concurrent build may win
    }
  }
  return out;
}

function main() {
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
  for (const file of filesUnder(dir)) {
    const bytes = fs.readFileSync(file);
    const out = compressed(bytes, cache);
    if (!out) continue;
    fs.writeFileSync(`${file}.gz`, out.gz);
    fs.writeFileSync(`${file}.br`, out.br);
    total.files += 1;
    total.bytes += bytes.length;
    total.gz += out.gz.length;
    total.br += out.br.length;
  }
  const mb = (n) => (n / 1e6).toFixed(1);
  console.error(`precompressed ${total.files} files: ${mb(total.bytes)} MB, gzip ${mb(total.gz)} MB, brotli ${mb(total.br)} MB`);
}

main();
