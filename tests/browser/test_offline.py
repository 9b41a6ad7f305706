"""After one visit the playground works with the network off (web/src/offline/): once the first
run has settled, the page registers dist/sw.js, which keeps what the visit used (the page, Pyodide,
the snapshot and its libraries); with the server gone, the page, the default example and the engine
still run. A package the visit did not download (matplotlib) is not kept: offline, an example that
imports it fails saying so, until the user asks for every package ("Keep for offline use" in the
menu); then it draws offline too. A new build is a new version: its worker replaces the kept
files (every package again, as the user asked) and deletes the old version's cache.

The server here is the test's own, on a fixed port (the origin must stay the same when it comes
back), serving a hard-linked copy of dist/ whose sw.js and index.html a "new build" replaces."""
from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import time

import pytest

from conftest import DIST, ROOT, WatchedPage, _watched

OFFLINE_CACHES = "async () => (await caches.keys()).filter((n) => n.startsWith('tapegrad-offline-'))"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`node build/serve.mjs` on one port; stop() is the network going away."""

    def __init__(self, folder, port):
        self.folder, self.port, self.proc = folder, port, None

    def start(self):
        self.proc = subprocess.Popen(["node", str(ROOT / "build" / "serve.mjs"), "--dir", str(self.folder),
                                      "--port", str(self.port)], stdout=subprocess.PIPE, text=True)
        assert "http://" in self.proc.stdout.readline()

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}/"


@pytest.fixture()
def site(tmp_path):
    """A copy of dist/ (hard links: no 170 MB copy) served on a fixed port."""
    if not (DIST / "sw.js").is_file():
        pytest.fail("dist/ has no sw.js: rebuild it (npm run build)")
    folder = tmp_path / "dist"
    shutil.copytree(DIST, folder, copy_function=os.link)
    server = Server(folder, free_port())
    server.start()
    yield server
    if server.proc.poll() is None:
        server.stop()


def new_build(folder):
    """What a rebuild changes here: a page that says so and a worker of another version (files
    are replaced, not edited: they are hard links to dist/)."""
    page = (folder / "index.html").read_text()
    for name in ("index.html.br", "index.html.gz"):
        (folder / name).unlink(missing_ok=True)
    (folder / "index.html").unlink()
    (folder / "index.html").write_text(page.replace("<head>", "<head><!-- build B -->", 1))
    sw = (folder / "sw.js").read_text()
    old = re.search(r'version:"([0-9a-f]{16})"', sw).group(1)
    for name in ("sw.js.br", "sw.js.gz"):
        (folder / name).unlink(missing_ok=True)
    (folder / "sw.js").unlink()
    (folder / "sw.js").write_text(sw.replace(old, "b" * 16))
    return old


def open_tab(ctx, url, allow=()):
    pg = ctx.new_page()
    _watched.append(WatchedPage(pg, allow))
    pg.set_default_timeout(120_000)
    pg.goto(url)
    return pg


def kept(pg, timeout_s=180.0):
    """Waits until the page says its build is kept for offline use."""
    pg.wait_for_function("() => ['ready', 'off'].includes(document.documentElement.dataset.offline)",
                         timeout=timeout_s * 1000, polling=250)
    state = pg.evaluate("[document.documentElement.dataset.offline, document.documentElement.dataset.offlineWhy]")
    assert state[0] == "ready", state
    return pg.evaluate(OFFLINE_CACHES)


NOT_KEPT = ("503", "Not kept for offline use")   # the worker's console line for the refused wheel


def test_one_visit_then_offline_then_a_new_build(browser, site, as_playground):
    ctx = browser.new_context(service_workers="allow", viewport={"width": 1280, "height": 800})
    wheels = []
    # wheels downloaded (the worker's look in the HTTP cache alone, "only-if-cached", fails with no answer)
    ctx.on("response", lambda r: wheels.append(r.url) if r.url.endswith(".whl") and r.ok else None)
    try:
        first = open_tab(ctx, site.url)
        assert as_playground(first).run() == "ok", as_playground(first).console_text()
        (cache,) = kept(first)
        first.close()
        # The visit downloaded no package the code did not ask for, and the worker kept none.
        assert wheels == [], wheels

        site.stop()                                   # the network is gone
        pg = open_tab(ctx, site.url, allow=NOT_KEPT)
        assert pg.evaluate("self.crossOriginIsolated"), "the kept page lost its isolation headers"
        play = as_playground(pg)
        assert play.run() == "ok", play.console_text()
        assert "slope = 24.0" in play.last_run_output()
        play.set_code("import tapegrad as tf\nx = tf.Variable([1.0, 2.0])\nwith tf.GradientTape() as t:\n"
                      "    y = tf.reduce_sum(tf.exp(x) * x)\nprint('engine', [round(float(v), 3) for v in t.gradient(y, x).numpy()])\n")
        assert play.run() == "ok", play.console_text()
        assert "engine [5.437, 22.167]" in play.last_run_output(), play.last_run_output()
        play.set_code("import xmlrpc.client\n")      # left out of the slim standard library, not kept
        assert play.run() == "error"
        assert "the full standard library was not kept for offline use" in play.console_text(), play.console_text()
        pg.close()
        pg = open_tab(ctx, site.url + "?example=training-loop", allow=NOT_KEPT)
        play = as_playground(pg)
        assert play.run() == "error", play.console_text()
        assert re.search(r"\bmatplotlib\b.* not kept for offline use", play.console_text()), play.console_text()
        pg.close()

        site.start()                                  # online again: the user keeps everything
        pg = open_tab(ctx, site.url)
        play = as_playground(pg)
        assert play.run() == "ok", play.console_text()
        pg.get_by_test_id("keep-offline").click()
        pg.wait_for_function("() => ['ready', 'failed'].includes(document.documentElement.dataset.offlineAll)",
                             timeout=180_000, polling=250)
        assert pg.evaluate("document.documentElement.dataset.offlineAll") == "ready"
        assert pg.get_by_test_id("keep-offline").inner_text() == "Kept for offline use"
        pg.close()
        site.stop()
        pg = open_tab(ctx, site.url + "?example=training-loop")
        play = as_playground(pg)
        assert play.run() == "ok", play.console_text()   # matplotlib, kept when asked
        pg.wait_for_selector("[data-testid=plot] img, [data-testid=plot] canvas, [data-testid=plot] svg")
        pg.close()

        old = new_build(site.folder)
        assert cache == "tapegrad-offline-" + old
        site.start()
        pg = open_tab(ctx, site.url)
        assert as_playground(pg).run() == "ok"
        deadline = time.monotonic() + 180
        while pg.evaluate(OFFLINE_CACHES) != ["tapegrad-offline-" + "b" * 16]:
            assert time.monotonic() < deadline, pg.evaluate(OFFLINE_CACHES)
            pg.wait_for_timeout(500)
        pg.close()
        site.stop()
        pg = open_tab(ctx, site.url + "?example=training-loop")
        assert "<!-- build B -->" in pg.content(), "offline, the page is the new build's"
        assert as_playground(pg).run() == "ok"        # every package kept again: the user asked once
    finally:
        ctx.close()
