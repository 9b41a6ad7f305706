"""After a snapshot boot the packages' files are written on demand (web/src/pyodide-boot.js,
web/python/_tapegrad_boot.py): a run imports whatever it names, from packages whose files are not
written yet; formatting a traceback downloads nothing; and nothing is downloaded after Ready that
the code did not ask for (no wheel at all for the default example, the page's idle work included)."""
from __future__ import annotations

import zipfile

from conftest import DIST


def test_a_first_run_imports_modules_the_snapshot_lacks(page, as_playground):
    """The very first run of a fresh page imports modules of NumPy, tapegrad and networkx that are
    not in the snapshot: each package's files are written on that first import."""
    pg = page("?example=scalar-gradient")
    play = as_playground(pg)
    play.wait_ready()
    play.set_code(
        "import sys\n"
        "print('before', 'numpy.fft' in sys.modules, 'tapegrad.data' in sys.modules)\n"
        "import numpy as np\n"
        "print('fft', np.fft.rfft(np.arange(4.0)).real.tolist())\n"
        "import tapegrad as tf\n"
        "layer = tf.keras.layers.Dense(2, kernel_initializer='ones')\n"
        "print('dense', layer(tf.ones((1, 3))).numpy().tolist())\n"
        "print('data', [int(x) for x in tf.data.Dataset.range(3)])\n"
        "import networkx.readwrite.json_graph as jg\n"
        "print('json_graph', sorted(jg.node_link_data(__import__('networkx').path_graph(2), edges='links')))\n")
    assert play.run() == "ok", play.console_text()
    out = play.last_run_output()
    assert "before False False" in out, out      # really the first imports of these modules
    assert "fft [6.0, -2.0, -2.0]" in out, out
    assert "dense [[3.0, 3.0]]" in out, out
    assert "data [0, 1, 2]" in out, out
    assert "json_graph ['directed', 'graph', 'links', 'multigraph', 'nodes']" in out, out
    marks = pg.evaluate("performance.getEntriesByType('mark').map((m) => m.name)")
    assert "tapegrad:librariesLinked" in marks, marks   # the snapshot path, not the plain boot


def test_files_only_on_demand(page, as_playground):
    wheels = []
    pg = page("?example=scalar-gradient",
              on_context=lambda ctx: ctx.on("request", lambda r: wheels.append(r.url.rsplit("/", 1)[-1])
                                            if r.url.endswith(".whl") else None))
    play = as_playground(pg)
    assert play.run() == "ok", play.console_text()
    pg.wait_for_function("() => performance.getEntriesByName('tapegrad:settled').length > 0", timeout=60_000)
    pg.wait_for_timeout(5000)                      # the worker's idle graph warm-up after it
    assert wheels == [], wheels                   # the default example and the idle warm-up need none
    play.set_code(
        "import os, numpy, tapegrad\n"
        "print('tapegrad', os.path.exists(tapegrad.__file__))\n"
        "import networkx, numpy.random._pickle\n"
        "for m in (numpy, networkx):\n"
        "    print(m.__name__, os.path.exists(m.__file__))\n"
        "print('sources', os.path.exists(numpy.random._pickle.__file__))\n")
    assert play.run() == "ok", play.console_text()
    out = play.last_run_output()
    assert "tapegrad False" in out, out           # in the snapshot, nothing asked for its files
    for name in ("numpy", "networkx"):            # a module the snapshot lacks: files on first import
        assert f"{name} True" in out, out
    assert sorted(w.split("-")[0] for w in wheels) == ["networkx", "numpy"], wheels
    assert "sources True" in out, out


def test_a_traceback_through_the_engine_downloads_nothing(page, as_playground):
    """Formatting a traceback does not download a package's files (Pyodide formats every exception
    that reaches JavaScript, shown or not): the user's own line shows; an engine frame's line shows
    once its package's files are written (here by an import that needed them)."""
    wheels = []
    pg = page("?example=scalar-gradient",
              on_context=lambda ctx: ctx.on("request", lambda r: wheels.append(r.url.rsplit("/", 1)[-1])
                                            if r.url.endswith(".whl") else None))
    play = as_playground(pg)
    play.wait_ready()
    code = ("import sys, traceback, tapegrad as tf\n"
            "try:\n"
            "    tf.reshape(tf.ones((2, 3)), (4, 4))  # the user's line\n"
            "except Exception:\n"
            "    frames = traceback.extract_tb(sys.exc_info()[2])\n"
            "    engine = [f for f in frames if '/tapegrad/' in f.filename]\n"
            "    print('frames', frames[0].line.endswith('# the user\\'s line'), len(engine) > 0, all(f.line for f in engine))\n")
    play.set_code(code)
    assert play.run() == "ok", play.console_text()
    assert "frames True True False" in play.last_run_output(), play.last_run_output()
    assert wheels == [], wheels
    play.set_code("import tapegrad.data\n" + code)   # tapegrad.data is not in the snapshot: files written
    assert play.run() == "ok", play.console_text()
    assert "frames True True True" in play.last_run_output(), play.last_run_output()
    assert [w.split("-")[0] for w in wheels] == ["tapegrad"], wheels


def test_a_module_the_slim_standard_library_left_out(page, as_playground):
    """The page boots with python_stdlib_slim.zip (build/stdlib_kept.txt); a module it left out has
    the full python_stdlib.zip fetched (web/python/_tapegrad_boot.py LeftOutStdlib), a submodule
    of a kept package too (encodings)."""
    (pdir,) = [p for p in DIST.glob("pyodide-*") if p.is_dir()]
    with zipfile.ZipFile(pdir / "python_stdlib_slim.zip") as z:
        slim = set(z.namelist())
    assert "encodings/__init__.py" in slim and "xmlrpc/client.py" not in slim and "encodings/cp1252.py" not in slim
    pg = page("?example=scalar-gradient")
    play = as_playground(pg)
    play.wait_ready()
    play.set_code("import sys\n"
                  "print('before', 'xmlrpc' in sys.modules)\n"
                  "import xmlrpc.client\n"
                  "print('full', xmlrpc.client.__file__.startswith('/lib/python312-full.zip/'), b'\\x80'.decode('cp1252'))\n")
    assert play.run() == "ok", play.console_text()
    out = play.last_run_output()
    assert "before False" in out and "full True €" in out, out
    play.set_code("import no_such_module_anywhere\n")   # not the standard library's: no download
    assert play.run() == "error"
    assert "No module named 'no_such_module_anywhere'" in play.console_text()
