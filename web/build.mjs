#!/usr/bin/env node
// Bundles the playground into a dist/ folder (called by build/build_dist.py):
//
//   node web/build.mjs --out DIR --pyodide-dir pyodide-0.27.7
//
// writes DIR/index.html                  the playground page (web/index.html)
//        DIR/assets/playground-HASH.{js,css}  its bundle (web/src/main.js and the CSS it imports)
//        DIR/assets/boot-HASH.js         the page's first script: starts the worker (web/src/early-boot.js)
//                                        (HASH: of the content; index.html names them)
//        DIR/assets/worker.js            the Python worker; finds Pyodide in DIR/<pyodide-dir>/
//        DIR/assets/kernel-pool-worker.js  the kernel pool's worker (web/src/kernel-pool.js)
//        DIR/tapegrad-playground.{js,css} the <tapegrad-playground> element (web/src/element.js)
//        DIR/docs/embedding.html         the sample documentation page (web/docs/)
//        DIR/boot/{index.html,page.js,boot.css,worker.js} the boot-check page the boot benchmark
//                                        opens (web/boot/)
//        DIR/sw.js                       the service worker that keeps this build for offline use
//                                        (web/src/offline/service-worker.js, with its file list)
// The gallery (web/examples/manifest.json + *.py) is compiled in as the module "virtual:examples",
// the Python runtime (web/python/playground_runtime/*.py) as "virtual:runtime".
//
//   node web/build.mjs --widget DIR
//
// writes only DIR/graph-widget.{js,css}: the graph panel (web/src/graph/) as the ES module of the
// notebook widget (tapegrad.widget, on anywidget). Its copy in engine/tapegrad/widget/static/ is
// committed (so `pip install` from a clone needs no Node); tests/engine/test_widget.py checks it
// is current: regenerate with `node web/build.mjs --widget engine/tapegrad/widget/static`.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const WEB = path.dirname(fileURLToPath(import.meta.url));

function parseArgs(argv) {
  const opts = { out: null, pyodideDir: null, widget: null };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--out") opts.out = argv[++i];
    else if (argv[i] === "--widget") opts.widget = argv[++i];
    else if (argv[i] === "--pyodide-dir") opts.pyodideDir = argv[++i];
    else throw new Error(`web/build.mjs: unknown argument ${argv[i]}`);
  }
  if (opts.widget) return opts;
  if (!opts.out || !opts.pyodideDir) {
    throw new Error("usage: node web/build.mjs --out DIR --pyodide-dir pyodide-X.Y.Z");
  }
  if (!/^[A-Za-z0-9._-]+$/.test(opts.pyodideDir)) {
    throw new Error(`web/build.mjs: --pyodide-dir must be a plain folder name, got ${opts.pyodideDir}`);
  }
  return opts;
}

/** The gallery: the manifest's entries with each example's source, checked for consistency. */
function loadExamples() {
  const dir = path.join(WEB, "examples");
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8"));
  return manifest.examples.map((e, i) => {
    for (const field of ["id", "file", "title", "topic"]) {
      if (typeof e[field] !== "string" || !e[field]) {
        throw new Error(`web/examples/manifest.json: example ${i} has no "${field}"`);
      }
    }
    const file = path.join(dir, e.file);
    if (!fs.existsSync(file)) throw new Error(`web/examples/manifest.json: ${e.id}: ${e.file} does not exist`);
    return { id: e.id, title: e.title, topic: e.topic, code: fs.readFileSync(file, "utf8") };
  });
}

/** The playground's Python runtime: {file name: source} of web/python/playground_runtime/. */
const RUNTIME_DIR = path.join(WEB, "python", "playground_runtime");
function loadRuntime() {
  const files = fs.readdirSync(RUNTIME_DIR).filter((f) => f.endsWith(".py")).sort();
  return Object.fromEntries(files.map((f) => [f, fs.readFileSync(path.join(RUNTIME_DIR, f), "utf8")]));
}

const VIRTUAL = {
  examples: () => ({ contents: `export default ${JSON.stringify(loadExamples())};`,
                     watchFiles: [path.join(WEB, "examples", "manifest.json")] }),
  runtime: () => ({ contents: `export default ${JSON.stringify(loadRuntime())};`,
                    watchDirs: [RUNTIME_DIR] }),
};

const playgroundPlugin = {
  name: "playground",
  setup(build) {
    build.onResolve({ filter: /^virtual:(examples|runtime)$/ }, (args) => ({ path: args.path.slice(8), namespace: "virtual" }));
    build.onLoad({ filter: /.*/, namespace: "virtual" }, (args) => ({ ...VIRTUAL[args.path](), loader: "js" }));
  },
};

const common = {
  bundle: true,
  minify: true,
  sourcemap: true,
  target: ["es2022"],
  legalComments: "linked",
  logLevel: "warning",
  loader: { ".py": "text", ".svg": "file", ".png": "file" },
  plugins: [playgroundPlugin],
};

