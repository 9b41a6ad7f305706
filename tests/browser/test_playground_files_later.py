"""After a snapshot boot the packages' files are written later (web/src/pyodide-boot.js): the
first run must still import whatever it names, from packages whose files are not written yet, and
every run after the first sees all the files."""
from __future__ import annotations


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


def test_runs_after_the_first_see_every_file(page, as_playground):
    pg = page("?example=scalar-gradient")
    play = as_playground(pg)
    assert play.run() == "ok", play.console_text()
    play.set_code(
        "import os, numpy, networkx, tapegrad\n"
        "for m in (numpy, networkx, tapegrad):\n"
        "    print(m.__name__, os.path.exists(m.__file__))\n"
        "import numpy.random._pickle\n"
        "print('sources', os.path.exists(numpy.random._pickle.__file__))\n")
    assert play.run() == "ok", play.console_text()
    out = play.last_run_output()
    for name in ("numpy", "networkx", "tapegrad"):
        assert f"{name} True" in out, out
    assert "sources True" in out, out
