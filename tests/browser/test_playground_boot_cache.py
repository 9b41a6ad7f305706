"""The boot's large files are kept decompressed in Cache Storage for the next visit
(web/src/boot-cache.js): a second visit boots from there without downloading them, and a damaged
entry costs one slow boot, not a broken page. The page notes the kept build in localStorage
("tapegrad.boot-cache"), so that a first visit's worker goes to the network without opening
Cache Storage first."""
from __future__ import annotations

import time

BOOT_FILES = ("pyodide.asm.wasm", "snapshot.bin", ".wasm")   # the last: the snapshot's libraries

CACHED = """async () => {
  const names = (await caches.keys()).filter((n) => n.startsWith("tapegrad-boot-"));
  const out = {};
  for (const n of names) out[n] = (await (await caches.open(n)).keys()).map((r) => r.url.split("/").pop());
  return out;
}"""


NOTE = "() => localStorage.getItem('tapegrad.boot-cache')"
PAGE_FETCHED_ASM_JS = "() => performance.getEntriesByType('resource').some((r) => r.name.endsWith('/pyodide.asm.js'))"


def wait_for_cache(pg, count=5, timeout_s=60.0):
    """This build's cache once it holds `count` files (stored after the first run) and the page
    has noted it."""
    deadline = time.monotonic() + timeout_s
    while True:
        cached = pg.evaluate(CACHED)
        if len(cached) == 1 and len(next(iter(cached.values()))) == count and pg.evaluate(NOTE):
            assert next(iter(cached)) == "tapegrad-boot-" + pg.evaluate(NOTE)
            return cached
        assert time.monotonic() < deadline, f"the boot cache did not fill: {cached}"
        pg.wait_for_timeout(250)


def test_a_second_visit_boots_from_the_cache(page, as_playground):
    pg = page("?example=scalar-gradient")
    play = as_playground(pg)
    assert pg.evaluate(NOTE) is None, "a first visit: nothing noted, nothing looked up"
    assert play.run() == "ok", play.console_text()
    # A first visit's page downloads Pyodide's JavaScript into the HTTP cache for its worker.
    assert pg.evaluate(PAGE_FETCHED_ASM_JS), "the page did not fetch pyodide.asm.js"
    cached = wait_for_cache(pg)            # stored after the first run
    (files,) = cached.values()
    assert sorted(files) == sorted(["pyodide.asm.wasm", "snapshot.bin",
                                    "_multiarray_umath.cpython-312-wasm32-emscripten.wasm",
                                    "_multiarray_tests.cpython-312-wasm32-emscripten.wasm",
                                    "_umath_linalg.cpython-312-wasm32-emscripten.wasm"]), files

    requested = []
    pg.context.on("request", lambda r: requested.append(r.url))
    again = pg.context.new_page()
    again.goto(pg.url)
    second = as_playground(again)
    assert second.run() == "ok", second.console_text()
    assert "slope = 24.0" in second.last_run_output()
    marks = again.evaluate("performance.getEntriesByType('mark').map((m) => m.name)")
    assert "tapegrad:librariesLinked" in marks, marks          # booted from the snapshot
    assert not again.evaluate(PAGE_FETCHED_ASM_JS), "a later visit has it in the HTTP cache"
    boot_downloads = [u for u in requested if "/pyodide-0.27.7/" in u and u.endswith(BOOT_FILES)]
    assert boot_downloads == [], boot_downloads
    # A visit that read them from the cache keeps the note (the next one looks there too).
    noted = pg.evaluate(NOTE)
    again.wait_for_function("() => performance.getEntriesByName('tapegrad:settled').length > 0", polling=100)
    assert again.evaluate(NOTE) == noted
    third = pg.context.new_page()
    third.goto(pg.url)
    assert as_playground(third).run() == "ok"
    boot_downloads = [u for u in requested if "/pyodide-0.27.7/" in u and u.endswith(BOOT_FILES)]
    assert boot_downloads == [], boot_downloads
    third.close()
    # "Clear my data" removes them too (the next visit downloads them again).
    again.locator("#clear-data").click()
    again.wait_for_timeout(500)
    assert again.evaluate(CACHED) == {}
    assert again.evaluate(NOTE) is None
    again.close()


def test_a_damaged_cache_entry_falls_back_and_is_dropped(page, as_playground):
    pg = page("?example=scalar-gradient")
    play = as_playground(pg)
    assert play.run() == "ok", play.console_text()
    (name,) = wait_for_cache(pg).keys()
    pg.evaluate("""async (name) => {
        const cache = await caches.open(name);
        const key = (await cache.keys()).find((r) => r.url.endsWith("/snapshot.bin"));
        await cache.put(key, new Response(new Uint8Array(64)));   // not a snapshot any more
    }""", name)
    again = pg.context.new_page()
    again.goto(pg.url)
    second = as_playground(again)
    assert second.run() == "ok", second.console_text()       # a plain boot, slower but working
    assert "slope = 24.0" in second.last_run_output()
    marks = again.evaluate("performance.getEntriesByType('mark').map((m) => m.name)")
    assert "tapegrad:librariesLinked" not in marks, marks
    assert name not in again.evaluate(CACHED), "the damaged cache is dropped"
    again.wait_for_function(f"() => ({NOTE})() === null")   # and no longer noted
    again.close()