// The anywidget module: render({ model, el }) draws the graph JSON in the model's "doc" trait.
const WIDGET_ENTRY = `
import { createGraphPanel } from "./index.js";
function render({ model, el }) {
  el.classList.add("tapegrad-widget");
  el.style.height = (model.get("height") || 420) + "px";
  const panel = createGraphPanel(el);
  const draw = () => { const doc = model.get("doc"); if (doc) panel.show(JSON.parse(doc)); else panel.clear(); };
  draw();
  model.on("change:doc", draw);
  return () => { model.off("change:doc", draw); panel.destroy(); };
}
export default { render };
`;

function buildWidget(dir) {
  fs.mkdirSync(dir, { recursive: true });
  return esbuild.build({
    stdin: { contents: WIDGET_ENTRY, resolveDir: path.join(WEB, "src", "graph"), loader: "js",
             sourcefile: "graph-widget.js" },
    bundle: true, minify: true, format: "esm", target: ["es2022"], legalComments: "inline",
    logLevel: "warning", outfile: path.join(dir, "graph-widget.js"),
  });
}

/** web/index.html with each "assets/NAME.js" or ".css" it names replaced by the content-hashed
 * file esbuild wrote for entry NAME (`results`: builds made with metafile). */
function hashedNames(html, out, results) {
  let page = html;
  for (const file of results.flatMap((r) => Object.keys(r.metafile.outputs))) {
    const rel = path.relative(out, path.resolve(file)).split(path.sep).join("/");
    const m = /^assets\/([a-z]+)-[A-Z0-9]+\.(js|css)$/.exec(rel);
    if (!m) continue;
    const plain = `assets/${m[1]}.${m[2]}`;
    if (!page.includes(`"${plain}"`)) throw new Error(`web/index.html does not name ${plain}`);
    page = page.replaceAll(`"${plain}"`, `"${rel}"`);
  }
  return page;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.widget) return buildWidget(opts.widget);
  const { out, pyodideDir } = opts;
  const assets = path.join(out, "assets");
  fs.mkdirSync(assets, { recursive: true });
  // Names this build's boot files in the browser's Cache Storage (web/src/boot-cache.js): a hash of
  // the snapshot and its libraries' record (which names the libraries by sha256); null without them.
  const bootFiles = ["snapshot.bin", "snapshot-libs.json"].map((f) => path.join(out, pyodideDir, f));
  const bootId = bootFiles.every((f) => fs.existsSync(f))
    ? bootFiles.reduce((h, f) => h.update(fs.readFileSync(f)), crypto.createHash("sha256")).digest("hex").slice(0, 16)
    : null;
  const workerDefine = { __PYODIDE_DIR__: JSON.stringify(pyodideDir), __BOOT_ID__: JSON.stringify(bootId) };
  const [page, boot, worker, pool] = await Promise.all([
    // Split: CodeMirror (web/src/editor.js, imported when the page upgrades its editor) is a
    // chunk of its own, assets/chunks/*.js, so that the page's first script stays small.
    // The page's own script, stylesheet and first script are named by their content
    // (playground-HASH.js...): the server sends such names as immutable (build_dist.py lists them
    // in build-info.json), so a warm visit asks for none of them. The worker keeps its name
    // (the <tapegrad-playground> element finds it next to its script).
    esbuild.build({ ...common, entryPoints: { playground: path.join(WEB, "src", "main.js") },
                    outdir: assets, format: "esm", splitting: true, chunkNames: "chunks/[name]-[hash]",
                    entryNames: "[name]-[hash]", metafile: true }),
    esbuild.build({ ...common, entryPoints: { boot: path.join(WEB, "src", "early-boot.js") },
                    outdir: assets, format: "iife", define: workerDefine,
                    entryNames: "[name]-[hash]", metafile: true }),
    esbuild.build({ ...common, entryPoints: { worker: path.join(WEB, "src", "worker.js") },
                    outdir: assets, format: "iife", define: workerDefine, metafile: true }),
    // The kernel pool's worker, started by the Python worker (web/src/kernel-pool.js), and the
    // pool itself as a global (tapegradKernelPool.createKernelPool) for tests/browser/bench_kernels.py.
    esbuild.build({ ...common, entryPoints: { "kernel-pool-worker": path.join(WEB, "src", "kernel-pool-worker.js"),
                                              "kernel-pool": path.join(WEB, "src", "kernel-pool.js") },
                    outdir: assets, format: "iife", globalName: "tapegradKernelPool", metafile: true }),
    esbuild.build({ ...common, entryPoints: { "tapegrad-playground": path.join(WEB, "src", "element.js") },
                    outdir: out, format: "iife" }),
    esbuild.build({ ...common, entryPoints: { worker: path.join(WEB, "boot", "worker.js") },
                    outdir: path.join(out, "boot"), format: "iife", define: workerDefine }),
  ]);
  for (const name of ["index.html", "page.js", "boot.css"]) {
    fs.copyFileSync(path.join(WEB, "boot", name), path.join(out, "boot", name));
  }
  // The icon: named by its content for index.html (favicon-HASH.svg), and as favicon.svg for
  // other pages (web/docs/embedding.html)
  const icon = fs.readFileSync(path.join(WEB, "assets", "favicon.svg"));
  const iconName = `favicon-${crypto.createHash("sha256").update(icon).digest("hex").slice(0, 8).toUpperCase()}.svg`;
  fs.writeFileSync(path.join(assets, iconName), icon);
  fs.writeFileSync(path.join(assets, "favicon.svg"), icon);
  // The page's editor starts as a textarea holding the default example (web/src/page-editor.js).
  const html = hashedNames(fs.readFileSync(path.join(WEB, "index.html"), "utf8"), out, [page, boot]);
  const escapeHtml = (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  if (!html.includes("<!--default-example-->")) throw new Error("web/index.html: no <!--default-example--> in its textarea");
  if (!html.includes('"assets/favicon.svg"')) throw new Error("web/index.html does not name assets/favicon.svg");
  fs.writeFileSync(path.join(out, "index.html"),
                   html.replace("<!--default-example-->", () => escapeHtml(loadExamples()[0].code))
                     .replaceAll('"assets/favicon.svg"', `"assets/${iconName}"`));
  fs.mkdirSync(path.join(out, "docs"), { recursive: true });
  for (const name of fs.readdirSync(path.join(WEB, "docs"))) {
    fs.copyFileSync(path.join(WEB, "docs", name), path.join(out, "docs", name));
  }
  // The gallery's notebooks, opened by the notebook view (web/src/notebook/files.js)
  fs.mkdirSync(path.join(out, "notebooks"), { recursive: true });
  for (const name of fs.readdirSync(path.join(WEB, "examples", "notebooks"))) {
    if (name.endsWith(".ipynb")) fs.copyFileSync(path.join(WEB, "examples", "notebooks", name), path.join(out, "notebooks", name));
  }
  await buildServiceWorker(out, pyodideDir, bootId, [page, boot, worker, pool], iconName);
}

