"""Fixtures for the browser suite: a served dist/, Debian's Chromium, and pages that fail on errors.

  base_url      session: `node build/serve.mjs --port 0` serving dist/ (cross-origin isolated);
                the URL ends with "/", so `base_url + "?embed=1"` opens the playground.
  browser       session: headless /usr/bin/chromium through Python Playwright.
  page          function: a factory, `page(path="", viewport=(1280, 800), on_context=None)` ->
                playwright Page (in its own browser context), closed after the test. Service
                workers are blocked (the offline worker would keep 100 MB of files for every
                page) unless the test passes service_workers="allow" (tests/browser/test_offline.py).
  module_page   module: the same factory, pages live until the module ends (boot Pyodide once,
                run many snippets on it).
  shot          function: `shot(pg, "name")` saves test-results/browser/<name>.png.

Every page opened through a factory is watched: a console error (of the page, its frames or its
workers), an uncaught page error, a Content-Security-Policy violation (a `securitypolicyviolation`
event in any frame, one the Python worker reports, or a console message about the policy) or a
request that leaves 127.0.0.1 fails the test that was running when it happened (an autouse
fixture checks after each test). A test that provokes an error on purpose passes the text it
expects, `page(..., allow=["substring"])`.

Needs /usr/bin/chromium and Playwright (bash build/setup_browser.sh installs both) and a built
dist/ (npm run build), or the build named by TAPEGRAD_DIST.
"""
from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parents[2]
DIST = Path(os.environ.get("TAPEGRAD_DIST") or ROOT / "dist")   # another build: TAPEGRAD_DIST=/tmp/x-dist
SHOTS = ROOT / "test-results" / "browser"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-default-apps", "--disable-extensions",
]
LOCAL_HOSTS = ("127.0.0.1", None, "")

# Runs in every frame before its own scripts: a blocked resource or inline code becomes a console
# error the watcher sees. (The worker reports its own violations to the page: web/src/worker.js.)
CSP_LISTENER = """
addEventListener("securitypolicyviolation", (e) => {
  console.error(`CSP violation: ${e.effectiveDirective || e.violatedDirective} blocked `
                + `${e.blockedURI || "inline code"} (${e.sourceFile || location.href}:${e.lineNumber})`);
});
"""
CSP_WORDS = ("Content Security Policy", "Content-Security-Policy", "CSP violation")

_watched: list["WatchedPage"] = []
_closed_problems: list[str] = []     # problems of pages closed before the check ran


class WatchedPage:
    """Collects console errors, page errors and outside requests of one page."""

    def __init__(self, page, allow):
        self.page = page
        self.allow = list(allow)
        self.problems: list[str] = []
        page.on("console", self._on_console)
        page.on("pageerror", lambda err: self._add(f"page error: {err}"))
        page.on("request", self._on_request)
        page.on("worker", lambda worker: worker.on("console", lambda msg: self._on_console(msg, "worker ")))

    def _add(self, text: str) -> None:
        if not any(a in text for a in self.allow):
            self.problems.append(text)

    def _on_console(self, msg, where: str = "") -> None:
        if msg.type == "error" or any(w in msg.text for w in CSP_WORDS):
            loc = msg.location or {}
            self._add(f"{where}console {msg.type}: {msg.text} ({loc.get('url', '?')}:{loc.get('lineNumber', '?')})")

    def _on_request(self, req) -> None:
        host = urlparse(req.url).hostname
        if urlparse(req.url).scheme in ("http", "https", "ws", "wss") and host not in LOCAL_HOSTS:
            self._add(f"request outside 127.0.0.1: {req.url}")

    def take_problems(self) -> list[str]:
        out, self.problems = self.problems, []
        return out


@pytest.fixture(scope="session")
def base_url():
    if not (DIST / "index.html").is_file():
        pytest.fail("dist/ has no playground (dist/index.html); run: npm run build")
    proc = subprocess.Popen(["node", str(ROOT / "build" / "serve.mjs"), "--dir", str(DIST), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = proc.stdout.readline()
    if "http://" not in line:
        proc.kill()
        pytest.fail(f"build/serve.mjs did not start: {line!r}")
    yield line[line.index("http://"):].strip().rstrip("/") + "/"
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).is_file():
        pytest.fail(f"{CHROMIUM} is missing; run: bash build/setup_browser.sh")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


def _factory(browser, base_url, opened: list):
    def open_page(path: str = "", viewport=(1280, 800), allow=(), on_context=None, **context_options):
        context_options.setdefault("service_workers", "block")
        ctx = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]},
                                  **context_options)
        ctx.add_init_script(CSP_LISTENER)
        if on_context is not None:      # e.g. ctx.route(...) before the first request
            on_context(ctx)
        pg = ctx.new_page()
        watched = WatchedPage(pg, allow)
        _watched.append(watched)
        opened.append((ctx, watched))
        pg.set_default_timeout(30_000)
        pg.goto(base_url + path.lstrip("/"))
        return pg

    return open_page


def _close(opened: list) -> None:
    for ctx, watched in opened:
        ctx.close()
        if watched in _watched:
            _watched.remove(watched)
            _closed_problems.extend(watched.take_problems())


