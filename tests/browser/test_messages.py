"""The messages between the page and the Python worker have one table (web/src/messages.js): every
kind sent (toWorker / toPage, by the Python runtime) or handled (handlerOf) is in it with the right
sender, every row is sent somewhere, and nothing posts around the table. Needs Node.js (no browser).
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from conftest import ROOT, load_runtime  # noqa: E402

SRC = ROOT / "web" / "src"
NODE = shutil.which("node")


def _node(script: str) -> str:
    if NODE is None:
        pytest.skip("needs Node.js")
    return subprocess.run([NODE, "--input-type=module", "-e", script], cwd=ROOT, check=True,
                          capture_output=True, text=True, timeout=60).stdout


@pytest.fixture(scope="module")
def table() -> dict:
    return json.loads(_node('import { MESSAGES } from "./web/src/messages.js";'
                            "console.log(JSON.stringify(MESSAGES));"))


def _sources() -> dict[str, str]:
    return {str(p.relative_to(ROOT)): p.read_text() for p in sorted(SRC.rglob("*.js"))
            if "dev" not in p.relative_to(SRC).parts and p.name != "messages.js"}


def _object_keys(text: str, start: int) -> list[str]:
    """The keys of the object literal that opens at text[start] ("{"): its top-level properties."""
    keys, depth, i = [], 0, start
    expect_key = False
    while i < len(text):
        c = text[i]
        if text.startswith("//", i) or text.startswith("/*", i):   # a comment: skip it
            i = text.index("\n" if text[i + 1] == "/" else "*/", i) + 1
            continue
        if c in "\"'`" and depth > 1:             # a string inside a handler: skip it
            end = text.index(c, i + 1)
            while text[end - 1] == "\\":
                end = text.index(c, end + 1)
            i = end + 1
            continue
        if c in "{([":
            depth += 1
            if depth == 1:
                expect_key = True
        elif c in "})]":
            depth -= 1
            if depth == 0:
                return keys
        elif c == "," and depth == 1:
            expect_key = True
        elif expect_key and depth == 1 and not c.isspace():
            m = re.match(r'"([^"]+)"|([A-Za-z_$][\w$]*)', text[i:])
            assert m, f"cannot read a handler key at {text[i:i + 40]!r}"
            keys.append(m.group(1) or m.group(2))
            i += m.end()
            expect_key = False
            continue
        i += 1
    raise AssertionError("unclosed object literal")


def test_every_kind_sent_or_handled_is_in_the_table_with_its_sender(table):
    sent = {"page": set(), "worker": set(), "worker-to-pool": set(), "page-to-sw": set(), "sw": set()}
    handled = {"page": set(), "worker": set(), "python": set(), "worker-to-pool": set(),
               "page-to-sw": set(), "sw": set()}
    patterns = {"toWorker": r'\btoWorker\(\s*[\w.]+\s*,\s*"([\w-]+)"', "toPage": r'\btoPage\(\s*"([\w-]+)"',
                "toPoolThread": r'\btoPoolThread\(\s*[\w.]+\s*,\s*"([\w-]+)"',
                "toServiceWorker": r'\btoServiceWorker\(\s*[\w.]+\s*,\s*"([\w-]+)"',
                "fromServiceWorker": r'\bfromServiceWorker\(\s*[\w.]+\s*,\s*"([\w-]+)"',
                "handlerOf": r'\bhandlerOf\(\s*"([\w-]+)"\s*,\s*\{'}
    for name, text in _sources().items():
        assert "postMessage(" not in text, f"{name} posts a message around web/src/messages.js"
        for function, pattern in patterns.items():
            calls = re.findall(rf"\b{function}\(", text)
            assert len(calls) == len(re.findall(pattern, text)), \
                f"{name}: {function} with a kind that is not a string literal"
        sent["page"].update(re.findall(patterns["toWorker"], text))
        sent["worker"].update(re.findall(patterns["toPage"], text))
        sent["worker-to-pool"].update(re.findall(patterns["toPoolThread"], text))
        sent["page-to-sw"].update(re.findall(patterns["toServiceWorker"], text))
        sent["sw"].update(re.findall(patterns["fromServiceWorker"], text))
        for m in re.finditer(patterns["handlerOf"], text):
            handled[m.group(1)].update(_object_keys(text, m.end() - 1))
    for sender, kinds in sent.items():
        for kind in kinds:
            assert kind in table and table[kind]["from"] == sender, f"{kind!r} sent by the {sender}"
    for sender, kinds in handled.items():
        for kind in kinds:
            assert kind in table and table[kind]["from"] == sender, f"{kind!r} handled as sent by the {sender}"
    # every row is used, and everything the page and the worker send is handled
    python_kinds = {k for k, v in table.items() if v["from"] == "python"}
    assert sent["page"] == handled["page"] == {k for k, v in table.items() if v["from"] == "page"}
    assert sent["worker"] == handled["worker"] == {k for k, v in table.items() if v["from"] == "worker"}
    for sender in ("worker-to-pool", "page-to-sw", "sw"):
        assert sent[sender] == handled[sender] == {k for k, v in table.items() if v["from"] == sender}
    assert handled["python"] == python_kinds


def test_the_python_runtime_sends_the_tables_python_kinds(table):
    runtime = load_runtime()
    assert set(runtime.KINDS) == {k for k, v in table.items() if v["from"] == "python"}
    # the runtime names its kinds through messages.py only: no send("kind", ...) elsewhere
    for path in (ROOT / "web" / "python" / "playground_runtime").glob("*.py"):
        assert not re.search(r'send\(\s*["\']', path.read_text()), f"{path.name} sends a kind by a literal"


def test_every_row_says_what_it_is_for(table):
    for kind, row in table.items():
        assert row["from"] in ("page", "worker", "python", "worker-to-pool", "page-to-sw", "sw"), kind
        assert isinstance(row["fields"], list) and row["about"].strip(), kind


def test_an_unknown_kind_is_an_error_when_sent_or_handled():
    out = _node("""
import { handlerOf, toWorker } from "./web/src/messages.js";
const tries = {
  send: () => toWorker({ postMessage() {} }, "nonsense"),
  wrongSender: () => toWorker({ postMessage() {} }, "ready"),
  handle: () => handlerOf("worker", { nonsense() {} }),
  receive: () => handlerOf("worker", { ready() {} })({ type: "nonsense" }),
  python: () => handlerOf("python", { graph() {} })("nonsense", {}),
};
const posted = [];
toWorker({ postMessage: (m) => posted.push(m) }, "run", { code: "x = 1" });
const result = { posted };
for (const [name, fn] of Object.entries(tries)) {
  try { fn(); result[name] = "no error"; } catch (err) { result[name] = err.message; }
}
console.log(JSON.stringify(result));
""")
    result = json.loads(out)
    assert result.pop("posted") == [{"type": "run", "code": "x = 1"}]
    for name, message in result.items():
        assert "is not a message kind" in message, name
