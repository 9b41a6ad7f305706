"""The playground recovers from failures: a worker that failed to boot is replaced on the next
Run, and a graph document the panel rejects is reported in the console instead of lost."""
from __future__ import annotations


def test_a_failed_boot_is_retried_on_the_next_run(page, as_playground):
    failed = []

    def fail_once(route):
        if not failed:
            failed.append(route.request.url)
            route.fulfill(status=200, content_type="text/javascript",
                          body="throw new Error('broken worker for the test');")
        else:
            route.continue_()

    pg = page("?example=scalar-gradient", allow=("broken worker for the test",),
              on_context=lambda ctx: ctx.route("**/assets/worker.js", fail_once))
    play = as_playground(pg)
    pg.wait_for_selector("body[data-state=error]", state="attached", timeout=30_000)
    assert failed, "the first worker was the broken one"
    assert play.run() == "ok", play.console_text()   # a fresh worker boots for this Run
    assert "slope = 24.0" in play.last_run_output()


def test_a_graph_document_the_panel_rejects_is_reported(page, as_playground):
    pg = page("")
    play = as_playground(pg)
    play.set_code(
        "import tapegrad.graph as g\n"
        "type(g.capture()).to_dict = lambda self, *a, **k: {'version': 2, 'nodes': [], 'edges': [],"
        " 'groups': [], 'tapes': []}\n"
        "print('patched')\n")
    assert play.run() == "ok", play.console_text()
    assert "patched" in play.last_run_output()
    note = play.root.locator("[data-testid=console] .error", has_text="Could not draw the graph")
    assert note.count() >= 1, play.console_text()
    assert "version 2" in note.last.inner_text()


def test_a_snapshot_that_cannot_be_linked_falls_back_to_a_plain_start(page, as_playground):
    """Without the record of the snapshot's shared libraries (snapshot-libs.json) the worker must
    not restore a heap whose NumPy it cannot link: it starts Python without the snapshot and
    installs the packages itself, slower but working."""
    pg = page("?example=scalar-gradient",
              on_context=lambda ctx: ctx.route("**/snapshot-libs.json", lambda route: route.fulfill(status=404)),
              allow=["snapshot-libs.json"])   # the browser reports the 404 (the page asks first)
    play = as_playground(pg)
    play.wait_ready()
    marks = pg.evaluate("performance.getEntriesByType('mark').map((m) => m.name)")
    assert "tapegrad:librariesLinked" not in marks and "tapegrad:interpreter" in marks, marks
    assert play.run() == "ok", play.console_text()
    assert "slope = 24.0" in play.last_run_output()


def test_python_is_set_up_while_the_snapshot_downloads(page, as_playground):
    """Pyodide's module is instantiated and set up while the snapshot is still on its way (it
    needs only the snapshot's length, from snapshot-libs.json), and the late snapshot is then
    restored: the snapshot's response is held here until the worker has long had everything else."""
    held = []
    pg = page("?example=scalar-gradient",
              on_context=lambda ctx: ctx.route("**/snapshot.bin", lambda route: held.append(route)))
    play = as_playground(pg)
    for _ in range(200):
        if held:
            break
        pg.wait_for_timeout(25)
    assert held, "the page asked for the snapshot"
    pg.wait_for_timeout(8000)   # long enough for the module's set-up even on a loaded 2-core CI
    assert pg.locator("body").get_attribute("data-state") != "ready"
    held[0].continue_()
    play.wait_ready()
    marks = pg.evaluate("""Object.fromEntries(performance.getEntriesByType('mark')
        .map((m) => [m.name.replace('tapegrad:', ''), m.startTime]))""")
    assert "librariesLinked" in marks, marks                      # restored from the snapshot
    # Set up before the held snapshot arrived (an implementation that waited for the snapshot
    # first would mark moduleReady after snapshotFetched); no margin: the set-up's duration
    # depends on the machine's load (a 2 s margin failed on a loaded CI).
    assert marks["moduleReady"] < marks["snapshotFetched"], marks
    assert play.run() == "ok", play.console_text()
    assert "slope = 24.0" in play.last_run_output()
