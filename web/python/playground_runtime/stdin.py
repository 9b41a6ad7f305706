"""The playground has no keyboard input for programs: ``input()`` and reads of ``sys.stdin``
raise ``EOFError`` (what Python raises when standard input is closed) with a sentence that says
so and what to do instead, rather than hanging the page or failing with an I/O error."""
import builtins
import io
import sys

NO_INPUT = ("input() has nothing to read here: the playground gives programs no keyboard input "
            "(standard input). Put the value in the code instead, e.g. name = \"Ada\".")


def _no_input(prompt=""):
    if prompt:
        print(prompt, end="", flush=True)   # as Python does before it reads
    raise EOFError(NO_INPUT)


class NoStdin(io.TextIOBase):
    """``sys.stdin`` for the playground: readable, always at its end, with the sentence."""

    def readable(self):
        return True

    def read(self, size=-1):
        raise EOFError(NO_INPUT)

    def readline(self, size=-1):
        raise EOFError(NO_INPUT)

    def isatty(self):
        return False


class no_keyboard_input:
    """Within the block (a run of the user's code), ``input()`` and ``sys.stdin`` say there is
    no keyboard input; both are restored after it."""

    def __enter__(self):
        self.saved = builtins.input, sys.stdin
        builtins.input, sys.stdin = _no_input, NoStdin()

    def __exit__(self, *exc):
        builtins.input, sys.stdin = self.saved
        return False
