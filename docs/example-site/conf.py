# The example docs site: two pages of live tapegrad examples (tapegrad.sphinx). Built in
# `npm test` (build/test.sh) and opened by tests/browser/test_docs_site.py:
#   .venv/bin/python -m sphinx -b html docs/example-site build/out/example-site
import os

project = "tapegrad example docs"
author = "tapegrad"
extensions = ["tapegrad.sphinx"]
# the built playground (npm run build; TAPEGRAD_DIST names another build): the runtime files the
# examples need (element, worker, Pyodide, NumPy, tapegrad) are copied into _static/tapegrad/
tapegrad_dist = os.environ.get("TAPEGRAD_DIST") or "../../dist"
html_theme = "basic"
html_sidebars = {"**": ["localtoc.html", "relations.html"]}   # no search box (inline script)
html_copy_source = False
html_favicon = "../../web/assets/favicon.svg"   # else the browser asks for /favicon.ico (a 404)
templates_path = ["_templates"]
exclude_patterns = ["_templates"]
