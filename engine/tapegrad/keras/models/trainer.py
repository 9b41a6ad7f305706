"""``compile``, ``fit``, ``evaluate``, ``predict`` and the per-batch steps of a Keras model.

``train_step`` is the one TensorFlow's guide "Customizing what happens in fit" overrides:

    with tf.GradientTape() as tape:
        y_pred = self(x, training=True)
        loss = self.compute_loss(y=y, y_pred=y_pred)
    grads = tape.gradient(loss, self.trainable_variables)
    self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
    for metric in self.metrics: ...
    return {m.name: m.result() for m in self.metrics}

Logs are flattened (``compile_metrics``' dict joins the others), sorted by name and turned into
Python floats before callbacks see them, as Keras does.

A model made inside a ``tf.distribute`` strategy's scope keeps it (``distribute_strategy``); with
several replicas each step runs on every replica's part of the batch (``distributed.py``).
"""
import logging
import warnings

from ... import nest
from ...function import executing_eagerly, function as tf_function, functions_run_eagerly
from ...backend import xp
from ...distribute import context as distribute_context
from ...ops import shape, zeros
from ...tensor import Tensor
from ... import tape as tape_module
from ...tape import GradientTape
from .. import metrics as metrics_module
from .. import optimizers as optimizers_module
from ..callbacks import CallbackList
from ..layers.base import sum_losses
from ..layers.input_spec import InputSpec, assert_input_compatibility, check_input_rank
from ..losses.loss import scale_loss_for_distribution, unscale_loss_for_distribution
from . import data_adapter, distributed
from .compile_utils import CompileLoss, CompileMetrics

log = logging.getLogger("tapegrad")


def pythonify_logs(logs):
    """Nested dicts flattened, keys sorted, tensors as Python floats (inside a ``tf.function``,
    as a traced train step, they stay tensors: Keras's ``float()`` of a graph tensor fails
    there and keeps it)."""
    out = {}
    eager = executing_eagerly()
    for key, value in sorted((logs or {}).items()):
        if isinstance(value, dict):
            out.update(pythonify_logs(value))
            continue
        if not eager:
            out[key] = value
            continue
        try:
            value = value.numpy() if hasattr(value, "numpy") else value
            # scalars become floats; a per-class result (F1Score) stays an array, as in Keras
            value = float(value) if xp.ndim(value) == 0 else xp.asarray(value)
        except (TypeError, ValueError):
            pass
        out[key] = value
    return out


def _concat(batches):
    if not batches:
        return None
    first = batches[0]
    return nest.pack_sequence_as(first, [
        xp.concatenate(parts, axis=0) if parts[0].ndim else xp.stack(parts)
        for parts in zip(*[[xp.asarray(getattr(t, "_value", t)) for t in nest.flatten(b)]
                           for b in batches])])


