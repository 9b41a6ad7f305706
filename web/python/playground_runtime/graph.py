"""The run's graph for the page: kind "graph" (docs/graph-json.md), one training step's when the
run recorded a loop, then kind "nones": each None gradient's sentence for the console. While a
training loop or ``fit`` runs, kind "live-graph" brings its latest complete step (``LiveGraph``).

(tapegrad is imported where it is used: the worker imports this runtime before tapegrad.)
"""
import json
import time

from .messages import GRAPH, GRAPH_PREVIEW, LIVE_GRAPH, NONES

MAX_TAPES_FOR_NONES = 30   # past this many tapes, None gradients are explained for the step shown


def none_explanations(doc):
    """One item per distinct None gradient in a graph document (docs/graph-json.md), in call order.

    Each item: `line` (the tape.gradient / tape.jacobian call), `source`, `target`, `message` (the
    engine's reason, the sentence `tape.explain` gives), `reason_line` (the line the reason points
    at, or None), `count` (how many calls gave this same None: a loop repeats them) and `text`
    (the console's sentence after "line N: ", built by `tapegrad.graph.explain.none_sentence`).
    """
    from tapegrad.graph.explain import no_recorded_path, none_sentence, short_label
    items = {}
    for tape in doc.get("tapes", []):
        for call in tape.get("gradients", []):
            targets = [short_label(t.get("label", "the target")) for t in call.get("targets", [])]
            target = ", ".join(targets) or "the target"
            for result in call.get("results", []):
                if not result.get("none"):
                    continue
                source = short_label(result.get("label", "the source"))
                reason = result.get("reason") or {}
                message = reason.get("message") or no_recorded_path(target, source)
                key = (call.get("line"), source, target, message)
                if key in items:
                    items[key]["count"] += 1
                else:
                    items[key] = {"line": call.get("line"), "source": source, "target": target,
                                  "message": message, "reason_line": reason.get("line"), "count": 1}
    for item in items.values():
        sentence = none_sentence(item["target"], item["source"], item["message"], item["count"])
        item["text"] = sentence[:1].lower() + sentence[1:]
    return list(items.values())


def send_graph(send, capture, values=()):
    """Sends the captured graph (one step's of a training loop) and the None gradients' sentences.
    ``values``: the run's names' values; the ``tf.function``s among them that traced go with the
    graph as its field ``functions`` (tapegrad.graph.function_view.traced_functions)."""
    from tapegrad.graph.export import to_json
    from tapegrad.graph.function_view import traced_functions
    from tapegrad.graph.training_view import representative_step

    previews = []

    def preview(doc):     # a big tape's collapsed view, drawn while the rest is exported
        previews.append(doc)
        send(GRAPH_PREVIEW, to_json(doc))
    step = representative_step(capture, preview)
    if step is None:
        doc = capture.to_dict(preview=preview)
    elif any_none(capture) and len(capture.tapes) <= MAX_TAPES_FOR_NONES:
        doc = capture.to_dict()    # Nones counted over every step while that stays cheap
    else:
        doc = step                 # (a fit usually has none: no export of every step)
    sent = step if step is not None else doc
    functions = traced_functions(list(values))
    send(GRAPH, page_document(sent, previews[-1] if previews else None, functions))
    nones = none_explanations(doc)
    if nones:
        send(NONES, json.dumps({"items": nones}))


# The last big tape's whole document (compact form): the page holds its box view only and asks
# for a box's members (graph_members) when the box is opened.
kept = {"doc": None}


def page_document(doc, preview, functions=None):
    """The JSON text of the "graph" message for ``doc``: a big tape's (one with a ``preview``) is
    its box view (docs/graph-json.md, "The box view"), its whole document kept here for
    ``graph_members``; any other document is sent whole."""
    from tapegrad.graph.compact import box_view
    from tapegrad.graph.export import to_json
    extra = {"functions": functions} if functions else {}
    if preview is None or doc.get("version") != 2 or not doc.get("layout", {}).get("collapsed"):
        kept["doc"] = None
        return to_json({**doc, **extra})
    kept["doc"] = doc
    return json.dumps({**box_view(doc, preview), **extra}, allow_nan=False, separators=(",", ":"))


def graph_members(group, start=0, count=None):
    """Members of box ``group`` of the last big tape's graph, as JSON text
    (``tapegrad.graph.compact.box_members``; ``total`` -1 when that graph is not kept)."""
    from tapegrad.graph.compact import MEMBERS_PAGE, box_members
    count = MEMBERS_PAGE if count is None else int(count)
    if kept["doc"] is None:
        return json.dumps({"group": group, "total": -1, "start": start, "members": []})
    return json.dumps(box_members(kept["doc"], group, int(start), count), allow_nan=False)


def warm_up(ops=2000):
    """Records and exports a small big tape (``ops`` ops, collapsed) and throws it away: the
    worker calls it once at idle after the boot, so that the first big tape a run exports is as
    fast as later ones (in a fresh worker it ran 2-3 times slower: its memory and code still cold;
    docs/performance.md, "Big tapes")."""
    import numpy as np

    import tapegrad
    from tapegrad.graph.export import to_json
    with tapegrad.graph.capture() as cap:
        x = tapegrad.Variable(np.ones(4, np.float32), name="x")
        with tapegrad.GradientTape() as tape:
            y = x
            for _ in range(ops):
                y = y * 1.0001
        tape.gradient(y, x)
    previews = []

    def preview(doc):
        previews.append(doc)
        to_json(doc)
    last = kept["doc"]      # (it may run after a first run: that run's graph stays listed)
    page_document(cap.to_dict(preview=preview), previews[-1] if previews else None)
    kept["doc"] = last


def any_none(capture):
    """Whether some gradient call of the capture gave a None (or unconnected zero) result."""
    return any(reason is not None for *_, reasons, _line in capture.calls for reason in reasons)


class LiveGraph:
    """While a training loop or ``fit`` runs, sends the page its latest complete step's graph
    (kind "live-graph": a graph document with ``"live": {"tape", "text"}``), so the Tape pane
    follows the training instead of waiting for the end.

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
    here, in the worker: the page draws every document it gets.
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
        from tapegrad import tape as tape_module
        tape_module.creation_hooks.append(self.on_tape)
        return self

    def __exit__(self, *exc):
        from tapegrad import tape as tape_module
        if self.on_tape in tape_module.creation_hooks:
            tape_module.creation_hooks.remove(self.on_tape)
        return False

    def on_tape(self, tape):
        from tapegrad.graph.provenance import provenance_of
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
            if len(tapes) == self.LOOP_TAPES:
                self.loop_found()
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

    def loop_found(self):
        """The run is a loop: the export's modules are imported now (the graph at the end needs
        them anyway), so that their import does not count as the first export's cost."""
        import tapegrad.graph.export  # noqa: F401

    def send_step(self, index):
        """Sends tape ``index``'s graph; ``live.export_ms``: what building it took (all but the
        final json.dumps of its compact form)."""
        from tapegrad.graph.export import compact, to_json
        from tapegrad.graph.training_view import step_graph
        started = self.clock()
        doc = compact(step_graph(self.capture, index, f"step {index + 1} (training goes on)",
                                 collapsed=True))
        doc["live"] = {"tape": index, "export_ms": round(1000 * (self.clock() - started), 1),
                       "text": f"Training: step {index + 1}, the latest complete one."}
        self.send(LIVE_GRAPH, to_json(doc))
        self.sent += 1
