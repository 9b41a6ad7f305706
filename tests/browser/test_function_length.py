"""No JavaScript function in web/src is longer than 80 lines (the engine's rule for Python, kept for
the page): a long one is split into named parts. Needs only Python: a small scanner that knows
JavaScript's comments, strings, template literals and regular expressions finds each function's
body by its braces.
"""
from __future__ import annotations

import re

from conftest import ROOT  # noqa: E402

SRC = ROOT / "web" / "src"
MAX_LINES = 80

# After one of these, a "/" starts a regular expression (not a division).
_REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^") | {"", "return", "typeof", "case", "do", "else", "in",
                                               "of", "new", "delete", "void", "throw", "yield", "await"}
_WORD = re.compile(r"[A-Za-z_$][\w$]*")
_FUNCTION_NAME = re.compile(
    r"(?:function\s*\*?\s*([A-Za-z_$][\w$]*)?\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*$)"   # function f(...) {
    r"|(?:([A-Za-z_$][\w$]*)\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*$)"                     # method f(...) {
    r"|(?:=>\s*$)")                                                                      # ... => {


def _skip_string(text: str, i: int) -> int:
    """The index after the quoted string that opens at text[i]."""
    quote, i = text[i], i + 1
    while text[i] != quote:
        i += 2 if text[i] == "\\" else 1
    return i + 1


def _skip_regex(text: str, i: int) -> int:
    """The index after the regular expression literal that opens at text[i] ("/")."""
    i, in_class = i + 1, False
    while in_class or text[i] != "/":
        if text[i] == "\\":
            i += 1
        elif text[i] == "[":
            in_class = True
        elif text[i] == "]":
            in_class = False
        i += 1
    i += 1
    while i < len(text) and (text[i].isalpha()):
        i += 1
    return i


def braces(text: str) -> list[tuple[int, int]]:
    """Every pair of code braces in `text` as (offset of "{", offset of "}"), template literals'
    `${...}` included; braces inside comments, strings and regular expressions are not code."""
    pairs, stack, templates = [], [], []   # templates: depth of stack where each `${` opened
    i, last = 0, ""                      # last: the previous significant token
    while i < len(text):
        c = text[i]
        if text.startswith("//", i):
            i = text.find("\n", i)
            i = len(text) if i < 0 else i
        elif text.startswith("/*", i):
            i = text.index("*/", i) + 2
        elif c in "\"'":
            i, last = _skip_string(text, i), "str"
        elif c == "`" or (c == "}" and templates and templates[-1] == len(stack)):
            if c == "}":
                templates.pop()
            i += 1
            while text[i] != "`" and not text.startswith("${", i):
                i += 2 if text[i] == "\\" else 1
            if text[i] == "`":
                i, last = i + 1, "str"
            else:
                templates.append(len(stack))
                i, last = i + 2, "{"
        elif c == "/" and last in _REGEX_AFTER:
            i, last = _skip_regex(text, i), "regex"
        elif c == "{":
            stack.append(i)
            i, last = i + 1, "{"
        elif c == "}":
            pairs.append((stack.pop(), i))
            i, last = i + 1, "}"
        elif c.isspace():
            i += 1
        else:
            word = _WORD.match(text, i)
            if word and not (i and (text[i - 1].isalnum() or text[i - 1] in "_$")):
                i, last = word.end(), word.group()
            else:
                i, last = i + 1, ("id" if c.isalnum() or c in "_$.)]" else c)
    assert not stack and not templates, "unbalanced braces"
    return pairs


def functions(text: str) -> list[tuple[str, int, int]]:
    """Each function with a braced body in `text`: (name, first line, last line), 1-based."""
    found = []
    for open_at, close_at in braces(text):
        head = text[max(0, open_at - 400):open_at]
        match = _FUNCTION_NAME.search(head)
        if match is None or (match.group(2) in {"if", "for", "while", "switch", "catch", "with"}):
            continue
        name = match.group(1) or match.group(2)
        if name is None:   # an arrow or anonymous function: the name it is given, if any
            before = text[max(0, open_at - 400):open_at - len(match.group())]
            given = re.search(r"([A-Za-z_$][\w$]*)\s*[=:]\s*(?:async\s*)?(?:\([^()]*\)|[\w$]+)?\s*$",
                              before)
            name = given.group(1) if given else "(anonymous)"
        start = text.count("\n", 0, open_at - len(head) + match.start()) + 1
        found.append((name, start, text.count("\n", 0, close_at) + 1))
    return found


def _sources():
    return sorted(p for p in SRC.rglob("*.js") if "dev" not in p.relative_to(SRC).parts)


def test_the_scanner_finds_functions_and_skips_braces_in_strings_and_regexes():
    text = ("function a(x) {\n  const s = `${x} {`; const r = /[{]/g; // }\n  return s;\n}\n"
            "const b = async (y) => {\n  if (y) { return '}'; }\n};\n"
            "class C {\n  m(z = f(1)) {\n    return z / 2 / 3;\n  }\n}\n")
    assert functions(text) == [("a", 1, 4), ("b", 5, 7), ("m", 9, 11)]


def test_the_scanner_sees_the_known_long_function_of_its_own_fixture():
    body = "".join(f"  step{n}();\n" for n in range(MAX_LINES))
    text = f"export function tooLong() {{\n{body}}}\n"
    assert functions(text) == [("tooLong", 1, MAX_LINES + 2)]


def test_no_function_in_web_src_is_longer_than_80_lines():
    long = [f"{path.relative_to(ROOT)}:{start} {name} ({end - start + 1} lines)"
            for path in _sources() for name, start, end in functions(path.read_text())
            if end - start + 1 > MAX_LINES]
    assert not long, "split these into named parts:\n" + "\n".join(long)