class Trainer:
    """The training half of ``tf.keras.Model`` (mixed into ``Model``)."""

    def _init_trainer(self):
        self.optimizer = None
        self.compiled = False
        self.stop_training = False
        self.history = None
        self.loss = None
        self._compile_loss = None
        self._compile_metrics = None
        self._loss_tracker = None
        self._run_eagerly = True
        self._initial_epoch = None
        # as Keras: a model made inside a strategy's scope is trained by that strategy
        self._distribute_strategy = distribute_context.get_strategy() \
            if distribute_context.has_strategy() else None

    @property
    def distribute_strategy(self):
        """The strategy the model was made under (else the one in use)."""
        return self._distribute_strategy or distribute_context.get_strategy()

    # -- compile --------------------------------------------------------------------------------
    def compile(self, optimizer="rmsprop", loss=None, loss_weights=None, metrics=None,
                weighted_metrics=None, run_eagerly=False, steps_per_execution=1,
                jit_compile="auto", auto_scale_loss=True):
        """Chooses the optimizer, the loss and the metrics ``fit`` and ``evaluate`` use.

        >>> import tapegrad as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        >>> model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
        """
        self.optimizer = optimizers_module.get(optimizer)
        self.loss = loss
        output_names = getattr(self, "output_names", None)
        self._compile_loss = CompileLoss(loss, loss_weights, output_names) \
            if loss is not None else None
        self._compile_metrics = CompileMetrics(metrics, weighted_metrics, loss, output_names) \
            if (metrics is not None or weighted_metrics is not None) else None
        self._loss_tracker = metrics_module.Mean(name="loss")
        self._run_eagerly = run_eagerly
        self.compiled = True
        self.stop_training = False

    @property
    def run_eagerly(self):
        return self._run_eagerly

    @run_eagerly.setter
    def run_eagerly(self, value):
        self._run_eagerly = value

    def compiled_loss(self, y, y_pred, sample_weight=None, regularization_losses=None):
        """Keras 2's spelling, kept by Keras 3 as a deprecated shim: ``compute_loss`` (which
        adds ``self.losses`` itself; ``regularization_losses`` is ignored)."""
        warnings.warn("`model.compiled_loss()` is deprecated. Instead, use "
                      "`model.compute_loss(x, y, y_pred, sample_weight, training)`.")
        return self.compute_loss(x=None, y=y, y_pred=y_pred, sample_weight=sample_weight)

    @property
    def compiled_metrics(self):
        """Keras 2's ``compiled_metrics.update_state(y, y_pred)``, as Keras 3's deprecated shim
        does it: every metric in ``self.metrics`` is updated, ``Mean`` metrics (the loss
        tracker among them) with ``y_pred`` alone."""
        return _CompiledMetricsShim(self)

    @property
    def metrics(self):
        """The loss tracker (``loss``), the compiled metrics (``compile_metrics``) and any
        ``Metric`` the model holds as an attribute, in Keras's order."""
        out = []
        if self.compiled:
            if self._loss_tracker is not None:
                out.append(self._loss_tracker)
            if self._compile_metrics is not None:
                out.append(self._compile_metrics)
        for value in self.__dict__.values():
            if isinstance(value, metrics_module.Metric) and all(value is not m for m in out):
                out.append(value)
        return out

    @property
    def metrics_names(self):
        return [m.name for m in self.metrics]

    def reset_metrics(self):
        for m in self.metrics:
            m.reset_state()

    # -- the inputs the model accepts -------------------------------------------------------------
    @property
    def input_spec(self):
        """A functional model's: each ``Input``'s shape, any batch size, a trailing axis of 1
        squeezable (Keras's ``Functional.input_spec``); None for other models unless set."""
        if "_input_spec" in self.__dict__:
            return self.__dict__["_input_spec"]
        graph = self.__dict__.get("_graph")
        if graph is None or isinstance(graph.inputs, dict):
            return None
        return [InputSpec(shape=(None,) + tuple(t.shape[1:]), allow_last_axis_squeeze=True,
                          name=t._keras_history[0].name) for t in graph.flat_inputs]

    @input_spec.setter
    def input_spec(self, value):
        object.__setattr__(self, "_input_spec", value)

    def _input_tensors(self):
        """The model's ``Input`` tensors (a functional model's, or a Sequential's first layer),
        or None when it has none."""
        graph = self.__dict__.get("_graph")
        if graph is not None:
            return None if isinstance(graph.inputs, dict) else graph.flat_inputs
        first = self.__dict__.get("_input_layer")
        return [first.output] if first is not None else None

    def _check_inputs(self, x):
        """Data for ``fit``/``evaluate``/``predict`` against the model's inputs: first the input
        spec, then the rank of each ``Input`` (which may differ only by a trailing axis of 1)."""
        refs = self._input_tensors()
        flat = nest.flatten(x)
        if not refs or isinstance(x, dict) or len(flat) != len(refs):
            return
        assert_input_compatibility(self.input_spec, x, self.name)
        for t, ref in zip(flat, refs):
            check_input_rank(t, ref)

    # -- steps ----------------------------------------------------------------------------------
    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        """The compiled loss plus the losses the layers added (``self.losses``)."""
        terms = []
        if self._compile_loss is not None:
            value = self._compile_loss(y, y_pred, sample_weight)
            if value is not None:
                terms.append(value)
        extra = self.losses
        if extra:
            terms.append(scale_loss_for_distribution(sum_losses(extra)))   # Keras: counted once
        if not terms:
            return zeros(())
        return terms[0] if len(terms) == 1 else sum_losses(terms)

    def compute_metrics(self, x, y, y_pred, sample_weight=None):
        if self._compile_metrics is not None:
            self._compile_metrics.update_state(y, y_pred, sample_weight)
        return self.get_metrics_result()

    def get_metrics_result(self):
        out = {}
        for m in self.metrics:
            result = m.result()
            if isinstance(result, dict):
                out.update(result)
            else:
                out[m.name] = result
        return pythonify_logs(out)

    def _batch_size_of(self, x):
        """The batch's rows (in a traced step, a tensor of this call's: see ``reduce_values``)."""
        flat = nest.flatten(x)
        if not flat:
            return 1
        if isinstance(flat[0], Tensor):
            if flat[0].ndim == 0:
                return 1
            return int(flat[0].shape[0]) if executing_eagerly() else shape(flat[0])[0]
        return int(flat[0].shape[0]) if getattr(flat[0], "shape", ()) else 1

    def _track_loss(self, loss, x):
        """The loss tracker counts the batch's loss, weighted by its rows (the loss a replica
        logs is the unscaled one; an empty part of a batch adds nothing, as in Keras)."""
        if loss.ndim and not loss.shape.num_elements():
            return
        self._loss_tracker.update_state(unscale_loss_for_distribution(loss),
                                        sample_weight=self._batch_size_of(x))

    def train_step(self, data):
        x, y, sample_weight = data_adapter.unpack(data)
        self._check_inputs(x)
        with GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x=x, y=y, y_pred=y_pred, sample_weight=sample_weight)
        self._track_loss(loss, x)
        variables = self.trainable_variables
        if variables:
            grads = tape.gradient(loss, variables)
            self.optimizer.apply_gradients(zip(grads, variables))
        else:
            log.warning("The model does not have any trainable weights.")
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def test_step(self, data):
        x, y, sample_weight = data_adapter.unpack(data)
        self._check_inputs(x)
        y_pred = self(x, training=False)
        loss = self.compute_loss(x=x, y=y, y_pred=y_pred, sample_weight=sample_weight,
                                 training=False)
        self._track_loss(loss, x)
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def predict_step(self, data):
        x, _, _ = data_adapter.unpack(data)
        self._check_inputs(x)
        return self(x, training=False)

    # -- loops ----------------------------------------------------------------------------------
    def _assert_compiled(self, what):
        if not self.compiled:
            raise ValueError(f"You must call `compile()` before using the model "
                             f"({what}).")

    def _epoch_logs(self, logs):
        """The metrics' results when the step's logs have the same names (the usual case),
        else the last step's logs (a custom ``train_step`` returning other values)."""
        results = self.get_metrics_result()
        if isinstance(logs, dict) and set(logs) == set(results):
            return results
        return dict(logs or {})

    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto", callbacks=None,
            validation_split=0.0, validation_data=None, shuffle=True, class_weight=None,
            sample_weight=None, initial_epoch=0, steps_per_epoch=None, validation_steps=None,
            validation_batch_size=None, validation_freq=1):
        """Trains for ``epochs`` epochs; returns the ``History`` (``history.history``).

        >>> import numpy as np, tapegrad as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        >>> model.compile(optimizer="sgd", loss="mse")
        >>> h = model.fit(np.ones((8, 2)), np.ones((8, 1)), epochs=2, verbose=0)
        >>> len(h.history["loss"])
        2
        """
        self._assert_compiled("fit")
        if validation_split and validation_data is None:
            if not data_adapter._is_array_like(x) or hasattr(x, "element_spec"):
                raise ValueError("`validation_split` is only supported for tensors or NumPy "
                                 "arrays; give `validation_data` for a dataset.")
            whole = data_adapter.ArrayData(x, y, sample_weight)
            (x, y, sample_weight), validation_data = whole.split(validation_split)
        data = data_adapter.adapt(x, y, sample_weight, batch_size, shuffle, steps_per_epoch,
                                  class_weight)
        distributed.same_order_on_every_worker(self.distribute_strategy, data)
        val = None
        if validation_data is not None:
            vx, vy, vsw = data_adapter.unpack(validation_data) \
                if isinstance(validation_data, tuple) else (validation_data, None, None)
            val = data_adapter.adapt(vx, vy, vsw, validation_batch_size or batch_size,
                                     steps=validation_steps)
        steps = data.steps if isinstance(data, data_adapter.ArrayData) else data.known
        verbose = 1 if verbose == "auto" else verbose
        callbacks = CallbackList(callbacks, add_history=True, add_progbar=verbose != 0,
                                 model=self, verbose=verbose, epochs=epochs, steps=steps)
        self.stop_training = False
        callbacks.on_train_begin()
        epoch_logs = {}
        initial_epoch = self._initial_epoch or initial_epoch   # (BackupAndRestore sets it)
        for epoch in range(initial_epoch, epochs):
            self.reset_metrics()
            callbacks.on_epoch_begin(epoch)
            logs = self._train_epoch(data, callbacks)
            epoch_logs = self._epoch_logs(logs)
            if val is not None and (epoch + 1) % validation_freq == 0:
                val_logs = self._evaluate_data(val, callbacks)
                epoch_logs.update({"val_" + k: v for k, v in val_logs.items()})
            callbacks.on_epoch_end(epoch, epoch_logs)
            if self.stop_training:
                break
        callbacks.on_train_end(epoch_logs)
        self.history = callbacks.history  # also when no epoch ran (epochs <= initial_epoch)
        return self.history

    def _train_epoch(self, data, callbacks):
        """One epoch's training steps; the last step's logs ({} when the data gave no batch,
        which Keras warns about)."""
        logs = None
        for step, batch in data.batches():
            callbacks.on_train_batch_begin(step)
            logs = self._run_step(self.train_step, batch)
            callbacks.on_train_batch_end(step, logs)
            if self.stop_training:
                break
        if logs is None:
            warnings.warn("Your input ran out of data; interrupting training. Make sure that "
                          "your dataset or generator can generate at least `steps_per_epoch * "
                          "epochs` batches. You may need to use the `.repeat()` function when "
                          "building your dataset.", UserWarning, stacklevel=3)
        return logs or {}

    def _step_function(self, step_fn, batch):
        """What ``fit`` and ``evaluate`` call per batch for ``step_fn`` (``self.train_step`` or
        ``self.test_step``): as in Keras, a ``tf.function`` of it (``reduce_retracing``), made
        once and kept as ``model.train_function`` / ``model.test_function``, unless the model
        runs eagerly (``compile(run_eagerly=True)``). So a ``print`` in a custom ``train_step``
        shows when it traces, and its steps replay a graph. While the playground or the
        notebook widget shows the run's tapes (``tape.showing``), steps run eagerly: each
        step's tape is what they show."""
        name = f"{step_fn.__name__.replace('_step', '')}_function"
        fn = self.__dict__.get(name)
        if fn is None or fn._python_function != step_fn:
            self._build_before_tracing(batch, name == "train_function")
            fn = tf_function(step_fn, reduce_retracing=True)
            self.__dict__[name] = fn
        return fn

    def _build_before_tracing(self, batch, training):
        """The model's weights, the compiled metrics and the optimizer's variables made before
        its first traced step, as Keras builds them before tracing (a first call that makes
        variables traces twice: ``tf.function``'s rule). Where the model has no weights yet or
        the metrics are not built, the model is called once on the batch's inputs (Keras calls
        it on symbolic inputs)."""
        x, y, _ = data_adapter.unpack(batch)
        metrics = self._compile_metrics
        build_metrics = metrics is not None and not metrics.built and y is not None
        if not self.weights or build_metrics:
            y_pred = self(x, training=False)
            if build_metrics:
                metrics._build(y, y_pred)
        optimizer, variables = self.optimizer, self.trainable_variables
        if training and optimizer is not None and not optimizer.built and variables:
            optimizer.build(variables)
            optimizer.built = True

    def _run_step(self, step_fn, batch):
        """One train or test step's logs; under a strategy of several replicas, each replica
        steps on its part of the batch and the logs are the metrics of them all."""
        strategy = self.distribute_strategy
        if not distributed.is_distributing(strategy):
            if not self._run_eagerly and not functions_run_eagerly() and not tape_module.showing:
                step_fn = self._step_function(step_fn, batch)
            return pythonify_logs(step_fn(batch))
        out = distributed.run_step(self, step_fn, batch)
        first = strategy.experimental_local_results(out)[0]
        results = self.get_metrics_result()
        if isinstance(first, dict) and set(pythonify_logs(first)) == set(results):
            return results
        return pythonify_logs(distributed.replica_logs(strategy, out))

    def _run_predict_step(self, batch):
        strategy = self.distribute_strategy
        if not distributed.is_distributing(strategy):
            return self.predict_step(batch)
        return distributed.joined_outputs(strategy,
                                          distributed.run_step(self, self.predict_step, batch))

    def _evaluate_data(self, data, callbacks):
        self.reset_metrics()
        callbacks.on_test_begin()
        logs = {}
        for step, batch in data.batches():
            callbacks.on_test_batch_begin(step)
            logs = self._run_step(self.test_step, batch)
            callbacks.on_test_batch_end(step, logs)
        logs = self._epoch_logs(logs)
        callbacks.on_test_end(logs)
        return logs

    def _flatten_in_order(self, logs):
        names = []
        for m in self.metrics:
            if isinstance(m, CompileMetrics):
                names += [sub.name for sub in m.metrics]
            else:
                names.append(m.name)
        out = [logs[n] for n in names if n in logs]
        out += [logs[k] for k in sorted(logs) if k not in names]
        return out[0] if len(out) == 1 else out

    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", sample_weight=None,
                 steps=None, callbacks=None, return_dict=False, **kwargs):
        """The loss and metrics over the data: a list (a number when there is only the loss),
        or a dict with ``return_dict=True``."""
        self._assert_compiled("evaluate")
        data = data_adapter.adapt(x, y, sample_weight, batch_size, False, steps)
        n = data.steps if isinstance(data, data_adapter.ArrayData) else data.known
        verbose = 1 if verbose == "auto" else verbose
        callbacks = CallbackList(callbacks, add_progbar=verbose != 0, model=self,
                                 verbose=verbose, epochs=1, steps=n)
        logs = self._evaluate_data(data, callbacks)
        return logs if return_dict else self._flatten_in_order(logs)

    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None):
        """The model's outputs for ``x``, batch by batch, joined as NumPy arrays."""
        data = data_adapter.adapt(x, None, None, batch_size, False, steps)
        if isinstance(data, data_adapter.ArrayData) and data.n == 0 and steps is None:
            data.steps = 1  # one empty batch: an empty result of the right shape
        n = data.steps if isinstance(data, data_adapter.ArrayData) else data.known
        verbose = 1 if verbose == "auto" else verbose
        callbacks = CallbackList(callbacks, add_progbar=verbose != 0, model=self,
                                 verbose=verbose, epochs=1, steps=n)
        callbacks.on_predict_begin()
        outputs = []
        for step, batch in data.batches():
            callbacks.on_predict_batch_begin(step)
            out = self._run_predict_step(batch)
            outputs.append(out)
            callbacks.on_predict_batch_end(step, {"outputs": out})
        callbacks.on_predict_end()
        return _concat(outputs)

    def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None,
                       return_dict=False):
        """One training step on one batch; the loss and metrics of that batch."""
        self._assert_compiled("train_on_batch")
        if class_weight is not None:
            if sample_weight is not None:
                raise ValueError("Arguments `sample_weight` and `class_weight` cannot be "
                                 "specified at the same time.")
            sample_weight = data_adapter.class_weight_to_sample_weight(y, class_weight)
        self.reset_metrics()
        logs = pythonify_logs(self.train_step((x, y, sample_weight)))
        return logs if return_dict else self._flatten_in_order(logs)

    def test_on_batch(self, x, y=None, sample_weight=None, return_dict=False):
        self._assert_compiled("test_on_batch")
        self.reset_metrics()
        logs = pythonify_logs(self.test_step((x, y, sample_weight)))
        return logs if return_dict else self._flatten_in_order(logs)

    def predict_on_batch(self, x):
        out = self.predict_step((x, None, None))
        return nest.map_structure(lambda t: xp.asarray(getattr(t, "_value", t)), out)


class _CompiledMetricsShim:
    def __init__(self, model):
        self.model = model

    def update_state(self, y, y_pred, sample_weight=None):
        warnings.warn("`model.compiled_metrics()` is deprecated. Instead, use e.g.:\n```\n"
                      "for metric in self.metrics:\n    metric.update_state(y, y_pred)\n```\n",
                      stacklevel=2)
        for metric in self.model.metrics:
            if isinstance(metric, metrics_module.Mean):
                metric.update_state(y_pred, sample_weight=sample_weight)
            else:
                metric.update_state(y, y_pred, sample_weight=sample_weight)
