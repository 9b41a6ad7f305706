#!/usr/bin/env node
// Static server for dist/ on 127.0.0.1 (Node stdlib only). Sends cross-origin isolation headers
// (COOP/COEP/CORP, so SharedArrayBuffer works), application/wasm for .wasm, ETags with 304s, and
// caching headers: files pinned by hash in dist/build-info.json are immutable, the rest revalidate.
// A file with precompressed copies beside it (FILE.br, FILE.gz: build/precompress.mjs) goes out
// as the smallest one the request's Accept-Encoding allows (brotli, then gzip), with
// Content-Encoding; every response says Vary: Accept-Encoding.
// Every response carries a strict Content-Security-Policy (same-origin scripts, styles, workers and
// connections; WebAssembly compilation, which Pyodide needs, is the only "eval") and
// Referrer-Policy: no-referrer. Requests whose Host header is not this machine by name
// (localhost, 127.0.0.1, [::1], with or without the port) are refused with 421, so a DNS
// rebinding page cannot read the server; --allow-host NAME (repeatable) or ALLOWED_HOSTS
// (comma-separated) names more hosts, e.g. behind a proxy.
// No request can stop the server: a handler's error becomes a 500 (or a closed connection when
// the headers are already out), a malformed request a 400 (431 for oversized headers). A
// directory is redirected to its canonical path with a slash, built from percent-encoded
// segments, so a redirect never leaves this origin. frame-ancestors 'self' keeps other sites from
// framing the page; --frame-ancestors "'self' https://course.example" (or FRAME_ANCESTORS) lets a
// documentation or course site embed it.
//
//   node build/serve.mjs [--dir DIR] [--port N] [--allow-host NAME ...] [--allow-eval]
//                        [--frame-ancestors SOURCES]
//   (--allow-eval adds 'unsafe-eval' and blob: to script-src and blob: to worker-src: only for the
//   benchmark's peer pages, whose TensorFlow.js wasm backend evaluates strings and starts its
//   threads from a blob; never for the playground)
//                        (PORT env also sets the port; 0 picks a free one)
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : dflt;
};
const dir = path.resolve(opt("--dir", path.join(ROOT, "dist")));
const port = Number(opt("--port", process.env.PORT ?? "8000"));
const host = "127.0.0.1";
const extraHosts = [
  ...args.flatMap((a, i) => (a === "--allow-host" && i + 1 < args.length ? [args[i + 1]] : [])),
  ...(process.env.ALLOWED_HOSTS ?? "").split(","),
].map((h) => h.trim().toLowerCase()).filter(Boolean);
const allowedHostnames = new Set(["localhost", "127.0.0.1", "[::1]", ...extraHosts]);

// The page and its worker: nothing inline, nothing evaluated but WebAssembly, nothing from elsewhere.
// (web/index.html repeats it as a <meta> for hosts that send no headers; keep the two in step.)
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  args.includes("--allow-eval") ? "script-src 'self' 'wasm-unsafe-eval' 'unsafe-eval' blob:" : "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  // Style attributes only (they cannot run code): Chromium's native editing writes one when typed
  // text replaces a selection in the editor (tests/browser/test_csp.py).
  "style-src-attr 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  args.includes("--allow-eval") ? "worker-src 'self' blob:" : "worker-src 'self'",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");
// Who may frame the page: only the header can say it (browsers ignore it in a <meta> policy).
const FRAME_ANCESTORS = opt("--frame-ancestors", process.env.FRAME_ANCESTORS ?? "'self'").trim();
if (!/^[\x21-\x7e]+( [\x21-\x7e]+)*$/.test(FRAME_ANCESTORS) || /[;,]/.test(FRAME_ANCESTORS)) {
  console.error("serve: --frame-ancestors takes CSP sources separated by single spaces " +
    `(no ';', ',' or control characters), e.g. "'self' https://course.example"; got ${JSON.stringify(FRAME_ANCESTORS)}`);
  process.exit(2);
}
const HEADER_POLICY = `${CONTENT_SECURITY_POLICY}; frame-ancestors ${FRAME_ANCESTORS}`;

/** Is the Host header one this server answers to? `name` or `name:port` with this server's port. */
function hostAllowed(header, actualPort) {
  if (!header) return false;
  const m = /^(\[[0-9a-f:.]+\]|[^:\[\]]+)(?::(\d+))?$/i.exec(header.trim());
  if (!m) return false;
  if (m[2] !== undefined && Number(m[2]) !== actualPort) return false;
  return allowedHostnames.has(m[1].toLowerCase());
}

const MIME = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8", ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8", ".wasm": "application/wasm",
  ".whl": "application/octet-stream", ".zip": "application/zip", ".tar": "application/x-tar",
  ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml", ".png": "image/png",
  ".ico": "image/x-icon", ".txt": "text/plain; charset=utf-8", ".py": "text/plain; charset=utf-8",
};

function immutableSet() {
  try {
    const info = JSON.parse(fs.readFileSync(path.join(dir, "build-info.json"), "utf8"));
    return new Set((info.immutable ?? []).map((f) => "/" + f));
  } catch {
    return new Set();
  }
}
if (!fs.existsSync(dir)) {
  console.error(`serve: ${dir} does not exist; run: npm run build`);
  process.exit(1);
}
let immutable = new Set();
let infoMtime = 0;

function send(res, status, headers, body) {
  res.writeHead(status, headers);
  res.end(body);
}

/** The canonical URL path of a file or folder below `dir`: each segment percent-encoded, one
 * leading slash (never "//", which a browser reads as another host). */
