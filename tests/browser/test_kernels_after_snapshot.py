"""After a snapshot boot the packages' files, the kernel module among them, are written on demand
(web/src/pyodide-boot.js): a first run that multiplies matrices finds no module and computes with
NumPy; that run asked for the kernels, so after it tapegrad's files are written
(_tapegrad_boot.kernel_files_wanted) and the engine loads the module
(tapegrad.kernels.dispatch.retry_loading): the kernels are not off for the rest of the visit."""
from __future__ import annotations

FIRST = """import tapegrad as tf
from tapegrad import kernels
x = tf.ones((128, 128))
print('product', float(tf.reduce_sum(tf.matmul(x, x))))
print('first run kernels', kernels.status()['enabled'])
"""
LATER = """from tapegrad import kernels
status = kernels.status()
print('later run kernels', status['enabled'], status['variant'] is not None, status['reason'])
"""


def test_kernels_load_once_the_files_are_written(page, as_playground):
    pg = page("?example=scalar-gradient")
    play = as_playground(pg)
    play.wait_ready()
    marks = pg.evaluate("performance.getEntriesByType('mark').map((m) => m.name)")
    assert "tapegrad:librariesLinked" in marks, marks   # the snapshot path, not the plain boot
    play.set_code(FIRST)
    assert play.run() == "ok", play.console_text()
    out = play.last_run_output()
    assert "product 2097152.0" in out, out
    play.set_code(LATER)            # the files were written after the first run, which wanted them
    assert play.run() == "ok", play.console_text()
    out = play.last_run_output()
    assert "later run kernels True True None" in out, out
