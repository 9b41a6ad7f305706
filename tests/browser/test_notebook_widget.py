"""The notebook widget in a real JupyterLab (.nb-venv, bash build/setup_notebook.sh): a cell that
records a tape and calls tape.show() draws the animated graph panel (tapegrad.widget on
anywidget), nodes and a stepper that advances; the backward pass is there too, because
%load_ext tapegrad captured the cell's gradient call. Saves docs/notebook-widget.png's source
shot as test-results/browser/notebook-widget.png."""
from __future__ import annotations

import contextlib
import json
import re
import secrets
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import ROOT, SHOTS  # noqa: E402

JUPYTER = ROOT / ".nb-venv" / "bin" / "jupyter"
CELLS = [
    "%load_ext tapegrad",
    "import tapegrad as tf\n\n"
    "x = tf.Variable(3.0, name=\"x\")\n"
    "with tf.GradientTape() as tape:\n"
    "    y = x * x + 2.0 * x\n"
    "print(\"dy/dx =\", tape.gradient(y, x).numpy())\n"
    "tape.show()",
]


# %%tapegrad on a loop of 40 steps of about 0.1 s: its widget is shown when the cell starts and
# draws the latest complete step while the loop runs (about once a second), then the last step.
TRAINING_CELLS = [
    "%load_ext tapegrad",
    "%%tapegrad\n"
    "import time\n"
    "import tapegrad as tf\n"
    "w = tf.Variable(2.0, name=\"w\")\n"
    "for step in range(40):\n"
    "    with tf.GradientTape() as tape:\n"
    "        loss = tf.square(w - 1.0)\n"
    "    w.assign_sub(0.1 * tape.gradient(loss, w))\n"
    "    time.sleep(0.1)\n"
    "print(\"trained\", round(float(w), 3))",
]


# The same loop, long (400 steps, 40 s), stopped with the kernel's interrupt (a SIGINT, as the
# toolbar's Stop sends) once its widget shows a live step; the next cell runs only if the stopped
# cell was not an error (the kernel drops queued cells after an error).
STOP_CELLS = [
    "%load_ext tapegrad",
    TRAINING_CELLS[1].replace("range(40)", "range(400)"),
    "print(\"after the stop\", round(float(w), 3))",
]


# A 10,000-op tape shown in the notebook: its collapsed view (boxes), as the page draws it.
BIG_CELLS = [
    "%load_ext tapegrad",
    "import time\n"
    "import numpy as np\n"
    "import tapegrad as tf\n"
    "x = tf.Variable(np.ones(4, np.float32), name=\"x\")\n"
    "with tf.GradientTape() as tape:\n"
    "    y = x\n"
    "    for _ in range(10_000):\n"
    "        y = y * 1.0001\n"
    "tape.gradient(y, x)\n"
    "started = time.perf_counter()\n"
    "tape.show()\n"
    "print(f\"exported in {time.perf_counter() - started:.2f} s\")",
]


