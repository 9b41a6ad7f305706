"""``tf.einsum`` in every subscript form TensorFlow accepts.

The equation is first made explicit: each '...' becomes letters of its own (right-aligned, so
operands with fewer broadcast axes share the trailing ones), and an omitted output becomes the
broadcast letters followed by the letters used exactly once, in alphabetical order. A letter
repeated within one operand ('ii->i', 'ii->', 'bii->b') takes that operand's diagonal first,
with the ``EinsumDiagonal`` primitive (its transpose ``EinsumDiagonalEmbed`` writes a gradient
back onto the diagonal and leaves zeros elsewhere). What remains has distinct letters per
operand and goes to the contraction primitive ``Einsum``.
"""
import string

from ..backend import xp
from ..errors import InvalidArgumentError
from ..recording import bind
from ..table import defjvp, defvjp, primitive
from ..checks.dtype_rules import INTERNAL
from ..tensor import convert_to_tensor
from ..variables import Variable
from .shape_ops import _free_letters, einsum as _contract
from .. import batching
from ..batching import own_vjp
from .. import shape_rules
from ..table import defshape


def _diagonal_impl(x, spec):
    out = xp.einsum(spec, x)
    return xp.ascontiguousarray(out) if out.ndim else xp.asarray(out)


def _embed_impl(g, spec, shape):
    out = xp.zeros(shape, g.dtype)
    xp.einsum(spec, out)[...] = g     # a writable view of the diagonal of ``out``
    return out


EINSUM_DIAGONAL = primitive("EinsumDiagonal", _diagonal_impl, exempt=INTERNAL)
defshape(EINSUM_DIAGONAL, shape_rules.einsum_one)
EINSUM_DIAGONAL_EMBED = primitive("EinsumDiagonalEmbed", _embed_impl, exempt=INTERNAL)
defshape(EINSUM_DIAGONAL_EMBED, shape_rules.fixed_shape("shape"))
def _with_rows(spec, g, ans):
    """``spec`` with letters of their own for any leading rows of ``g`` (``own_vjp``)."""
    lead = batching.lead_of(g, ans)
    if not lead:
        return spec
    lhs, out = spec.split("->")
    rows = _free_letters(lead, spec)
    return f"{rows}{lhs}->{rows}{out}"


defvjp(EINSUM_DIAGONAL, lambda g, ans, x, spec: bind(EINSUM_DIAGONAL_EMBED, (g,), {
    "spec": _with_rows(spec, g, ans),
    "shape": tuple(g._value.shape[:batching.lead_of(g, ans)] + x._value.shape)}))
defjvp(EINSUM_DIAGONAL, lambda t, ans, x, spec: bind(EINSUM_DIAGONAL, (t,), {"spec": spec}))
defvjp(EINSUM_DIAGONAL_EMBED, lambda g, ans, u, spec, shape: bind(
    EINSUM_DIAGONAL, (g,), {"spec": _with_rows(spec, g, ans)}))
defjvp(EINSUM_DIAGONAL_EMBED, lambda t, ans, u, spec, shape: bind(
    EINSUM_DIAGONAL_EMBED, (t,), {"spec": spec, "shape": shape}))


def _fmt(shape):
    return "[" + ",".join(map(str, shape)) + "]"


def _tensor(x):
    return x.read_value() if isinstance(x, Variable) else convert_to_tensor(x)


def _explicit(equation, shapes):
    """(terms, output): the equation with '...' spelled out and the output written."""
    eq = equation.replace(" ", "")
    lhs, arrow, out = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(shapes):
        raise ValueError(f'Got {len(shapes)} inputs for equation "{equation}", expecting '
                         f'{len(terms)}')
    for t in terms + ([out] if arrow else []):
        if not all(c.isalpha() for c in t.replace("...", "")) or t.count("...") > 1:
            raise ValueError(f"Invalid character or ellipsis in einsum equation {equation!r}")
    spare = [c for c in string.ascii_letters if c not in eq]
    n_ell = max((len(s) - (len(t) - 3) for t, s in zip(terms, shapes) if "..." in t), default=0)
    ell = "".join(spare[:max(n_ell, 0)])
    explicit = []
    for i, (t, s) in enumerate(zip(terms, shapes)):
        if "..." in t:
            k = len(s) - (len(t) - 3)
            if k < 0:
                raise InvalidArgumentError(f"Expected input {i} to have rank at least "
                                           f"{len(t) - 3} but got: {len(s)} [Op:Einsum]")
            t = t.replace("...", ell[len(ell) - k:] if k else "")
        if len(t) != len(s):
            raise InvalidArgumentError(f"Expected input {i} to have rank {len(t)} but got: "
                                       f"{len(s)} [Op:Einsum]")
        explicit.append(t)
    if arrow:
        out = out.replace("...", ell)
        for c in out:
            if out.count(c) > 1:
                raise ValueError(f"Output subscripts contain a label appearing more than once: "
                                 f"{equation}")
            if not any(c in t for t in explicit):
                raise ValueError(f"Output subscripts contain the label {c} not present in the "
                                 f"input subscripts.")
    else:
        joined = "".join(explicit)
        out = ell + "".join(sorted(c for c in set(joined) if joined.count(c) == 1
                                   and c not in ell))
    return explicit, out


def _take_diagonals(x, term, index):
    """x with each repeated letter of ``term`` reduced to its diagonal; the new term."""
    if len(set(term)) == len(term):
        return x, term
    shape = tuple(x._value.shape)
    for axis, c in enumerate(term):
        first = term.index(c)
        if shape[axis] != shape[first]:
            raise InvalidArgumentError(f"Expected dimension {shape[first]} at axis {axis} of the "
                                       f"input shaped {_fmt(shape)} but got dimension "
                                       f"{shape[axis]} [Op:Einsum]")
    unique = "".join(dict.fromkeys(term))
    return bind(EINSUM_DIAGONAL, (x,), {"spec": f"{term}->{unique}"}), unique


def einsum(equation, *inputs, **kwargs):
    """Einstein summation over the letters of ``equation``.

    Repeated letters within an operand take diagonals ('ii->' is the trace), '...' stands for
    broadcast axes, and without '->' the output is the letters used once, in order.

    >>> import tapegrad as tf
    >>> float(tf.einsum('ii', [[1.0, 2.0], [3.0, 4.0]]))
    5.0
    >>> tf.einsum('ii->i', [[1.0, 2.0], [3.0, 4.0]]).numpy().tolist()
    [1.0, 4.0]
    """
    if len(inputs) == 1 and isinstance(inputs[0], (list, tuple)) and inputs[0] and \
            hasattr(inputs[0][0], "shape") and not hasattr(inputs[0], "shape"):
        inputs = tuple(inputs[0])
    xs = [_tensor(x) for x in inputs]
    terms, out = _explicit(equation, [tuple(x._value.shape) for x in xs])
    reduced = [_take_diagonals(x, t, i) for i, (x, t) in enumerate(zip(xs, terms))]
    return _contract(",".join(t for _, t in reduced) + "->" + out, *[x for x, _ in reduced])


# -- batched rules (batching.py): every row of a jacobian in one pass --------------------------
own_vjp(EINSUM_DIAGONAL, EINSUM_DIAGONAL_EMBED)
