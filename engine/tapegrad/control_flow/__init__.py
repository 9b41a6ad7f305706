"""Control flow as functions (``tf.cond``, ``tf.while_loop``, ``tf.scan``, ``tf.TensorArray`` ...),
run eagerly: only the ops that actually run are recorded, and gradients flow through them. While
a ``tf.function`` traces, ``tf.cond``/``tf.case``/``tf.switch_case``/``tf.while_loop`` over a
computed predicate are graph nodes instead (``traced``)."""
from .branches import case, cond, switch_case  # noqa: F401
from .grouping import control_dependencies, group, identity_n, no_op  # noqa: F401
from .loops import foldl, foldr, map_fn, scan, vectorized_map, while_loop  # noqa: F401
from .tensor_array import TensorArray  # noqa: F401