def _notebook(cells):
    return {"nbformat": 4, "nbformat_minor": 5, "metadata": {
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        "cells": [{"cell_type": "code", "id": f"c{i}", "metadata": {}, "execution_count": None,
                   "outputs": [], "source": src} for i, src in enumerate(cells)]}


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    if not JUPYTER.is_file() or not list(JUPYTER.parents[1].glob(".tapegrad-notebook-*")):
        pytest.skip("JupyterLab is not installed (.nb-venv): run bash build/setup_notebook.sh")
    root = tmp_path_factory.mktemp("lab")
    log = tmp_path_factory.mktemp("lab-log") / "lab.log"
    (root / "widget.ipynb").write_text(json.dumps(_notebook(CELLS)))
    (root / "training.ipynb").write_text(json.dumps(_notebook(TRAINING_CELLS)))
    (root / "stop.ipynb").write_text(json.dumps(_notebook(STOP_CELLS)))
    (root / "big.ipynb").write_text(json.dumps(_notebook(BIG_CELLS)))
    token, port = secrets.token_hex(16), _free_port()
    env_dir = root / ".jupyter"
    proc = subprocess.Popen(
        [str(JUPYTER), "lab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
         f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
         "--allow-root", "--LabApp.expose_app_in_browser=True", "--LabApp.extension_manager=readonly", "--LabApp.news_url=",
         "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
        stdout=subprocess.DEVNULL, stderr=open(log, "w"), cwd=root,
        env={"PATH": f"{JUPYTER.parent}:/usr/bin:/bin", "HOME": str(root),
             "JUPYTER_CONFIG_DIR": str(env_dir), "JUPYTER_RUNTIME_DIR": str(env_dir / "rt")})
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 120
    while True:
        try:
            urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2)
            break
        except OSError:
            if proc.poll() is not None or time.time() > deadline:
                proc.kill()
                pytest.fail("JupyterLab did not start on 127.0.0.1:\n" + log.read_text()[-2000:])
            time.sleep(0.5)
    yield url, token
    proc.terminate()
    proc.wait(timeout=20)


@contextlib.contextmanager
def _running(browser, lab, name, viewport=(1200, 900)):
    """A page of JupyterLab in a context of its own, running notebook `name` (_open_and_run)."""
    url, token = lab
    ctx = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    try:
        yield _open_and_run(ctx, url, token, name)
    finally:
        ctx.close()


def _open_and_run(ctx, url, token, name):
    """Opens notebook `name` in a workspace of its own (JupyterLab would reopen the other test's
    notebook beside it) and starts running all its cells, without waiting for them."""
    pg = ctx.new_page()
    pg.set_default_timeout(120_000)
    pg.goto(f"{url}/lab/workspaces/{name.split('.')[0]}/tree/{name}?token={token}")
    pg.wait_for_function("() => window.jupyterapp && document.querySelector('.jp-Notebook')")
    pg.wait_for_selector(".jp-Notebook .jp-Cell")
    # the kernel is up once its status says idle
    pg.wait_for_function("() => { const s = window.jupyterapp.shell.currentWidget;"
                         " return s && s.sessionContext && s.sessionContext.session &&"
                         " s.sessionContext.session.kernel &&"
                         " s.sessionContext.session.kernel.status === 'idle'; }")
    pg.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    return pg


def test_tapegrad_cell_widget_follows_the_training_then_shows_the_last_step(browser, lab):
    with _running(browser, lab, "training.ipynb") as pg:
        # (the tape picker's first option names the step drawn; it is made anew for each graph)
        shows = ("text => document.querySelector('.tapegrad-widget [data-testid=tape-select] option')"
                 "?.textContent.includes(text)")
        # while the loop runs: a step's graph, named as the live graph names it
        pg.wait_for_function(shows, arg="training goes on", timeout=60_000)
        assert pg.locator(".tapegrad-widget svg [data-node-id]").count() >= 2   # w and the step's box
        outputs = pg.locator(".jp-OutputArea-output")
        assert not any("trained" in t for t in outputs.all_inner_texts())     # still running
        # at the end: the last complete step, as the playground shows it
        pg.wait_for_function(shows, arg="step 40 of 40", timeout=60_000)
        texts = " ".join(outputs.all_inner_texts())
        assert "trained 1.0" in texts
        assert "One training step shown: the last complete one (tape 40 of 40 recorded)." in texts
        assert pg.locator(".tapegrad-widget").count() == 1
        pg.locator(".tapegrad-widget").scroll_into_view_if_needed()
        SHOTS.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(SHOTS / "notebook-widget-training.png"))


def test_jupyters_interrupt_stops_a_tapegrad_cell_quietly_keeping_its_graph(browser, lab):
    """Issue 28, item 7 in the notebook: the kernel's interrupt during a %%tapegrad loop ends the
    cell with "Stopped at line N." (N the cell's line running, numbered as the notebook numbers
    it, %%tapegrad line 1: the sleep, or the step's lines 6-8 if the signal came during one), no
    traceback, the widget keeping the last complete step; the cell is no error, so the next one
    runs."""
    with _running(browser, lab, "stop.ipynb") as pg:
        picker = ("text => document.querySelector('.tapegrad-widget [data-testid=tape-select] option')"
                  "?.textContent.includes(text)")
        pg.wait_for_function(picker, arg="training goes on", timeout=60_000)
        pg.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.interrupt()")
        outputs = pg.locator(".jp-OutputArea-output")
        pg.wait_for_function("() => [...document.querySelectorAll('.jp-OutputArea-output')]"
                             ".some((o) => o.innerText.includes('after the stop'))", timeout=60_000)
        texts = "\n".join(outputs.all_inner_texts())
        stopped = re.search(r"Stopped at line (\d+)\.", texts)
        assert stopped and int(stopped.group(1)) in (6, 7, 8, 9), texts
        assert "KeyboardInterrupt" not in texts and "Traceback" not in texts, texts
        assert "trained" not in texts                                       # it did stop
        shown = re.search(r"One training step shown: the last complete one \(tape (\d+) of \1 recorded\)",
                          texts)
        assert shown and 2 <= int(shown.group(1)) < 400, texts
        pg.wait_for_function(picker, arg=f"step {shown.group(1)} of {shown.group(1)}")
        assert pg.locator(".tapegrad-widget svg [data-node-id]").count() >= 2
        assert pg.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
        # the graph names the cell's lines as the notebook does: tape.gradient is on line 8
        assert "d loss / d w (line 8)" in pg.locator(".tapegrad-widget").inner_text()
        print(f"stopped: {stopped.group(0)} {shown.group(0)}")
        pg.locator(".tapegrad-widget").scroll_into_view_if_needed()
        SHOTS.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(SHOTS / "notebook-widget-stopped.png"))


