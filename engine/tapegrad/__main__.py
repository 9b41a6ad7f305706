"""Command line.

- ``python -m tapegrad run script.py [args]``: runs an unchanged TensorFlow script on tapegrad
  (``import tensorflow`` and ``import keras`` give tapegrad: ``aliases.py``), with ``sys.argv``
  set as Python would.
- ``python -m tapegrad graph script.py -o out.svg`` (or .json, .dot): runs the script, captures
  every tape it creates and writes their graph (the aliases are installed here too);
  ``--svg out.svg`` writes the SVG too (the drawing ``tape._repr_svg_()`` shows in a notebook).
  The JSON is the compact form of docs/graph-json.md, every tape in it. A script that trains (a
  loop or ``fit``: a tape per step) is drawn as the page draws it, one step, the last complete
  one (``graph.training_view``), in the SVG and the DOT. Stopped with Ctrl-C, the script ends
  with "Stopped at line N of script.py." and the graph recorded so far is written (exit status
  130, as a shell gives an interrupted command).
"""
import argparse
import os
import runpy
import sys

from .aliases import install_as_tensorflow
from .graph.capturing import Capture
from .graph.export import to_dot, to_json, to_svg
from .graph.training_view import representative_step


def _parser():
    ap = argparse.ArgumentParser(prog="python -m tapegrad")
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="run a TensorFlow script on tapegrad, unchanged")
    r.add_argument("script", help="a Python file written for TensorFlow (or tapegrad)")
    r.add_argument("args", nargs=argparse.REMAINDER, help="the script's own arguments")
    g = sub.add_parser("graph", help="run a script and write the graph of its tapes",
                       description="Runs a script and writes the graph of the tapes it recorded. A "
                       "script that trains (a loop or fit: a tape per step) is drawn as its last "
                       "complete step in the SVG and DOT (said on stderr); its JSON holds every "
                       "tape. Ctrl-C stops the script quietly and writes the graph recorded so far "
                       "(exit status 130).")
    g.add_argument("script", help="a Python file that uses tapegrad")
    g.add_argument("-o", "--output", help="out.svg, out.json or out.dot (a training loop's SVG "
                   "and DOT draw its last complete step; its JSON holds every tape)")
    g.add_argument("--svg", metavar="OUT.svg", help="also (or only) the SVG drawing")
    return ap


def _run_script(script, args):
    """Runs ``script`` as ``__main__`` with ``sys.argv`` and ``sys.path[0]`` as Python sets them."""
    install_as_tensorflow()
    saved_argv, saved_path0 = sys.argv, sys.path[0]
    sys.argv = [script] + list(args)
    sys.path[0] = os.path.dirname(os.path.abspath(script))
    try:
        runpy.run_path(script, run_name="__main__")
    finally:
        sys.argv, sys.path[0] = saved_argv, saved_path0


def main(argv=None):
    ap = _parser()
    ns, script_args = ap.parse_known_args(argv)
    if not os.path.isfile(ns.script):
        ap.error(f"no such script: {ns.script}")
    if ns.command == "run":
        _run_script(ns.script, list(ns.args) + script_args)
        return 0
    ns.args = [a for a in script_args if a != "--"]
    outputs = [(ns.output, ns.output.rsplit(".", 1)[-1].lower())] if ns.output else []
    if ns.svg:
        outputs.append((ns.svg, "svg"))
    if not outputs:
        ap.error("graph needs -o out.svg|out.json|out.dot or --svg out.svg")
    for _, fmt in outputs:
        if fmt not in WRITERS:
            ap.error(f"unknown output format .{fmt}: use .svg, .json or .dot")
    with Capture() as cap:
        stopped = _run_stoppable(ns.script, ns.args)
    if stopped:
        print(stopped, file=sys.stderr)
    doc = cap.to_dict()
    step = representative_step(cap) if any(fmt in DRAWINGS for _, fmt in outputs) else None
    for path, fmt in outputs:
        drawn = step if step is not None and fmt in DRAWINGS else doc
        with open(path, "w", encoding="utf-8") as f:
            f.write(WRITERS[fmt](drawn))
        shown = f" ({step['representative']['text']})" if drawn is step else ""
        print(f"wrote {path}: {_counts(drawn)}{shown}", file=sys.stderr)
    return STOPPED if stopped else 0


STOPPED = 130     # a stopped run's status, as a shell gives a command ended by Ctrl-C


def _run_stoppable(script, args):
    """Runs ``script``; an interrupt (Ctrl-C) ends it quietly: returns "Stopped at line N of
    script." (the script's line that was running), or None when the script ran to its end."""
    try:
        _run_script(script, args)
    except KeyboardInterrupt as stop:
        line = script_line(stop.__traceback__, script)
        return f"Stopped at line {line} of {script}." if line else f"Stopped: {script}."
    return None


def script_line(tb, script):
    """The line of ``script`` in traceback ``tb``'s innermost frame of that file, or None."""
    path, line = os.path.abspath(script), None
    while tb is not None:
        if os.path.abspath(tb.tb_frame.f_code.co_filename) == path:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _json_text(doc):
    """The JSON, indented for reading; a big tape's (its collapsed view, docs/graph-json.md) on
    one line: json's indenting encoder is pure Python, several times slower and its text twice
    as large for the long integer columns."""
    big = bool((doc.get("summarized") or {}).get("boxes"))
    return to_json(doc, indent=None if big else 1)


WRITERS = {"svg": to_svg, "json": _json_text, "dot": to_dot}
DRAWINGS = ("svg", "dot")     # a training run is drawn as one step; its JSON keeps every tape


def _counts(doc):
    s = doc.get("summarized") or {}
    nodes = s.get("original_nodes", len(doc["nodes"]))
    edges = len(doc["edges"]["source"]) if isinstance(doc["edges"], dict) else len(doc["edges"])
    boxes = f" (drawn as {s['boxes']} boxes)" if s.get("boxes") else ""
    return f"{nodes} nodes, {edges} edges, {len(doc['tapes'])} tape(s){boxes}"


if __name__ == "__main__":
    sys.exit(main())
