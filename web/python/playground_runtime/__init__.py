"""The Python half of the playground: runs the user's code the way the page shows it.

The worker (web/src/worker.js) writes this package into Pyodide's file system and imports it;
tests/engine/test_web_examples.py uses it natively. One `Session` serves many runs:

    session = Session(send)          # send(kind: str, payload: str) delivers a message to the page
    status = session.run(source)     # a dict: {"ok", "error": {"type", "line"} or None, "interrupted"},
                                     # and "stopped": {"line", "text"} when Stop ended it

The kinds it sends are named in `messages` (the page's table of them: web/src/messages.js).
What a run does, one module per concern:
- `aliases`: `import tensorflow` and `import keras` (and their submodules) resolve to tapegrad;
- `session`: the code is compiled as `main.py`, so tracebacks and graph nodes carry the editor's
  line numbers, and runs inside `tapegrad.graph.capture()`;
- `graph`: while a training loop or `fit` runs, its latest complete step's graph is sent as kind
  "live-graph" at most once a second (`live_graph`: tapegrad.graph.training_view.LiveSteps); the captured graph is sent as kind "graph" (a JSON string, docs/graph-json.md) after
  the run, also when the code raised (what was recorded so far); every requested gradient that
  came back None is explained after the graph, as kind "nones" (`{"items": [{"line", "source",
  "target", "message", "reason_line", "count", "text"}]}`, see `none_explanations`): the sentence
  `tape.explain` gives, which the engine put in the graph;
- `errors`: an exception is sent as kind "traceback", without the runner's own frames; a run
  that Stop ended is no error: no traceback, only the status's quiet "Stopped at line N.";
- `plots`: matplotlib draws with Agg; `plt.show()` and `plt.pause()` send PNGs as kind "plot";
- `training`: the live training plot's kind "training" messages, and Stop during fit;
- `weights`: files `model.save_weights` writes are sent as kind "weights" to be kept.
"""
from .aliases import install_tensorflow_alias  # noqa: F401
from .errors import USER_FILE, error_heading, user_traceback  # noqa: F401
from .graph import MAX_TAPES_FOR_NONES, any_none, live_graph, none_explanations  # noqa: F401
from .messages import KINDS  # noqa: F401
from .plots import PlotSender, uses_matplotlib  # noqa: F401
from .session import Session, uses_keras  # noqa: F401
from .training import TrainingFeed  # noqa: F401
from .weights import WeightStorage  # noqa: F401
