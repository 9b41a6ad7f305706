"""Keras under a tf.distribute strategy (issue 32, item 2): ``compile``/``fit``/``evaluate``/
``predict`` of a model made in a MirroredStrategy's scope over logical CPU devices, the global
batch split across the replicas, the mean losses divided by ``num_replicas_in_sync``, the metrics
of every replica, from fixed initial weights so that the numbers compare to float32 precision.

Record this area alone (``record.py distribute_keras``): TensorFlow fixes its logical devices
when its runtime starts, and the cases need three logical CPUs. Every case uses two replicas:
TensorFlow's in-process collectives fail (InternalError) when a 3-replica MirroredStrategy
follows 2-replica ones in one process; three replicas are checked against full-batch training in
tests/engine/test_distribute_keras.py and under ``mpiexec -n 3`` in tests/mpi."""
import importlib.util
import pathlib
import sys

import numpy as np


def _strategy(tf, count=2):
    """A MirroredStrategy over ``count`` logical CPUs: the ``distribute`` area's helper (three
    logical CPUs configured once, then left as other areas expect them)."""
    path = pathlib.Path(__file__).with_name("distribute.py")
    spec = importlib.util.spec_from_file_location("conformance_cases_distribute", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module._strategy(tf, count)


def _data(n=12):
    x = np.cos(np.arange(n * 3, dtype=np.float32) * 0.37).reshape(n, 3).astype(np.float32)
    y = (x @ np.array([[0.5], [-1.0], [0.25]], np.float32) + 0.1).astype(np.float32)
    return x, y


def _model(tf, strategy, optimizer="sgd", metrics=("mae",), regularizer=None):
    with strategy.scope():
        model = tf.keras.Sequential([
            tf.keras.Input(shape=(3,)),
            tf.keras.layers.Dense(4, activation="tanh", kernel_regularizer=regularizer),
            tf.keras.layers.Dense(1)])
        values = [(np.sin(np.arange(int(np.prod(w.shape)), dtype=np.float32) * 0.7 + i) * 0.5)
                  .astype(np.float32).reshape(tuple(w.shape)) for i, w in enumerate(model.weights)]
        model.set_weights(values)
        opt = tf.keras.optimizers.SGD(0.1) if optimizer == "sgd" else \
            tf.keras.optimizers.Adam(0.05)
        model.compile(optimizer=opt, loss="mse", metrics=list(metrics))
    return model


def _run(tf, count, batch_size, epochs=3, rows=12, **options):
    strategy = _strategy(tf, count)
    model = _model(tf, strategy, **options)
    x, y = _data(rows)
    history = model.fit(x, y, batch_size=batch_size, epochs=epochs, shuffle=False, verbose=0)
    return history.history, [np.asarray(w) for w in model.get_weights()]


def case_fit_two_replicas(tf):
    return _run(tf, 2, 4)


def case_fit_adam_with_regularizer(tf):
    return _run(tf, 2, 6, optimizer="adam", regularizer=tf.keras.regularizers.L2(0.01))


def case_fit_then_evaluate_and_predict(tf):
    strategy = _strategy(tf, 2)
    model = _model(tf, strategy, metrics=("mae", "mse"))
    x, y = _data()
    model.fit(x, y, batch_size=6, epochs=2, shuffle=False, verbose=0)
    evaluated = model.evaluate(x, y, batch_size=4, verbose=0)
    as_dict = model.evaluate(x, y, batch_size=12, verbose=0, return_dict=True)
    predicted = model.predict(x, batch_size=5, verbose=0)
    return evaluated, as_dict, predicted


def case_fit_on_a_dataset_with_validation(tf):
    strategy = _strategy(tf, 2)
    model = _model(tf, strategy)
    x, y = _data()
    train = tf.data.Dataset.from_tensor_slices((x, y)).batch(4)
    val = tf.data.Dataset.from_tensor_slices((x[:6], y[:6])).batch(6)
    history = model.fit(train, validation_data=val, epochs=2, verbose=0)
    return history.history, [np.asarray(w) for w in model.get_weights()]


def case_model_keeps_its_strategy(tf):
    strategy = _strategy(tf, 2)
    model = _model(tf, strategy)
    plain = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    return (model.distribute_strategy is strategy,
            model.distribute_strategy.num_replicas_in_sync,
            type(plain.distribute_strategy).__name__)


def case_a_mean_loss_in_scope_is_divided_by_the_replicas(tf):
    strategy = _strategy(tf, 2)
    y_true, y_pred = tf.constant([[1.0], [2.0]]), tf.constant([[2.0], [4.0]])
    mse = tf.keras.losses.MeanSquaredError()
    summed = tf.keras.losses.MeanSquaredError(reduction="sum")
    outside = mse(y_true, y_pred)
    with strategy.scope():
        return outside, mse(y_true, y_pred), summed(y_true, y_pred)


def case_fit_uneven_parts(tf):
    # 11 rows in batches of 6: parts of 3 and 3, then 3 and 2 (Keras builds the model on the
    # first batch, which must split evenly)
    return _run(tf, 2, 6, rows=11)



# float32 training summed in another order (the replicas' gradients, the metrics' totals)
for _name in ("case_fit_two_replicas", "case_fit_uneven_parts", "case_fit_adam_with_regularizer",
              "case_fit_then_evaluate_and_predict", "case_fit_on_a_dataset_with_validation"):
    globals()[_name].tolerance = (2e-5, 2e-6)

if sys.platform == "emscripten":   # the replicas' all-reduce needs threads
    for _name in ("case_fit_two_replicas", "case_fit_uneven_parts", "case_fit_adam_with_regularizer",
                  "case_fit_then_evaluate_and_predict", "case_fit_on_a_dataset_with_validation"):
        globals()[_name].known_divergence = \
            "Pyodide has no threads: MirroredStrategy's replicas run one after another and " \
            "cannot all-reduce inside strategy.run"
