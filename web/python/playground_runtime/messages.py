"""The kinds of message the runtime sends the page, by name: ``send(kind, payload)`` with the
payload a JSON string. The page's table of every message (web/src/messages.js, where these are
the kinds from "python") describes each one; tests/browser/test_messages.py checks that these
names are that table's.
"""
TRACEBACK = "traceback"   # {"text", "line"}: the error as the page shows it
GRAPH = "graph"           # the captured graph (docs/graph-json.md)
GRAPH_PREVIEW = "graph-preview"  # a big tape's collapsed view alone, before its "graph"
LIVE_GRAPH = "live-graph"  # while a training loop runs: its latest complete step (graph.live_graph)
NONES = "nones"           # {"items": [...]}: each None gradient explained (graph.none_explanations)
PLOT = "plot"             # {"key", "png"}: a matplotlib figure
TRAINING = "training"     # {"event", ...}: the live training plot (training.TrainingFeed)
WEIGHTS = "weights"       # {"path", "data"}: a file model.save_weights wrote
OUTPUT = "output"         # {"parts", "full"?, "unsaved"?}: a batch of stdout/stderr (output.py)
NOTE = "note"             # {"text"}: a note for the console, e.g. figures not shown

KINDS = (TRACEBACK, GRAPH, GRAPH_PREVIEW, LIVE_GRAPH, NONES, PLOT, TRAINING, WEIGHTS, OUTPUT, NOTE)
