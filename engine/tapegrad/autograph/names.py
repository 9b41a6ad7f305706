"""The names the rewrite adds (``if_body_3``, ``do_return``, ``break_1`` ...), kept apart from
every name the user's function uses: a function with its own ``do_return`` gets ``do_return_1``
for the flag, as TensorFlow's AutoGraph names it."""
import ast

# The helpers numbered per converted statement (``transform._Converter``): k is skipped when
# any of them, with that number, is a name of the user's.
_NUMBERED = ("if_body", "else_body", "get_state", "set_state", "vals", "loop_test", "loop_body",
             "itr", "extra_test")


def _identifiers(tree):
    used = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Name):
            used.add(n.id)
        elif isinstance(n, ast.arg):
            used.add(n.arg)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            used.add(n.name)
        elif isinstance(n, ast.alias):
            used.add((n.asname or n.name).split(".")[0])
        elif isinstance(n, (ast.Global, ast.Nonlocal)):
            used.update(n.names)
    return used


class Namer:
    """Hands out the rewrite's names for one converted function (and the functions in it)."""

    def __init__(self, tree):
        self.used = _identifiers(tree)
        self.k = 0

    def number(self):
        """The next statement number whose helper names are all free."""
        while True:
            self.k += 1
            if not any(f"{h}_{self.k}" in self.used for h in _NUMBERED):
                return self.k

    def fresh(self, base):
        """``base``, or ``base_1``, ``base_2``... the first that is no other name."""
        name, i = base, 0
        while name in self.used:
            i += 1
            name = f"{base}_{i}"
        self.used.add(name)
        return name
