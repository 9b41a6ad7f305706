"""Keras's default layer names: the first ``Dense`` is ``dense``, the next ``dense_1``...
``tf.keras.backend.clear_session()`` starts the counts again."""

import re

_counts = {}


def to_snake_case(name):
    """A class name as Keras names its objects by default (``Cropping1D`` -> ``cropping1d``,
    ``MeanSquaredError`` -> ``mean_squared_error``; tf.Module's rule would give ``cropping1_d``)."""
    name = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", re.sub(r"\W+", "", name))
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()


def unique_name(base):
    """``base`` the first time, then ``base_1``, ``base_2``...

    >>> from tapegrad.keras import naming
    >>> naming.reset(); naming.unique_name("dense"), naming.unique_name("dense")
    ('dense', 'dense_1')
    """
    n = _counts.get(base, 0)
    _counts[base] = n + 1
    return base if n == 0 else f"{base}_{n}"


def reset():
    _counts.clear()
