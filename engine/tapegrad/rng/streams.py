"""The streams of ``tf.random``'s stateful draws: the global one, one per op-level seed, and in a
traced function one per draw node (``GraphStream``); and ``draw``, which marks a drawing function
as a node a traced graph calls again on every call (``replayed.py``)."""
from ..backend import xp as np  # the array seam (see backend.py)

from ..replayed import replayed

# The global stream is made at its first draw: importing numpy.random costs a noticeable part of
# the page's boot in Pyodide, and most tape code never draws. ``generation`` counts ``set_seed``
# calls; ``node_rng`` is the stream of the graph node drawing now (``GraphStream``).
state = {"rng": None, "seed": None, "op_rngs": {}, "generation": 0, "node_rng": None}
_DEFAULT_GRAPH_SEED = 87654321


def reset(seed):
    """``tf.random.set_seed``: the global stream and every op-level one start again from
    ``seed``; so do the graph nodes' streams at their next draw."""
    state["seed"] = None if seed is None else int(seed)
    state["rng"] = None
    state["op_rngs"] = {}
    state["generation"] += 1


class GraphStream:
    """The stream of one draw in a traced function's graph, where a seed is set (global or the
    op's): as TensorFlow's kernel, each op keeps its own, seeded from the global seed and the
    op's seed (or, without one, its place in the graph). So two functions with the same draws
    give the same values after ``set_seed``, two ops with the same op seed give the same values,
    each call continues the stream, and ``set_seed`` starts it again."""

    def __init__(self, key):
        self.key = key
        self.rng = self.generation = self.outer = None

    def __enter__(self):
        if self.generation != state["generation"]:
            glob = state["seed"] if state["seed"] is not None else _DEFAULT_GRAPH_SEED
            self.rng = np.random.default_rng([glob, *self.key])
            self.generation = state["generation"]
        self.outer, state["node_rng"] = state["node_rng"], self.rng
        return self

    def __exit__(self, *exc):
        state["node_rng"] = self.outer
        return False


def graph_stream(arguments, ordinal):
    """``replayed``'s ``per_node`` for a draw: its own stream where a seed is set."""
    seed = arguments.get("seed")
    if seed is None and state["seed"] is None:
        return None         # (no seed: the global stream, as eager)
    return GraphStream((int(seed),) if seed is not None else (ordinal, 1))


def draw(op):
    """Marks a draw: in a traced function, a graph node called again on every call."""
    return replayed(op, per_node=graph_stream)


def rng(seed):
    if state["node_rng"] is not None:
        return state["node_rng"]
    if seed is None:
        if state["rng"] is None:
            state["rng"] = np.random.default_rng(state["seed"])
        return state["rng"]
    rngs = state["op_rngs"]
    if seed not in rngs:
        rngs[seed] = np.random.default_rng([int(state["seed"] or _DEFAULT_GRAPH_SEED), int(seed)])
    return rngs[seed]
