"""Stop on a page that is not cross-origin isolated (no SharedArrayBuffer, so no interrupt
buffer): the worker is terminated and a fresh one boots; code and earlier output stay."""
from __future__ import annotations

from urllib.parse import urlparse

ISOLATION_HEADERS = ("cross-origin-opener-policy", "cross-origin-embedder-policy")


def strip_isolation(ctx):
    def handle(route):
        response = route.fetch()
        headers = {k: v for k, v in response.headers.items() if k.lower() not in ISOLATION_HEADERS}
        route.fulfill(response=response, headers=headers)

    ctx.route(lambda url: urlparse(url).path in ("/", "/index.html"), handle)


def test_stop_restarts_python_when_the_page_is_not_isolated(page, as_playground):
    pg = page("", on_context=strip_isolation)
    play = as_playground(pg)
    play.wait_ready()
    assert pg.evaluate("self.crossOriginIsolated") is False
    play.set_code("print('spinning')\nwhile True:\n    pass\n")
    n = play.click_run()
    pg.wait_for_function("() => document.querySelector('[data-testid=console]').innerText.includes('spinning')")
    pg.locator("[data-testid=stop]").click()
    assert play.wait_run(n, timeout_ms=2_000) == "interrupted"
    assert "Python was restarted" in play.last_run_output()
    play.wait_ready()
    play.set_code("print(6 * 7)\n")
    assert play.run() == "ok"
    assert "42" in play.last_run_output()
    assert "spinning" in play.console_text()
