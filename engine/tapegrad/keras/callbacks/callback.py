"""``tf.keras.callbacks.Callback``: hooks ``fit``, ``evaluate`` and ``predict`` call."""


class Callback:
    """Override any hook; ``self.model`` and ``self.params`` are set before training starts.

    >>> import tapegrad as tf
    >>> class Count(tf.keras.callbacks.Callback):
    ...     def on_epoch_end(self, epoch, logs=None):
    ...         print("epoch", epoch, sorted(logs))
    """

    def __init__(self):
        self.model = None
        self.params = {}
        self.validation_data = None

    def set_model(self, model):
        self.model = model

    def set_params(self, params):
        self.params = params

    def on_batch_begin(self, batch, logs=None):
        pass

    def on_batch_end(self, batch, logs=None):
        pass

    def on_epoch_begin(self, epoch, logs=None):
        pass

    def on_epoch_end(self, epoch, logs=None):
        pass

    def on_train_batch_begin(self, batch, logs=None):
        self.on_batch_begin(batch, logs=logs)

    def on_train_batch_end(self, batch, logs=None):
        self.on_batch_end(batch, logs=logs)

    def on_test_batch_begin(self, batch, logs=None):
        pass

    def on_test_batch_end(self, batch, logs=None):
        pass

    def on_predict_batch_begin(self, batch, logs=None):
        pass

    def on_predict_batch_end(self, batch, logs=None):
        pass

    def on_train_begin(self, logs=None):
        pass

    def on_train_end(self, logs=None):
        pass

    def on_test_begin(self, logs=None):
        pass

    def on_test_end(self, logs=None):
        pass

    def on_predict_begin(self, logs=None):
        pass

    def on_predict_end(self, logs=None):
        pass


def writes_files(model):
    """Whether this process writes a callback's files: always, except on the workers other than
    the chief of a MultiWorkerMirroredStrategy (``strategy.extended.should_checkpoint``)."""
    strategy = getattr(model, "distribute_strategy", None)
    return strategy is None or strategy.extended.should_checkpoint


def wait_for_every_worker(model):
    """Under MultiWorkerMirroredStrategy, waits until every worker is here (so that what the
    chief wrote before is complete when the others read it); elsewhere returns at once."""
    strategy = getattr(model, "distribute_strategy", None)
    if strategy is not None:
        strategy._barrier()
