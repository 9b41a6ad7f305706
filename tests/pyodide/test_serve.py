"""build/serve.mjs: cross-origin isolation headers, MIME types, caching, 304s, no path escape,
Content-Security-Policy and Referrer-Policy on every response, the Host header check, and the
precompressed brotli and gzip copies sent as Accept-Encoding allows."""
import http.client
import os
import re
from pathlib import Path
import subprocess
import urllib.error
from urllib.parse import urlparse
import urllib.request

import pytest

from conftest import DIST, ROOT


def start_server(*args, env=None):
    proc = subprocess.Popen(["node", str(ROOT / "build" / "serve.mjs"), "--port", "0", *args],
                            stdout=subprocess.PIPE, text=True, env=env)
    line = proc.stdout.readline()
    assert "http://127.0.0.1:" in line, line
    return proc, line[line.index("http://"):].strip()


@pytest.fixture(scope="module")
def base_url(dist_info):
    proc, url = start_server()
    yield url
    proc.terminate()
    proc.wait(timeout=10)


def status_for_host(url, host):
    """The status of GET / sent to `url`'s server with the Host header `host`."""
    u = urlparse(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=10)
    try:
        conn.putrequest("GET", "/", skip_host=True)
        conn.putheader("Host", host)
        conn.endheaders()
        r = conn.getresponse()
        r.read()
        return r.status
    finally:
        conn.close()


def get(url, headers=None):
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def test_isolation_headers_and_html(base_url):
    status, h, body = get(base_url)
    assert status == 200 and b"<html" in body
    assert h["Cross-Origin-Opener-Policy"] == "same-origin"
    assert h["Cross-Origin-Embedder-Policy"] == "require-corp"
    assert h["Cross-Origin-Resource-Policy"] == "same-origin"
    assert h["Content-Type"].startswith("text/html")
    assert h["Cache-Control"] == "no-cache"


def test_wasm_is_immutable_with_wasm_mime(base_url, dist_info):
    status, h, _ = get(f"{base_url}{dist_info['pyodide_dir']}/pyodide.asm.wasm")
    assert status == 200
    assert h["Content-Type"] == "application/wasm"
    assert "immutable" in h["Cache-Control"]


def test_engine_wheel_and_lock_revalidate(base_url, dist_info):
    wheel = next(f for f in dist_info["files"] if "/tapegrad-" in f)
    for path in (wheel, f"{dist_info['pyodide_dir']}/pyodide-lock.json"):
        status, h, _ = get(base_url + path)
        assert status == 200 and h["Cache-Control"] == "no-cache", path
        status, _, body = get(base_url + path, {"If-None-Match": h["ETag"]})
        assert status == 304 and body == b"", path


def test_not_found_and_no_escape(base_url):
    assert get(base_url + "nope.txt")[0] == 404
    assert get(base_url + "%2e%2e/package.json")[0] in (403, 404)
    assert get(base_url + "..%2fpackage.json")[0] in (403, 404)


def test_precompressed_copy_for_gzip_clients(base_url, dist_info):
    import gzip
    url = f"{base_url}{dist_info['pyodide_dir']}/snapshot.bin"
    _, plain_h, plain = get(url)
    status, h, body = get(url, {"Accept-Encoding": "gzip"})
    assert status == 200 and h["Content-Encoding"] == "gzip" and h["Vary"] == "Accept-Encoding"
    assert gzip.decompress(body) == plain and "Content-Encoding" not in plain_h
    assert h["ETag"] != plain_h["ETag"]


