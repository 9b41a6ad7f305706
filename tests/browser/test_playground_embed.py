"""Embedding: the sample docs page (dist/docs/embedding.html) with two <tapegrad-playground>
elements and an iframe of the playground in ?embed=1 mode; the compact layout on its own."""
from __future__ import annotations

from urllib.parse import urlparse


def test_docs_page_elements_are_lazy_and_run(page, as_playground, shot):
    requests = []
    pg = page("docs/embedding.html", viewport=(1100, 900),
              on_context=lambda ctx: ctx.on("request", lambda r: requests.append(urlparse(r.url).path)))
    pg.wait_for_selector("tapegrad-playground[data-state=idle] .cm-content")
    assert pg.locator("tapegrad-playground").count() == 2
    pg.wait_for_load_state("networkidle")   # everything the page loads by itself has been asked for
    booting = ("/pyodide.asm.wasm", "/snapshot.bin")
    assert not [p for p in requests if p.endswith(booting) or p.endswith("/assets/worker.js")], \
        "booted before any Run"

    readonly = as_playground(pg, "#readonly-demo")
    assert readonly.root.locator(".cm-content").get_attribute("aria-readonly") == "true"
    before = readonly.editor_text()
    readonly.root.locator(".cm-content").click()
    pg.keyboard.insert_text("typing is ignored")
    assert readonly.editor_text() == before and "y = x ** 3 - 2.0 * x" in before
    assert readonly.run() == "ok", readonly.console_text()
    assert "dy/dx = 4.75" in readonly.console_text()
    for name in booting:
        assert any(p.endswith(name) for p in requests), f"Run fetched {name}"
    assert readonly.root.locator("[data-testid=graph] [data-node-id]").count() > 0

    editable = as_playground(pg, "#editable-demo")
    assert editable.root.locator(".cm-content").get_attribute("aria-readonly") != "true"
    assert editable.run() == "error"
    assert "NameError" in editable.console_text()
    assert editable.root.locator(".line-link").last.get_attribute("data-line") == "1"
    editable.root.locator(".cm-content").click()
    pg.keyboard.press("Control+Home")
    pg.keyboard.insert_text("import tensorflow as tf\n")
    assert editable.run() == "ok", editable.console_text()
    assert "loss 1.0 gradient 8.0" in editable.last_run_output()
    assert sum(p.endswith("/assets/worker.js") for p in requests) == 1, "the elements share one worker"
    shot(pg, "docs-elements", full_page=True)


def test_docs_page_iframe_embeds_the_compact_playground(page, as_playground, shot):
    pg = page("docs/embedding.html", viewport=(1100, 900))
    frame_el = pg.locator("#embed-demo")
    frame_el.scroll_into_view_if_needed()
    frame = frame_el.element_handle().content_frame()
    frame.wait_for_selector("body.embed[data-state=idle]")
    assert frame.locator("[data-testid=examples]").is_hidden()
    assert frame.locator("#open-full").is_visible()
    play = as_playground(frame)
    assert "outer.gradient" in play.editor_text()
    assert play.run() == "ok", play.console_text()
    assert "second derivative: 12.0" in play.console_text()
    assert frame.locator("[data-testid=graph] [data-node-id]").count() > 0
    shot(pg, "docs-iframe")


def test_embed_layout_alone(page, as_playground, shot):
    pg = page("?embed=1&example=scalar-gradient", viewport=(760, 520))
    play = as_playground(pg)
    pg.wait_for_selector("body.embed[data-state=idle]")
    assert play.run() == "ok", play.console_text()
    assert "slope = 24.0" in play.console_text()
    href = pg.evaluate("() => { const a = document.querySelector('#open-full'); a.click(); return a.href; }")
    assert "#code=" in href and "?embed" not in href
    shot(pg, "embed")


def test_stop_reaches_the_running_element_while_another_waits(page, as_playground):
    pg = page("docs/embedding.html", viewport=(1100, 900))
    pg.wait_for_selector("tapegrad-playground[data-state=idle] .cm-content")
    editable = as_playground(pg, "#editable-demo")
    readonly = as_playground(pg, "#readonly-demo")
    editable.root.locator(".cm-content").click()
    pg.keyboard.press("Control+a")
    pg.keyboard.insert_text("import time\nprint('looping')\nwhile True:\n    time.sleep(0.01)\n")
    looping = editable.click_run()
    pg.wait_for_selector("#editable-demo[data-state=running]", timeout=120_000)
    queued = readonly.click_run()            # waits behind the loop
    pg.wait_for_function(
        "() => document.querySelector('#editable-demo [data-testid=console]').innerText.includes('looping')")
    editable.root.locator("[data-testid=stop]").click()
    assert editable.wait_run(looping, timeout_ms=30_000) == "interrupted"
    assert readonly.wait_run(queued) == "ok", readonly.console_text()
    assert "dy/dx = 4.75" in readonly.console_text()
