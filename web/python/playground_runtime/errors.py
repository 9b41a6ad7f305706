"""The error of a run as the page shows it (kind "traceback"): the user's frames only; and the
quiet line a run stopped by the Stop button ends with instead (Stop is not an error)."""
import os
import traceback

USER_FILE = "main.py"      # the name the user's code is compiled under: tracebacks show its lines
_HERE = os.path.dirname(os.path.abspath(__file__))


def _frame_owner(frame, filename):
    """Who a traceback frame belongs to: "user", "tapegrad", or a top-level module name."""
    if filename == USER_FILE:
        return "user"
    name = frame.f_globals.get("__name__") or ""
    top = name.split(".")[0]
    if top == "tapegrad" or "/tapegrad/" in filename.replace("\\", "/"):
        return "tapegrad"
    if top == __name__.split(".")[0] or os.path.dirname(os.path.abspath(filename)) == _HERE:
        return "the playground"
    return top or "Python"


def error_heading(exc):
    """The error's first line: TensorFlow's class and message, e.g.
    ``InvalidArgumentError: ... (tf.errors.InvalidArgumentError)``."""
    cls = type(exc)
    if cls.__module__ != "tapegrad.errors":
        return "".join(traceback.format_exception_only(cls, exc)).rstrip("\n")
    return f"{cls.__name__}: {exc}  (tf.errors.{cls.__name__})"


def user_traceback(exc):
    """The error as the page shows it, and the user's line to highlight.

    The first line is the error's class and message (TensorFlow's class for the engine's errors),
    then the traceback with only the frames of the user's file; each run of consecutive frames
    elsewhere is folded into one line (``  … 4 frames inside tapegrad``). The runner's own frames
    before the first user frame are dropped. A SyntaxError keeps Python's caret display.
    """
    if isinstance(exc, SyntaxError) and exc.filename == USER_FILE:
        text = "".join(traceback.format_exception_only(type(exc), exc))
        return text, exc.lineno
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != USER_FILE:
        tb = tb.tb_next
    lines = [error_heading(exc) + "\n"]
    line = None
    if tb is not None:
        lines.append("Traceback (most recent call last):\n")
        entries = traceback.extract_tb(tb)
        frames = []
        while tb is not None:
            frames.append(tb.tb_frame)
            tb = tb.tb_next
        folded = []      # consecutive frames outside the user's file: (owner, count)
        for frame, entry in zip(frames, entries):
            owner = _frame_owner(frame, entry.filename)
            if owner == "user":
                lines.extend(_folded_lines(folded))
                folded = []
                lines.extend(traceback.format_list([entry]))
                line = entry.lineno
            elif folded and folded[-1][0] == owner:
                folded[-1][1] += 1
            else:
                folded.append([owner, 1])
        lines.extend(_folded_lines(folded))
    return "".join(lines), line


def _folded_lines(folded):
    return [f"  … {n} frame{'s' if n != 1 else ''} inside {owner}\n" for owner, n in folded]


class StopBetweenSteps(KeyboardInterrupt):
    """Stop, honoured by the playground at a safe point (between training steps); ``detail`` says
    where, for the line the stopped run ends with."""

    def __init__(self, detail):
        super().__init__(detail)
        self.detail = detail


def stopped_status(exc, doing=None):
    """The status of a run that Stop ended (``exc``: the ``KeyboardInterrupt``), with the line the
    page shows for it: ``Stopped at line N.`` (N the user's line that was running), what was
    being done where the line says nothing (``doing``), and where a stop between steps happened.

    >>> stopped_status(StopBetweenSteps("between training steps (epoch 1, after step 2)"))["stopped"]
    {'line': None, 'text': 'Stopped between training steps (epoch 1, after step 2).'}
    """
    _, line = user_traceback(exc)
    where = f" at line {line}" if line else f" {doing}" if doing else ""
    detail = getattr(exc, "detail", None)
    text = f"Stopped{where}{',' if where and detail else ''}{' ' + detail if detail else ''}."
    return {"ok": False, "error": None, "interrupted": True, "stopped": {"line": line, "text": text}}