def test_tape_show_draws_the_animated_graph_widget(browser, lab):
    url, token = lab
    ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    outside = []
    ctx.on("request", lambda r: r.url.startswith("http") and not r.url.startswith(url)
           and outside.append(r.url))
    try:
        pg = _open_and_run(ctx, url, token, "widget.ipynb")
        panel = pg.locator(".tapegrad-widget [data-testid=graph-panel]")
        panel.wait_for()
        pg.wait_for_function("() => [...document.querySelectorAll('.jp-OutputArea-output')]"
                             ".some((o) => o.innerText.includes('dy/dx = 8.0'))")
        nodes = panel.locator("svg [data-node-id]")
        assert nodes.count() >= 4
        counter = panel.locator("[data-testid=timeline-counter]")
        panel.locator("[data-testid=timeline-first]").click()
        before = counter.inner_text()
        panel.locator("[data-testid=timeline-next]").click()
        after = counter.inner_text()
        assert before.split("/")[0].strip() != after.split("/")[0].strip(), (before, after)
        assert panel.locator("[data-testid=timeline-backward]").is_enabled()   # the gradient call
        panel.locator("[data-testid=timeline-backward]").click()
        pg.wait_for_function("el => el.textContent.includes('gradient')",
                             arg=panel.locator("[data-testid=timeline-caption]").element_handle())
        panel.scroll_into_view_if_needed()
        news = pg.get_by_role("button", name="No", exact=True)   # JupyterLab asks about its news
        if news.count():
            news.first.click()
        SHOTS.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(SHOTS / "notebook-widget.png"))
        assert not outside, f"JupyterLab page asked outside 127.0.0.1: {outside[:3]}"
    finally:
        ctx.close()


def test_a_10k_op_tape_is_drawn_as_its_boxes(browser, lab):
    """tape.show() of a 10,000-op tape: the widget draws its collapsed view (the ops folded into
    boxes, as in the page). Prints the kernel's export time and the panel's drawing time (a figure,
    not a timed assertion)."""
    with _running(browser, lab, "big.ipynb", (1366, 768)) as pg:
        panel = pg.locator(".tapegrad-widget [data-testid=graph-panel]")
        panel.wait_for()
        pg.wait_for_function("() => [...document.querySelectorAll('.jp-OutputArea-output')]"
                             ".some((o) => o.innerText.includes('exported in'))")
        info = panel.locator("[data-testid=graph-info]").inner_text()
        assert "box" in info, info                         # "N nodes in M boxes"
        assert panel.locator("svg [data-node-id]").count() < 100
        exported = [t for t in pg.locator(".jp-OutputArea-output").all_inner_texts() if "exported in" in t]
        print(f"10k-op tape in the widget: {info}; {exported[0].strip()}, "
              f"drawn in {panel.get_attribute('data-render-ms')} ms")
        pg.screenshot(path=str(SHOTS / "notebook-widget-10k.png"))


def test_the_widgets_nodes_take_arrow_keys_and_enter_as_in_the_page(browser, lab):
    """Keyboard in the notebook: the drawing's one tab stop, arrow keys along edges and Enter for
    details work inside JupyterLab too (its own shortcuts, e.g. arrows selecting cells, do not take
    the keys), and the cell selection stays where it was."""
    with _running(browser, lab, "widget.ipynb") as pg:
        panel = pg.locator(".tapegrad-widget [data-testid=graph-panel]")
        panel.wait_for()
        stop = panel.locator("svg .tg-graph-node[tabindex='0']")
        assert stop.count() == 1
        stop.focus()
        focused = "() => document.activeElement?.dataset.nodeId ?? null"
        active_cell = "() => window.jupyterapp.shell.currentWidget.content.activeCellIndex"
        cell = pg.evaluate(active_cell)
        start = pg.evaluate(focused)
        edges = panel.locator("svg .tg-graph-edge").evaluate_all("els => els.map(e => e.dataset.edge.split('>'))")
        pg.keyboard.press("ArrowRight")
        step = pg.evaluate(focused)
        assert [start, step] in edges, (start, step, edges)
        pg.keyboard.press("ArrowDown")
        pg.keyboard.press("Enter")
        details = panel.locator("[data-testid=node-details]")
        assert details.is_visible() and details.get_attribute("data-details-for") == pg.evaluate(focused)
        assert pg.evaluate(active_cell) == cell