function canonicalPath(file) {
  const segments = path.relative(dir, file).split(path.sep).filter(Boolean);
  return "/" + segments.map(encodeURIComponent).join("/");
}

// The precompressed copies a file may have beside it, by Content-Encoding, best first.
const ENCODINGS = { br: "br", gzip: "gz" };

/** The encodings of ENCODINGS that an Accept-Encoding header allows (q > 0), best first: by the
 * client's q, then brotli before gzip. */
function acceptedEncodings(header = "") {
  const weights = {};
  for (const part of String(header).split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";").map((t) => t.trim());
    const q = params.find((p) => p.startsWith("q="));
    const weight = q ? Number(q.slice(2)) : 1;
    if (name) weights[name] = Number.isFinite(weight) ? weight : 0;
  }
  const weight = (name) => weights[name] ?? weights["*"] ?? 0;
  return Object.keys(ENCODINGS).filter((name) => weight(name) > 0)
    .sort((a, b) => weight(b) - weight(a));   // a stable sort: brotli first when equal
}

/** FILE's precompressed copy for `encoding` ({path, st}), if there is one no older than FILE. */
function precompressed(file, st, encoding) {
  const copy = `${file}.${ENCODINGS[encoding]}`;
  try {
    const cst = fs.statSync(copy);
    return cst.isFile() && cst.mtimeMs >= st.mtimeMs ? { path: copy, st: cst } : null;
  } catch {
    return null;   // no precompressed copy
  }
}

function handle(req, res) {
  const base = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
    "Cross-Origin-Resource-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": HEADER_POLICY,
    "Referrer-Policy": "no-referrer",
  };
  if (!hostAllowed(req.headers.host, server.address().port)) {
    return send(res, 421, { ...base, "Content-Type": "text/plain; charset=utf-8" },
      `this server answers only to ${[...allowedHostnames].join(", ")} (got Host: ${JSON.stringify(req.headers.host ?? "")}); ` +
      "name more with --allow-host NAME or ALLOWED_HOSTS\n");
  }
  if (req.method !== "GET" && req.method !== "HEAD") {
    return send(res, 405, { ...base, Allow: "GET, HEAD" }, "method not allowed\n");
  }
  let urlPath;
  try {
    urlPath = decodeURIComponent(new URL(req.url, `http://${host}`).pathname);
  } catch {
    return send(res, 400, base, "bad request\n");
  }
  if (urlPath.endsWith("/")) urlPath += "index.html";
  const file = path.join(dir, urlPath);
  if (!file.startsWith(dir + path.sep) || urlPath.includes("\0")) {
    return send(res, 403, base, "forbidden\n");
  }
  let st;
  try {
    st = fs.statSync(file);
  } catch {
    return send(res, 404, { ...base, "Content-Type": "text/plain" }, "not found\n");
  }
  if (st.isDirectory()) {
    const to = canonicalPath(file);
    return send(res, 301, { ...base, Location: to === "/" ? "/" : to + "/" }, "");
  }
  // Re-read the immutable list when a rebuild rewrote build-info.json.
  try {
    const m = fs.statSync(path.join(dir, "build-info.json")).mtimeMs;
    if (m !== infoMtime) { infoMtime = m; immutable = immutableSet(); }
  } catch { /* keep the old list */ }
  let body = file;
  let encoding = null;
  for (const name of acceptedEncodings(req.headers["accept-encoding"])) {
    const copy = precompressed(file, st, name);
    if (copy) { body = copy.path; st = copy.st; encoding = name; break; }
  }
  const etag = `"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}${encoding ? "-" + ENCODINGS[encoding] : ""}"`;
  const headers = {
    ...base,
    "Content-Type": MIME[path.extname(file).toLowerCase()] ?? "application/octet-stream",
    "Cache-Control": immutable.has(urlPath) ? "public, max-age=31536000, immutable" : "no-cache",
    ETag: etag,
    "Last-Modified": st.mtime.toUTCString(),
    Vary: "Accept-Encoding",
  };
  if (encoding) headers["Content-Encoding"] = encoding;
  if (req.headers["if-none-match"] === etag) return send(res, 304, headers, "");
  headers["Content-Length"] = st.size;
  res.writeHead(200, headers);
  if (req.method === "HEAD") return res.end();
  const stream = fs.createReadStream(body);
  stream.on("error", () => res.destroy());   // the file went away mid-read: end this response only
  stream.pipe(res);
}

const server = http.createServer((req, res) => {
  try {
    handle(req, res);
  } catch (err) {
    console.error(`serve: ${req.method} ${JSON.stringify(req.url)}: ${err && err.message}`);
    if (res.headersSent) return res.destroy();
    try {
      send(res, 500, { "Content-Type": "text/plain; charset=utf-8" }, "internal error\n");
    } catch {
      res.destroy();
    }
  }
});
// Requests Node cannot parse (bad request lines, CR/LF in headers, oversized headers).
server.on("clientError", (err, socket) => {
  if (!socket.writable) return socket.destroy();
  const status = err && err.code === "HPE_HEADER_OVERFLOW" ? "431 Request Header Fields Too Large"
    : "400 Bad Request";
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
});

server.listen(port, host, () => {
  const { port: actual } = server.address();
  console.log(`Serving ${path.relative(process.cwd(), dir) || "."} at http://${host}:${actual}/`);
});
// Ctrl-C or a SIGTERM ends the server at once: connections a browser keeps open (keep-alive, a
// download in progress) are closed, not waited for.
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
    setTimeout(() => process.exit(0), 1000).unref();
  });
}
