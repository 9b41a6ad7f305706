"""`import keras` in the playground: Keras 3's guides start with it, and it resolves to tapegrad's
Keras (the engine's aliases, tapegrad.install_as_tensorflow), as `import tensorflow` resolves to
tapegrad; their submodules too.
"""
from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def pg(module_page, as_playground):
    play = as_playground(module_page(""))
    play.wait_ready()
    return play


def test_import_keras_and_its_submodules_resolve_to_tapegrad(pg):
    pg.set_code("import keras\nfrom keras import layers\nprint(keras.__name__, layers.Dense)\n")
    assert pg.run() == "ok", pg.last_run_output()
    assert "tapegrad.keras <class 'tapegrad.keras.layers.core.dense.Dense'>" in pg.last_run_output()


def test_keras_is_tensorflow_keras_and_a_model_trains_from_it(pg):
    pg.set_code(
        "import numpy as np\n"
        "import tensorflow as tf\n"
        "import keras\n"
        "from keras import layers\n"
        "print('same:', keras is tf.keras)\n"
        "model = keras.Sequential([keras.Input((2,)), layers.Dense(1)])\n"
        "model.compile(optimizer='sgd', loss='mse')\n"
        "history = model.fit(np.ones((8, 2)), np.zeros((8, 1)), epochs=2, verbose=0)\n"
        "print('epochs:', len(history.history['loss']))\n")
    assert pg.run() == "ok", pg.last_run_output()
    out = pg.last_run_output()
    assert "same: True" in out and "epochs: 2" in out


def test_a_module_that_does_not_exist_is_not_found(pg):
    pg.set_code("import keras.no_such_module\n")
    assert pg.run() == "error"
    assert "ModuleNotFoundError: No module named 'keras.no_such_module'" in pg.last_run_output()
