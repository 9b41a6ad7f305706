"""Which modules of Python's standard library the page imports: writes build/stdlib_kept.txt,
the modules build/build_dist.py keeps in the page's slim standard library (the rest of
python_stdlib.zip is fetched only when a program imports one of them: web/python/_tapegrad_boot.py).

Opens the playground of a build in headless Chromium, runs every example of the gallery
(web/examples/manifest.json) in one page, then lists the modules in sys.modules that came from
the standard library's zip: those Pyodide's start, NumPy, tapegrad, the playground's runtime and
the gallery's examples (matplotlib's plots among them) import, whether in the boot snapshot or
after it. Measure with a build whose zip is the full one (the list is what it keeps):

  TAPEGRAD_DIST=/tmp/x-dist .venv/bin/python tests/browser/measure_stdlib.py [--check]
--check: exit 1 (naming them) when a module imported is not in build/stdlib_kept.txt.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import CHROMIUM, CHROMIUM_ARGS, DIST, ROOT, Playground  # noqa: E402

KEPT = ROOT / "build" / "stdlib_kept.txt"
# The files the modules in sys.modules came from (an alias such as _frozen_importlib names a file
# of another module: the file counts, under its own module's name).
LIST = """import sys, json
print('STDLIB ' + json.dumps(sorted({f.split('.zip/', 1)[1] for f in (getattr(m, '__file__', None) or ''
      for m in list(sys.modules.values())) if f.startswith(('/lib/python312.zip/', '/lib/python312-full.zip/'))})))
"""


def module_of(path: str) -> str:
    parts = path.removesuffix(".py").split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def measured() -> list[str]:
    examples = json.loads((ROOT / "web" / "examples" / "manifest.json").read_text())["examples"]
    server = subprocess.Popen(["node", str(ROOT / "build" / "serve.mjs"), "--dir", str(DIST), "--port", "0"],
                              stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    url = line[line.index("http://"):].strip()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            pg = browser.new_page(viewport={"width": 1280, "height": 800})
            pg.set_default_timeout(120_000)
            pg.goto(url)
            play = Playground(pg)
            play.wait_ready()
            for ex in examples:
                play.set_code((ROOT / "web" / "examples" / ex["file"]).read_text())
                print(ex["id"], play.run(timeout_ms=300_000), file=sys.stderr)
            play.set_code(LIST)
            play.run()
            out = play.last_run_output()
            browser.close()
    finally:
        server.terminate()
    return sorted({module_of(f) for f in json.loads(out[out.index("STDLIB ") + 7:].splitlines()[0])})


def main() -> int:
    names = measured()
    if "--check" in sys.argv:
        kept = set(KEPT.read_text().split())
        missing = [n for n in names if n not in kept]
        print("not in the kept list:", missing or "none")
        return 1 if missing else 0
    KEPT.write_text("# Modules of python_stdlib.zip the page keeps in its slim standard library (measured by\n"
                    "# tests/browser/measure_stdlib.py: what the boot, the runtime and every gallery example import).\n"
                    + "".join(n + "\n" for n in names))
    print(f"wrote {KEPT}: {len(names)} modules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
