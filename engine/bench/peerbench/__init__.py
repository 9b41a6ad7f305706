"""peerbench: tapegrad side by side with the tools users would pick instead (issue 8).

    npm run bench [-- --only W1,W3 --peers tapegrad,torch]

cases.py     the workloads W1-W6, each case once (sizes, unit, how a time becomes a figure)
data.py      the inputs, made with NumPy from fixed seeds so every peer sees the same numbers
peers/       one small module per peer: each case written in that library's own idiom
peer_api.py  how a peer module registers its cases
timing.py    warm-up, then repetitions capped by count and by time; medians
run_peer.py  runs one peer's cases in the current process (a subprocess natively, a worker in
             the browser) and returns JSON-ready results
results.py   merges results, pairs the rounds into ratios and verdicts, renders the Markdown
             tables and writes the JSON
main.py      the command: installs nothing itself (build/bench.sh does), runs each peer in its
             own single-threaded subprocess, then the browser peers, then writes the report
"""
