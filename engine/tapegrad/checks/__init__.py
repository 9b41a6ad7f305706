"""Argument checks shared by every public op: one module per kind of argument.

Ops call these instead of validating in place, so TensorFlow's acceptance rules, its error
classes and one wording live in one spot each:

- ``axes``        an axis or a list of axes (integer type, range against the rank, duplicates)
- ``shapes``      a shape argument (non-negative ints, a single ``-1`` where allowed)
- ``dtype_rules`` which dtypes each op accepts, as TensorFlow's op registrations
- ``indices``     index ranges (gather, unsorted_segment_sum) and slice bounds
- ``sizes``       counts such as ``one_hot``'s depth, ``unstack``'s num, ``eye``'s rows
- ``numerics``    NumPy's warnings silenced inside the engine; ``enable_check_numerics``
- ``registry``    the primitives adopted when declared (their dtype guards; check_numerics)

Every check raises TensorFlow's class (``tapegrad.errors``) with a message naming the op, the
argument and what was expected::

    >>> from tapegrad import checks
    >>> checks.axes("Sum", [1, -1], rank=2)
    Traceback (most recent call last):
    ...
    tapegrad.errors.InvalidArgumentError: Sum: axis [1, -1] names the same axis twice [Op:Sum]
"""
from ._errors import invalid  # noqa: F401
from .axes import axis, axes  # noqa: F401
from .dtype_rules import check as check_dtype  # noqa: F401
from .indices import indices_in_range, slice_bounds  # noqa: F401
from .shapes import compatible, fits, shape  # noqa: F401
from .sizes import count  # noqa: F401
from .numerics import (  # noqa: F401
    check_numerics_enabled, disable_check_numerics, enable_check_numerics,
    silence as silence_numpy_warnings,
)

silence_numpy_warnings()   # inside the engine only; see numerics.py
