"""build/serve.mjs: cross-origin isolation headers, MIME types, caching, 304s, no path escape."""
import subprocess
import urllib.error
import urllib.request

import pytest

from conftest import ROOT


@pytest.fixture(scope="module")
def base_url(dist_info):
    proc = subprocess.Popen(["node", str(ROOT / "build" / "serve.mjs"), "--port", "0"],
                            stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    assert "http://127.0.0.1:" in line, line
    yield line[line.index("http://"):].strip()
    proc.terminate()
    proc.wait(timeout=10)


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