def brotli_decompress(data):
    """Brotli decoded by Node's zlib (the Python environment has no brotli module)."""
    r = subprocess.run(["node", "-e", "process.stdout.write(require('zlib').brotliDecompressSync("
                        "require('fs').readFileSync(0)))"], input=data, capture_output=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout


TEXT_ASSET = re.compile(r"\.(html|js|css|json|map|svg|py|txt)$")


def page_asset(dist_info, name, ext):
    """The content-hashed name of the page's NAME.EXT (web/build.mjs), e.g. assets/playground-HASH.js."""
    return next(f for f in dist_info["files"] if re.fullmatch(rf"assets/{name}-[A-Z0-9]+\.{ext}", f))


def test_the_pages_scripts_and_styles_are_content_named_and_immutable(base_url, dist_info):
    """A warm visit asks for none of them: the page names them, the server marks them immutable."""
    _, _, page = get(base_url)
    for name, ext in (("playground", "js"), ("playground", "css"), ("boot", "js"), ("favicon", "svg")):
        asset = page_asset(dist_info, name, ext)
        assert f'"{asset}"'.encode() in page and asset in dist_info["immutable"], asset
        status, h, _ = get(base_url + asset, {"Accept-Encoding": "br"})
        assert status == 200 and h["Cache-Control"] == "public, max-age=31536000, immutable", asset
    chunks = [f for f in dist_info["files"] if f.startswith("assets/chunks/") and f.endswith(".js")]
    assert chunks and all(f in dist_info["immutable"] for f in chunks)
    assert "index.html" not in dist_info["immutable"] and "assets/worker.js" not in dist_info["immutable"]


def test_every_text_asset_has_brotli_and_gzip_copies(dist_info):
    files = set(dist_info["files"])
    text = [f for f in files if TEXT_ASSET.search(f) and (DIST / f).stat().st_size > 1024]
    assert len(text) > 20 and "index.html" in text and page_asset(dist_info, "playground", "js") in text
    missing = [f for f in text if f + ".br" not in files or f + ".gz" not in files]
    assert not missing, f"no precompressed copies of {missing[:5]}"
    for big in ("pyodide.asm.wasm", "snapshot.bin", "pyodide.asm.js"):
        assert f"{dist_info['pyodide_dir']}/{big}.br" in files, big


def test_a_first_visit_file_is_compressed_at_brotlis_best(dist_info):
    """The large files every first visit fetches (build/precompress.mjs FIRST_VISIT) get quality
    11, the others above 1 MB quality 9: Pyodide's WebAssembly 2.27 MB against 2.63 at 9."""
    wasm = DIST / dist_info["pyodide_dir"] / "pyodide.asm.wasm"
    br = Path(f"{wasm}.br").read_bytes()
    assert brotli_decompress(br) == wasm.read_bytes()
    r = subprocess.run(["node", "-e", "const z = require('zlib'); const b = require('fs').readFileSync(process.argv[1]);"
                        "process.stdout.write(String(z.brotliCompressSync(b, {params: {[z.constants.BROTLI_PARAM_QUALITY]: 9,"
                        "[z.constants.BROTLI_PARAM_LGWIN]: 24}}).length))", str(wasm)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert len(br) < 0.93 * int(r.stdout), (len(br), r.stdout)


@pytest.mark.parametrize("path", ["", "playground.js", "playground.css", "tapegrad-playground.js"])
def test_brotli_for_clients_that_accept_it(base_url, dist_info, path):
    if path.startswith("playground."):
        path = page_asset(dist_info, *path.split("."))
    _, plain_h, plain = get(base_url + path)
    _, gz_h, _ = get(base_url + path, {"Accept-Encoding": "gzip"})
    status, h, body = get(base_url + path, {"Accept-Encoding": "gzip, deflate, br, zstd"})
    assert status == 200 and h["Content-Encoding"] == "br" and h["Vary"] == "Accept-Encoding"
    assert brotli_decompress(body) == plain and int(h["Content-Length"]) == len(body) < len(plain)
    assert h["Content-Type"] == plain_h["Content-Type"] and plain_h["Vary"] == "Accept-Encoding"
    assert len({h["ETag"], gz_h["ETag"], plain_h["ETag"]}) == 3
    status, h304, _ = get(base_url + path, {"Accept-Encoding": "br", "If-None-Match": h["ETag"]})
    assert status == 304 and h304["Content-Encoding"] == "br"


@pytest.mark.parametrize("accept, expected", [
    ("br;q=0, gzip", "gzip"), ("gzip;q=1, br;q=0.5", "gzip"), ("br;q=0.8, gzip;q=0.8", "br"),
    ("*", "br"), ("*;q=0", None), ("identity", None), ("deflate", None), ("", None),
])
def test_the_encoding_follows_accept_encoding(base_url, dist_info, accept, expected):
    _, h, _ = get(base_url + page_asset(dist_info, "playground", "js"), {"Accept-Encoding": accept})
    assert h.get("Content-Encoding") == expected, accept


def test_files_compressed_already_go_as_they_are(base_url, dist_info):
    """A deflated wheel gains nothing from another compression: it has no copies."""
    wheel = next(f for f in dist_info["files"] if "/pytest-" in f and f.endswith(".whl"))
    assert wheel + ".br" not in dist_info["files"] and wheel + ".gz" not in dist_info["files"]
    status, h, _ = get(base_url + wheel, {"Accept-Encoding": "gzip, br"})
    assert status == 200 and "Content-Encoding" not in h


def test_content_security_policy_and_referrer_policy_everywhere(base_url, dist_info):
    for path in ("", "assets/worker.js", "tapegrad-playground.js", "docs/embedding.html", "nope.txt"):
        _, h, _ = get(base_url + path)
        csp = {d.split()[0]: d.split()[1:] for d in h["Content-Security-Policy"].split("; ")}
        assert csp["default-src"] == ["'self'"], path
        # scripts only from this origin; the one "eval" allowed is compiling WebAssembly (Pyodide)
        assert csp["script-src"] == ["'self'", "'wasm-unsafe-eval'"], path
        assert csp["style-src"] == ["'self'"], path
        assert csp["connect-src"] == ["'self'"] and csp["worker-src"] == ["'self'"], path
        assert csp["object-src"] == ["'none'"] and csp["base-uri"] == ["'none'"], path
        # the one inline allowance: style attributes (they run no code; native editing writes one)
        assert csp["style-src-attr"] == ["'unsafe-inline'"], path
        assert not any("unsafe-inline" in v or v == ["*"] for k, v in csp.items()
                       if k != "style-src-attr"), path
        assert h["Referrer-Policy"] == "no-referrer", path


def test_eval_is_allowed_only_when_asked_for_the_benchmark(dist_info):
    """--allow-eval (the benchmark's TF.js peer pages) adds 'unsafe-eval', and blob: scripts and
    workers (TF.js's threaded module starts its threads from a blob), and nothing else."""
    proc, url = start_server("--allow-eval")
    try:
        _, h, _ = get(url + "/")
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    csp = {d.split()[0]: d.split()[1:] for d in h["Content-Security-Policy"].split("; ")}
    assert csp["script-src"] == ["'self'", "'wasm-unsafe-eval'", "'unsafe-eval'", "blob:"]
    assert csp["worker-src"] == ["'self'", "blob:"]
    assert csp["default-src"] == ["'self'"] and csp["connect-src"] == ["'self'"]


def test_the_page_repeats_the_policy_as_a_meta_tag(base_url):
    """All but frame-ancestors, which browsers take only from the header."""
    _, h, body = get(base_url)
    policy, frame = h["Content-Security-Policy"].rsplit("; ", 1)
    assert frame == "frame-ancestors 'self'"
    assert f'http-equiv="Content-Security-Policy" content="{policy}"'.encode() in body


def test_only_local_host_names_are_answered(base_url):
    port = urlparse(base_url).port
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", "localhost", "LOCALHOST:" + str(port)):
        assert status_for_host(base_url, host) == 200, host
    for host in ("evil.example", f"evil.example:{port}", f"localhost:{port + 1}", f"127.0.0.1.evil.example:{port}",
                 f"localhost.:{port}", "", f"localhost@evil.example:{port}"):
        assert status_for_host(base_url, host) == 421, host


def test_more_hosts_by_flag_or_environment(dist_info):
    env = {**os.environ, "ALLOWED_HOSTS": "one.example, two.example"}
    proc, url = start_server("--allow-host", "docs.example", env=env)
    try:
        port = urlparse(url).port
        for host in ("docs.example", f"docs.example:{port}", "one.example", f"two.example:{port}",
                     f"localhost:{port}"):
            assert status_for_host(url, host) == 200, host
        assert status_for_host(url, f"three.example:{port}") == 421
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT"])
def test_a_signal_ends_the_server_at_once_with_connections_open(dist_info, sig):
    """A browser keeps connections open (keep-alive, a download it reads slowly): Ctrl-C or a
    SIGTERM still ends the server within a second or two (it waited for them before)."""
    import signal
    import socket
    import time
    proc, url = start_server()
    u = urlparse(url)
    idle = http.client.HTTPConnection(u.hostname, u.port, timeout=10)   # keep-alive, idle after one answer
    idle.request("GET", "/")
    idle.getresponse().read()
    wasm = next(p for p in (DIST.rglob("*.wasm")) if p.stat().st_size > 4_000_000)
    slow = socket.create_connection((u.hostname, u.port))            # a big file, never read
    slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    slow.sendall(f"GET /{wasm.relative_to(DIST).as_posix()} HTTP/1.1\r\nHost: {u.netloc}\r\n\r\n".encode())
    assert slow.recv(64).startswith(b"HTTP/1.1 200")
    try:
        started = time.monotonic()
        proc.send_signal(getattr(signal, sig))
        assert proc.wait(timeout=10) == 0
        assert time.monotonic() - started < 5
    finally:
        idle.close()
        slow.close()
        if proc.poll() is None:
            proc.kill()
