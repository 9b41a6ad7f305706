#!/usr/bin/env node
// Runs a Python script inside Pyodide under Node.js, loaded from dist/ (no network), with tapegrad,
// numpy and networkx installed and the packages the script imports loaded from dist/ too.
// The repository is mounted at its own path (NODEFS), so the script sees the repo's files.
//
//   node build/run_in_pyodide.mjs [--dist DIR] [--time] path/to/script.py [args...]
//
// Prints what the script prints; exits with the script's exit status (1 on an uncaught exception).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const t0 = performance.now();

function usage(msg) {
  if (msg) process.stderr.write(`run_in_pyodide: ${msg}\n`);
  process.stderr.write("usage: npm run pyodide -- [--dist DIR] [--time] script.py [args...]\n");
  process.exit(2);
}

let distDir = path.join(ROOT, "dist");
let showTime = false;
const argv = process.argv.slice(2);
while (argv.length && argv[0].startsWith("--")) {
  const opt = argv.shift();
  if (opt === "--dist") distDir = path.resolve(process.env.INIT_CWD ?? ".", argv.shift() ?? usage("--dist needs a folder"));
  else if (opt === "--time") showTime = true;
  else if (opt === "--") break;
  else usage(`unknown option ${opt}`);
}
if (!argv.length) usage("no script given");
// `npm run` starts us in the repo root; INIT_CWD is where the user typed the command.
const userCwd = process.env.INIT_CWD ?? process.cwd();
const script = path.resolve(userCwd, argv[0]);
const scriptArgs = argv.slice(1);
if (!fs.existsSync(script)) usage(`no such file: ${script}`);

const infoPath = path.join(distDir, "build-info.json");
if (!fs.existsSync(infoPath)) usage(`${infoPath} not found; run: npm run build`);
const info = JSON.parse(fs.readFileSync(infoPath, "utf8"));
const indexURL = path.join(distDir, info.pyodide_dir) + path.sep;

const { loadPyodide } = await import(pathToFileURL(path.join(indexURL, "pyodide.mjs")).href);
// Raw writes keep the script's output byte-exact and unbuffered (no per-line console.log).
const raw = (fd) => ({ write: (buf) => { fs.writeSync(fd, buf); return buf.length; } });
// TAPEGRAD_* settings (e.g. TAPEGRAD_KERNELS=0) reach the script's os.environ.
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith("TAPEGRAD_")));
const pyodide = await loadPyodide({ indexURL, packageCacheDir: indexURL, packages: ["tapegrad", "networkx"],
                                    env });
pyodide.setStdout(raw(1));
pyodide.setStderr(raw(2));
const tBoot = performance.now();

// Mount the repository (and the script's folder, when outside it) at the same absolute paths.
function mount(dir) {
  const { FS } = pyodide;
  const analyzed = FS.analyzePath(dir);
  if (analyzed.exists && FS.isMountpoint(analyzed.object)) return;
  FS.mkdirTree(dir);
  FS.mount(pyodide.FS.filesystems.NODEFS, { root: dir }, dir);
}
mount(ROOT);
const scriptDir = path.dirname(script);
if (path.relative(ROOT, scriptDir).startsWith("..")) mount(scriptDir);

// Load whatever else the script imports (pytest, matplotlib, ...) from dist/, never from a CDN.
await pyodide.loadPackagesFromImports(fs.readFileSync(script, "utf8"), { messageCallback: () => {} });
const tPkgs = performance.now();

const cwd = path.relative(ROOT, userCwd).startsWith("..") ? ROOT : userCwd;
pyodide.globals.set("_runner_args", pyodide.toPy([script, ...scriptArgs]));
pyodide.globals.set("_runner_cwd", cwd);
const code = await pyodide.runPythonAsync(`
def _runner_main():
    import os, runpy, sys, traceback
    sys.argv = list(_runner_args)
    sys.dont_write_bytecode = True  # keep CPython 3.12 .pyc files out of the host tree
    sys.path.insert(0, os.path.dirname(sys.argv[0]))
    os.chdir(_runner_cwd)
    try:
        runpy.run_path(sys.argv[0], run_name="__main__")
        status = 0
    except SystemExit as e:
        if e.code is None:
            status = 0
        elif isinstance(e.code, int):
            status = e.code
        else:
            print(e.code, file=sys.stderr)
            status = 1
    except BaseException:
        traceback.print_exc()
        status = 1
    sys.stdout.flush()
    sys.stderr.flush()
    return status
_runner_main()
`);
if (showTime) {
  const f = (ms) => `${(ms / 1000).toFixed(2)} s`;
  process.stderr.write(`run_in_pyodide: boot ${f(tBoot - t0)}, imports ${f(tPkgs - tBoot)}, ` +
    `script ${f(performance.now() - tPkgs)}\n`);
}
process.exit(code);
