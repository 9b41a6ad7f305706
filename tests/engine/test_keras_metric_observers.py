"""Metric.result_observers: every result() of every metric class reports (metric, value)."""
import numpy as np
import pytest

import tapegrad as tf
from tapegrad.keras.metrics import Metric


@pytest.fixture
def seen():
    got = []

    def observer(metric, value):
        got.append((metric.name, float(np.asarray(value))))
    Metric.result_observers.append(observer)
    yield got
    Metric.result_observers.remove(observer)


def test_builtin_metrics_report_each_result(seen):
    m = tf.keras.metrics.Mean(name="loss_mean")
    m.update_state([1.0, 3.0])
    m.result()
    m.result()
    acc = tf.keras.metrics.SparseCategoricalAccuracy(name="acc")
    acc([1, 0], [[0.1, 0.9], [0.3, 0.7]])        # __call__ reads result once
    assert seen == [("loss_mean", 2.0), ("loss_mean", 2.0), ("acc", 0.5)]


def test_user_subclass_reports_once_through_super(seen):
    class Doubled(tf.keras.metrics.Mean):
        def result(self):
            return super().result() * 2.0

    class Count(Metric):
        def __init__(self, name="count"):
            super().__init__(name=name)
            self.n = self.add_variable(name="n")

        def update_state(self, x):
            self.n.assign_add(float(len(x)))

        def result(self):
            return self.n.value()

    d = Doubled(name="doubled")
    d.update_state([1.0, 2.0])
    assert float(d.result()) == 3.0
    c = Count()
    c.update_state([1, 2, 3])
    c.result()
    assert seen == [("doubled", 3.0), ("count", 3.0)]
    assert Doubled.result.__name__ == "result"


def test_observer_sees_the_returned_value_and_no_list_costs_nothing():
    values = []
    m = tf.keras.metrics.Sum()
    m.update_state([2.0, 5.0])
    assert Metric.result_observers == []
    assert float(m.result()) == 7.0                     # nothing to call, still the value
    Metric.result_observers.append(lambda metric, value: values.append(value))
    try:
        value = m.result()
    finally:
        Metric.result_observers.clear()
    assert values == [value]
    m.result()
    assert len(values) == 1


def test_an_observer_that_raises_propagates(seen):
    def broken(metric, value):
        raise RuntimeError("observer failed")
    Metric.result_observers.append(broken)
    try:
        with pytest.raises(RuntimeError, match="observer failed"):
            tf.keras.metrics.Mean().result()
    finally:
        Metric.result_observers.remove(broken)
