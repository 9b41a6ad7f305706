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
import time

from .. import tape as tape_module
from .capturing import LOOP_STEPS
from .compact import compact
from .document import MAX_NODES, export_dict
from .provenance import provenance_of


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


class LiveSteps:
    """While a training loop or ``fit`` runs, gives ``send`` its latest complete step's graph (a
    collapsed graph document with ``"live": {"tape", "export_ms", "text"}``), so the playground's
    Tape pane (kind "live-graph") and the notebook's ``%%tapegrad`` widget follow the training
    instead of waiting for the end.

    It follows the run's capture: after each gradient call (a step is complete when its gradient
    has been taken), at most once per ``EVERY_S`` seconds and only once one line of the code has
    asked for the gradients of two tapes (a loop: a single tape or a demo of a few distinct tapes
    is shown at the end as before). The step is sent in its collapsed form (ops folded into boxes
    by layer or source line, no values: a Keras step of the digits example exports in 14 ms
    natively, against 107 ms whole, most of that the values' summaries); the graph at the end is
    the whole step. The next export waits ``EVERY_S`` or ``1 / MAX_SHARE`` times the last one's
    cost (the first export's, cold, aside), whichever is longer: the exports take at most about
    ``MAX_SHARE`` of the run's time
    (tests/browser/bench_live_graph.py measures the run with and without them). The throttle is
    here, where the run is: the page and the widget draw every document they get.
    """

    EVERY_S = 1.0
    MAX_SHARE = 0.02     # 0.04 cost a CNN's fit 4-5% in the page (bench_page_vs_worker.py)
    LOOP_TAPES = 2       # tapes asked on one line before the run counts as a loop

    def __init__(self, send, clock=time.monotonic):
        self.send = send
        self.clock = clock
        self.capture = None
        self.next_at = 0.0
        self.tapes_of_line = {}    # line of a gradient call -> the tapes asked there (a few)
        self.sent = 0

    def follow(self, capture):
        """Follows ``capture`` from now on (a new run); used as ``with live.follow(cap):`` inside
        ``with cap:``, so that each tape tells the capture of its gradient calls first."""
        self.capture = capture
        self.next_at = self.clock() + self.EVERY_S
        self.tapes_of_line = {}
        self.sent = 0
        return self

    def __enter__(self):
        tape_module.creation_hooks.append(self.on_tape)
        return self

    def __exit__(self, *exc):
        if self.on_tape in tape_module.creation_hooks:
            tape_module.creation_hooks.remove(self.on_tape)
        return False

    def on_tape(self, tape):
        provenance_of(tape).subscribers.append(self)

    def on_gradient(self, tape, call):
        """A gradient call on a tape of the run (after the capture has noted it)."""
        self.after_gradient()

    def after_gradient(self):
        if not self.capture.calls:
            return
        index, *_, line = self.capture.calls[-1]
        tapes = self.tapes_of_line.setdefault(line, set())
        if len(tapes) < self.LOOP_TAPES:
            tapes.add(index)
        started = self.clock()
        if started < self.next_at or len(tapes) < self.LOOP_TAPES:
            return
        try:
            self.send_step(index)
        except Exception:     # the run goes on without live graphs; the graph at its end tells
            self.next_at = float("inf")
            return
        now = self.clock()
        # the run's first export is the cold one (2-5 times the next): it does not set the pace
        cost = 0.0 if self.sent == 1 else now - started
        self.next_at = now + max(self.EVERY_S, cost / self.MAX_SHARE)

    def send_step(self, index):
        """Sends tape ``index``'s graph (compact form); ``live.export_ms``: what building it took."""
        started = self.clock()
        doc = compact(step_graph(self.capture, index, f"step {index + 1} (training goes on)",
                                 collapsed=True))
        doc["live"] = {"tape": index, "export_ms": round(1000 * (self.clock() - started), 1),
                       "text": f"Training: step {index + 1}, the latest complete one."}
        self.send(doc)
        self.sent += 1
