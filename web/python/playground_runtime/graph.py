"""The run's graph for the page: kind "graph" (docs/graph-json.md), one training step's when the
run recorded a loop, then kind "nones": each None gradient's sentence for the console.

(tapegrad is imported where it is used: the worker imports this runtime before tapegrad.)
"""
import json

from .messages import GRAPH, NONES

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


def send_graph(send, capture):
    """Sends the captured graph (one step's of a training loop) and the None gradients' sentences."""
    from tapegrad.graph.export import to_json
    step = representative_step(capture)
    if step is None:
        doc = capture.to_dict()
    elif any_none(capture) and len(capture.tapes) <= MAX_TAPES_FOR_NONES:
        doc = capture.to_dict()    # Nones counted over every step while that stays cheap
    else:
        doc = step                 # (a fit usually has none: no export of every step)
    send(GRAPH, to_json(step if step is not None else doc))
    nones = none_explanations(doc)
    if nones:
        send(NONES, json.dumps({"items": nones}))


def any_none(capture):
    """Whether some gradient call of the capture gave a None (or unconnected zero) result."""
    return any(reason is not None for *_, reasons, _line in capture.calls for reason in reasons)


def representative_step(capture):
    """When a run recorded many tapes (a training loop, fit), the graph of one training step.

    Tapes whose gradient was asked for on the same line are steps of one loop; the graph then
    keeps the last tape with a gradient call (the last complete step) and says so in
    ``doc["representative"]`` (``{"tape", "tapes", "text"}``). Other documents are returned as
    they are.
    """
    from tapegrad.graph.document import export_dict
    lines = {}
    for index, _call, _names, _reasons, line in capture.calls:
        lines.setdefault(line, set()).add(index)
    # a training loop: one line asked at least 3 tapes, and they are most of the run's tapes (a
    # short demo that repeats one of several tapes twice keeps all of them in the graph)
    steps = max((len(t) for t in lines.values()), default=0)
    if steps < 3 or 2 * steps <= len(capture.tapes):
        return None
    last = max(index for index, *_ in capture.calls)
    calls = [(0, *rest) for index, *rest in capture.calls if index == last]
    names = {0: capture.tape_names[last]} if last in capture.tape_names else None
    step = export_dict([capture.tapes[last]], calls, tape_names=names)
    for tape in step["tapes"]:
        tape["label"] = f"step {last + 1} of {len(capture.tapes)}"    # the panel names the tape so
    step["representative"] = {
        "tape": last, "tapes": len(capture.tapes),
        "text": f"One training step shown: the last complete one (tape {last + 1} of "
                f"{len(capture.tapes)} recorded)."}
    return step
