"""The run's graph for the page: kind "graph" (docs/graph-json.md), one training step's when the
run recorded a loop, then kind "nones": each None gradient's sentence for the console. While a
training loop or ``fit`` runs, kind "live-graph" brings its latest complete step (``live_graph``).

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


def live_graph(send):
    """The page's live graph: ``tapegrad.graph.training_view.LiveSteps`` (which step, how often)
    sending each step's collapsed graph as kind "live-graph" (a JSON string)."""
    from tapegrad.graph.export import to_json
    from tapegrad.graph.training_view import LiveSteps
    return LiveSteps(lambda doc: send(LIVE_GRAPH, to_json(doc)))
