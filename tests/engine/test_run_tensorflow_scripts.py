"""Unchanged TensorFlow scripts on tapegrad: ``python -m tapegrad run script.py [args]`` and
``tapegrad.aliases.install_as_tensorflow()`` make ``import tensorflow`` and ``import keras``
give tapegrad (issue 31)."""
import subprocess
import sys
import textwrap

import pytest

import tapegrad
from tapegrad import aliases

SCRIPT = textwrap.dedent("""
    import sys
    import numpy as np
    import tensorflow as tf
    import keras
    from keras import layers
    from tensorflow.keras import optimizers

    print("args:", sys.argv[1:], "name:", __name__)
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = x * x
    print("dy/dx =", tape.gradient(y, x).numpy())
    model = keras.Sequential([keras.Input((2,)), layers.Dense(1)])
    model.compile(optimizer=optimizers.SGD(0.1), loss="mse")
    h = model.fit(np.ones((4, 2), "float32"), np.zeros((4, 1), "float32"), epochs=2, verbose=0)
    print("epochs:", len(h.history["loss"]), "tf is", tf.__name__, "keras is", keras.__name__)
""")


@pytest.mark.skipif(sys.platform == "emscripten", reason="no subprocesses in Pyodide")
def test_run_a_tensorflow_script_unchanged(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(SCRIPT)
    done = subprocess.run([sys.executable, "-m", "tapegrad", "run", str(script), "--lr", "0.1"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "args: ['--lr', '0.1'] name: __main__", "dy/dx = 6.0",
        "epochs: 2 tf is tapegrad keras is tapegrad.keras"]


@pytest.mark.skipif(sys.platform == "emscripten", reason="no subprocesses in Pyodide")
def test_run_says_which_script_is_missing(tmp_path):
    done = subprocess.run([sys.executable, "-m", "tapegrad", "run", str(tmp_path / "nope.py")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "no such script" in done.stderr


def test_install_as_tensorflow_and_uninstall():
    assert tapegrad.install_as_tensorflow is aliases.install_as_tensorflow
    tapegrad.install_as_tensorflow()
    try:
        import keras
        import keras.layers
        import tensorflow as tf
        from tensorflow.keras import losses
        assert tf is tapegrad and keras is tapegrad.keras
        assert keras.layers is tapegrad.keras.layers and losses is tapegrad.keras.losses
        with pytest.raises(ModuleNotFoundError, match="tensorflow.no_such_module"):
            import tensorflow.no_such_module  # noqa: F401
    finally:
        aliases.uninstall()
    assert "tensorflow" not in sys.modules and "keras" not in sys.modules
    with pytest.raises(ModuleNotFoundError):
        import tensorflow  # noqa: F401
