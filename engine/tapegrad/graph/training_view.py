"""Which graph a run that trained shows: a training loop or ``fit`` records a tape per step,
and the page, the notebook widget's ``%%tapegrad`` and ``python -m tapegrad graph`` draw one
step, the last complete one (``representative_step``), rather than every tape merged; a step
alone is ``step_graph`` (the playground's live graph sends one while training goes on).

>>> import tapegrad as tf
>>> from tapegrad.graph import capture
>>> w = tf.Variable(1.0)
>>> with capture() as cap:
...     for _ in range(4):
...         with tf.GradientTape() as tape:
...             loss = w * w
...         g = tape.gradient(loss, w)
>>> representative_step(cap)["representative"]["text"]
'One training step shown: the last complete one (tape 4 of 4 recorded).'
"""
from .capturing import LOOP_STEPS
from .document import MAX_NODES, export_dict


def representative_step(capture, preview=None):
    """When a run recorded many tapes (a training loop, fit), the graph of one training step.

    Tapes whose gradient was asked for on the same line are steps of one loop; the graph then
    keeps the last tape with a gradient call (the last complete step) and says so in
    ``doc["representative"]`` (``{"tape", "tapes", "text"}``). None when the run is not a loop
    (its whole capture is the graph). ``preview``: as ``export_dict``'s, for the step's graph.
    """
    lines = {}
    for index, _call, _names, _reasons, line in capture.calls:
        lines.setdefault(line, set()).add(index)
    # a training loop: one line asked at least 3 tapes, and they are most of the run's tapes (a
    # short demo that repeats one of several tapes twice keeps all of them in the graph)
    steps = max((len(t) for t in lines.values()), default=0)
    if steps < LOOP_STEPS or 2 * steps <= len(capture.tapes):
        return None
    last = max(index for index, *_ in capture.calls)
    step = step_graph(capture, last, f"step {last + 1} of {len(capture.tapes)}", preview=preview)
    step["representative"] = {
        "tape": last, "tapes": len(capture.tapes),
        "text": f"One training step shown: the last complete one (tape {last + 1} of "
                f"{len(capture.tapes)} recorded)."}
    return step


def step_graph(capture, index, label, collapsed=False, preview=None):
    """The graph document of the captured tape ``index`` alone, with its gradient calls; the
    panel names the tape ``label``. ``collapsed``: the big tapes' form whatever the tape's size
    (docs/graph-json.md, version 2: ops folded into boxes by group or source line, tensors
    summarized by shape and dtype), several times cheaper to export."""
    calls = [(0, *rest) for tape, *rest in capture.calls if tape == index]
    names = {0: capture.tape_names[index]} if index in capture.tape_names else None

    def labelled(doc):
        for tape in doc["tapes"]:
            tape["label"] = label
        return doc
    step = export_dict([capture.tapes[index]], calls, 0 if collapsed else MAX_NODES,
                       tape_names=names,
                       preview=None if preview is None else (lambda doc: preview(labelled(doc))))
    return labelled(step)
