"""The run's stdout and stderr for the page, in batches (kind "output"), so that code printing in a
tight loop cannot flood the page: a run's writes are kept here and sent at most once per
``SEND_EVERY_S`` (the first write after a quiet spell goes at once), before any other message (the
output stays in the order Python produced it), and at the end of the run.

A batch is ``{"parts": [[stream, text], ...], "full"?, "unsaved"?}`` with stream "stdout" or
"stderr". A batch longer than ``HEAD_LINES + TAIL_LINES`` lines (or ``HEAD_CHARS + TAIL_CHARS``
characters) shows its head and its tail, with a part ``["skipped", "… 12,345 lines not shown …"]``
between them; its whole text then travels as ``full``, for the page's *Save output*. What is kept
for saving is bounded per run (``SAVE_LIMIT`` characters): past it, ``full`` holds what still fits
and ``unsaved`` counts the characters left out.

Logging handlers made before the run (tapegrad's own, made at its import) hold the stream that
sys.stderr was then: during the run they write here too, so a warning keeps its place among the
printed lines instead of overtaking the stdout still waiting in a batch.

Python has no timer while the code runs (the worker is busy), so the clock is read at each write:
text written less than ``SEND_EVERY_S`` after a batch waits for the next write, a message, or the
end of the run.
"""
import io
import json
import logging
import sys
import time

from .messages import OUTPUT

SEND_EVERY_S = 0.1    # the console draws at most every 100 ms (web/src/console.js): no sooner
HEAD_LINES = 200
TAIL_LINES = 200
HEAD_CHARS = 20_000
TAIL_CHARS = 20_000
SAVE_LIMIT = 16 * 1024 * 1024


def _head_end(text):
    """Where the head of a batch ends: after its first HEAD_LINES lines, at most HEAD_CHARS."""
    at = 0
    for _ in range(HEAD_LINES):
        at = text.find("\n", at) + 1
        if at == 0:
            return min(len(text), HEAD_CHARS)
    return min(at, HEAD_CHARS)


def _tail_start(text):
    """Where the tail of a batch starts: before its last TAIL_LINES lines, at most TAIL_CHARS."""
    at = len(text) - 1 if text.endswith("\n") else len(text)
    for _ in range(TAIL_LINES):
        at = text.rfind("\n", 0, at)
        if at < 0:
            break
    return max(at + 1, len(text) - TAIL_CHARS)


def _clip(segments, start, end):
    """The [stream, text] parts of ``segments`` (consecutive in the batch) within [start, end)."""
    parts, at = [], 0
    for stream, text in segments:
        lo, hi = max(start, at), min(end, at + len(text))
        if lo < hi:
            parts.append([stream, text[lo - at:hi - at]])
        at += len(text)
    return parts


def batch_message(segments):
    """The shown parts of a batch and, when it was cut, its whole text: (message, text)."""
    text = "".join(t for _, t in segments)
    head, tail = _head_end(text), _tail_start(text)
    if head >= tail:
        return {"parts": [list(s) for s in segments]}, text
    lines = text.count("\n", head, tail)
    hidden = f"{lines:,} lines" if lines else f"{tail - head:,} characters"
    skipped = ["skipped", f"… {hidden} not shown (Save output keeps them) …"]
    parts = _clip(segments, 0, head) + [skipped] + _clip(segments, tail, len(text))
    return {"parts": parts, "full": text}, text


class OutputBatcher:
    """Collects a run's stdout and stderr and sends them as kind "output" batches.

    ``send(kind, payload)`` delivers a message to the page; ``after_flush()`` (optional) delivers
    output written below Python (the worker's own stream). Give the session ``self.send`` (which
    sends the pending output first) and ``self.flush``; ``run(session, source)`` runs the code with
    sys.stdout and sys.stderr writing here.
    """

    def __init__(self, send, after_flush=None):
        self.raw_send = send
        self.after_flush = after_flush
        self.pending = []          # [stream, [texts]] in the order written
        self.last_sent = 0.0
        self.saved = 0             # characters of this run kept for Save output

    def write(self, stream, text):
        if not text:
            return
        if self.pending and self.pending[-1][0] == stream:
            self.pending[-1][1].append(text)
        else:
            self.pending.append([stream, [text]])
        if time.monotonic() - self.last_sent >= SEND_EVERY_S:
            self.send_pending()

    def due(self):
        """A stream's flush(): sends the pending output if a batch is due (print(flush=True) in a
        loop must not flood the page either)."""
        if self.pending and time.monotonic() - self.last_sent >= SEND_EVERY_S:
            self.send_pending()

    def send_pending(self):
        if not self.pending:
            return
        segments = [(stream, "".join(texts)) for stream, texts in self.pending]
        message, text = batch_message(segments)
        room = max(0, SAVE_LIMIT - self.saved)
        if len(text) > room:
            message["full"] = text[:room]
            message["unsaved"] = len(text) - room
        self.saved += min(len(text), room)
        payload = json.dumps(message)
        self.pending = []
        self.last_sent = time.monotonic()
        self.raw_send(OUTPUT, payload)

    def flush(self):
        """Sends everything written so far, now (the end of the user's code, before an error)."""
        self.send_pending()
        if self.after_flush is not None:
            self.after_flush()

    def send(self, kind, payload):
        """Sends a message after the output written before it."""
        self.send_pending()
        self.raw_send(kind, payload)

    def run(self, session, source, notebook=None):
        """``session.run(source, notebook)`` with sys.stdout and sys.stderr batched here; the run's status."""
        self.pending = []
        self.saved = 0
        self.last_sent = 0.0
        saved = sys.stdout, sys.stderr
        for original in saved:
            original.flush()
        sys.stdout = BatchedStream(self, "stdout", saved[0])
        sys.stderr = BatchedStream(self, "stderr", saved[1])
        _redirect_handlers({id(saved[0]): sys.stdout, id(saved[1]): sys.stderr})
        try:
            return session.run(source, notebook)
        finally:
            # Back to the streams after the run, those the run's own handlers hold included.
            _redirect_handlers({id(sys.stdout): saved[0], id(sys.stderr): saved[1]})
            sys.stdout, sys.stderr = saved
            try:
                self.flush()
            except KeyboardInterrupt:   # a Stop as the run ends: the output still goes out
                self.flush()


def _redirect_handlers(streams):
    """Points each logging handler that writes to a stream whose id is a key of ``streams`` at
    that key's stream."""
    loggers = [logging.getLogger()] + [logger for logger in logging.Logger.manager.loggerDict.values()
                                       if isinstance(logger, logging.Logger)]
    for logger in loggers:
        for handler in logger.handlers:
            stream = getattr(handler, "stream", None)
            if isinstance(handler, logging.StreamHandler) and id(stream) in streams:
                handler.setStream(streams[id(stream)])


class BatchedStream(io.TextIOBase):
    """sys.stdout or sys.stderr during a run: text goes to the batcher; bytes written to
    ``buffer`` and the file descriptor go to the stream it replaces."""

    def __init__(self, batcher, name, original):
        super().__init__()
        self._batcher = batcher
        self._name = name
        self._original = original

    @property
    def encoding(self):
        return "utf-8"

    @property
    def buffer(self):
        return self._original.buffer

    def writable(self):
        return True

    def isatty(self):
        return False

    def fileno(self):
        return self._original.fileno()

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self._batcher.write(self._name, text)
        return len(text)

    def flush(self):
        self._batcher.due()