/** The wheels the page may load: those the gallery's examples import (tensorflow is tapegrad)
 * and the engine's own (networkx, lazily), with their dependencies; not the test runner's. */
function exampleWheels(lock) {
  const byImport = new Map();
  for (const [name, entry] of Object.entries(lock.packages)) {
    for (const imp of entry.imports ?? []) byImport.set(imp, name);
  }
  const wanted = ["tapegrad", "networkx"];
  for (const { code } of loadExamples()) {
    for (const m of code.matchAll(/^\s*(?:import|from)\s+([A-Za-z_]\w*)/gm)) {
      const name = byImport.get(m[1] === "tensorflow" || m[1] === "keras" ? "tapegrad" : m[1]);
      if (name) wanted.push(name);
    }
  }
  const seen = new Set();
  for (let name = wanted.pop(); name; name = wanted.pop()) {
    if (seen.has(name) || !lock.packages[name]) continue;
    seen.add(name);
    wanted.push(...lock.packages[name].depends);
  }
  return [...seen].map((name) => lock.packages[name].file_name);
}

/** DIR/sw.js: the offline service worker with this build's files and a version named by their
 * bytes (a new build is a new version; web/src/offline/service-worker.js). */
async function buildServiceWorker(out, pyodideDir, bootId, results, iconName) {
  const pdir = path.join(out, pyodideDir);
  const lockFile = path.join(pdir, "pyodide-lock.json");
  const lock = fs.existsSync(lockFile) ? JSON.parse(fs.readFileSync(lockFile, "utf8")) : { packages: {} };
  const wheels = new Set(Object.values(lock.packages).map((e) => e.file_name));
  const runtime = fs.existsSync(pdir)
    ? fs.readdirSync(pdir, { recursive: true }).map((f) => f.split(path.sep).join("/"))
      .filter((f) => fs.statSync(path.join(pdir, f)).isFile() && !/\.(br|gz|map)$/.test(f) && !wheels.has(f))
    : [];
  const page = results.flatMap((r) => Object.keys(r.metafile.outputs))
    .map((f) => path.relative(out, path.resolve(f)).split(path.sep).join("/"))
    .filter((f) => !f.endsWith(".map"));
  const notebooks = fs.readdirSync(path.join(out, "notebooks")).map((f) => `notebooks/${f}`);   // the gallery's
  const files = ["./", ...page, `assets/${iconName}`, ...notebooks,
                 ...[...runtime, ...exampleWheels(lock)].sort().map((f) => `${pyodideDir}/${f}`)];
  const hash = crypto.createHash("sha256").update(String(bootId));
  for (const f of files) hash.update(f).update(fs.readFileSync(path.join(out, f === "./" ? "index.html" : f)));
  const offline = { version: hash.digest("hex").slice(0, 16), bootId, files };
  await esbuild.build({ ...common, entryPoints: { sw: path.join(WEB, "src", "offline", "service-worker.js") },
                        outdir: out, format: "iife", define: { __OFFLINE__: JSON.stringify(offline) } });
}

main().catch((err) => {
  console.error(err.message ?? err);
  process.exit(1);
});