@pytest.fixture
def page(browser, base_url):
    opened: list = []
    yield _factory(browser, base_url, opened)
    _close(opened)


@pytest.fixture(scope="module")
def module_page(browser, base_url):
    opened: list = []
    yield _factory(browser, base_url, opened)
    _close(opened)


@pytest.fixture(autouse=True)
def _no_browser_errors():
    yield
    problems = [p for w in _watched for p in w.take_problems()] + _closed_problems
    _closed_problems.clear()
    if problems:
        pytest.fail("browser reported problems:\n  " + "\n  ".join(problems), pytrace=False)


@pytest.fixture
def shot():
    SHOTS.mkdir(parents=True, exist_ok=True)

    def save(pg, name: str, full_page: bool = False) -> Path:
        path = SHOTS / f"{name}.png"
        pg.screenshot(path=str(path), full_page=full_page)
        return path

    return save


# -- driving the playground page ------------------------------------------------------------------

# The page editor's text, for page.evaluate, whichever editor it is: the page's textarea until
# CodeMirror takes over (web/src/page-editor.js), then CodeMirror's (in a shadow root, which
# document.querySelector does not enter; its lines are elements: compare without whitespace).
EDITOR_TEXT_JS = """(() => {
    const host = document.querySelector('[data-testid=editor] .cm-host');
    if (host) return host.shadowRoot.querySelector('.cm-content').innerText;
    return document.querySelector('[data-testid=editor] textarea')?.value ?? '';
})()"""

def load_runtime():
    """The playground's Python runtime (web/python/playground_runtime/), imported natively."""
    sys.path.insert(0, str(ROOT / "web" / "python"))
    try:
        return importlib.import_module("playground_runtime")
    finally:
        sys.path.remove(str(ROOT / "web" / "python"))


def code_fragment(code: str) -> str:
    """The share-link fragment `#code=<base64url of UTF-8>` the page accepts."""
    import base64
    return "#code=" + base64.urlsafe_b64encode(code.encode()).decode().rstrip("=")


class Playground:
    """A playground page (or an embedded one): set code, run it, read what it shows."""

    RUN_TIMEOUT_MS = 120_000
    fragment = staticmethod(code_fragment)

    def __init__(self, pg, root: str = "body"):
        self.pg = pg
        self.root = pg.locator(root).first
        self.host = root   # the element that carries data-state / data-runs

    def wait_ready(self, timeout_ms: int = 120_000) -> None:
        self.pg.wait_for_selector(f"{self.host}[data-state=ready]", timeout=timeout_ms)

    def set_code(self, code: str) -> None:
        """Through the share-link fragment (the page loads it on hashchange and clears it)."""
        self.pg.evaluate("frag => { location.hash = frag; }", code_fragment(code))
        self.pg.wait_for_function("() => location.hash === ''")
        # The page autosaves the code it took (exact text); an embedded page saves nothing, so
        # its editor's text is compared, without whitespace (CodeMirror draws lines as elements,
        # and only those near its viewport: a long text on a small screen is not all there).
        self.pg.wait_for_function(
            f"""([want, squashed]) => {{
                const saved = JSON.parse(localStorage.getItem('tapegrad.playground.page') || 'null');
                return saved?.code === want || {EDITOR_TEXT_JS}.replace(/\\s+/g, '') === squashed;
            }}""", arg=[code, "".join(code.split())], polling=100)

    def editor_text(self) -> str:
        """The editor's text: the page's textarea until CodeMirror takes over, then CodeMirror's."""
        return self.root.evaluate("""root => {
            const host = root.querySelector('[data-testid=editor] .cm-host');
            if (host) return host.shadowRoot.querySelector('.cm-content').innerText;
            return root.querySelector('[data-testid=editor] textarea')?.value ?? '';
        }""")

    def console_text(self) -> str:
        return self.root.locator("[data-testid=console]").inner_text()

    def last_run_output(self) -> str:
        """The console text after the last '▶ Run N' line (all of it when a flood of output has
        pushed that line out of the console's bounded history)."""
        text = self.console_text()
        return text[max(text.rfind("▶ Run"), 0):]

    def runs(self) -> int:
        return int(self.pg.evaluate("sel => document.querySelector(sel).dataset.runs || '0'", self.host))

    def click_run(self) -> int:
        """Clicks Run; returns the number the run will have."""
        n = self.runs() + 1
        self.root.locator("[data-testid=run]").first.click()
        return n

    def wait_run(self, n: int, timeout_ms: int = RUN_TIMEOUT_MS) -> str:
        self.pg.wait_for_selector(f"{self.host}[data-runs='{n}']", state="attached", timeout=timeout_ms)
        return self.pg.evaluate("sel => document.querySelector(sel).dataset.lastRun", self.host)

    def run(self, timeout_ms: int = RUN_TIMEOUT_MS) -> str:
        """Runs the editor's code and waits for the end; returns 'ok', 'error' or 'interrupted'."""
        return self.wait_run(self.click_run(), timeout_ms)


@pytest.fixture(scope="session")
def as_playground():
    return Playground
