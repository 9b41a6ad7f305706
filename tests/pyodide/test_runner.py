"""build/run_in_pyodide.mjs: output, exit status, argv, the mounted repo and the packages."""
import subprocess

from conftest import ROOT


def run(tmp_path, source, *args):
    script = tmp_path / "script.py"
    script.write_text(source)
    return subprocess.run(["node", str(ROOT / "build" / "run_in_pyodide.mjs"), str(script), *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_prints_packages_argv_and_exits_zero(tmp_path, dist_info):
    r = run(tmp_path, """
import sys, os
import numpy, networkx, tapegrad
print(sys.platform, numpy.__version__, networkx.__version__, sys.argv[1:])
print(os.path.isfile("package.json"))  # the repository is mounted at its own path and is the cwd
print("to stderr", file=sys.stderr)
""", "a", "b c")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "emscripten 2.0.2 3.4.2 ['a', 'b c']"
    assert lines[1] == "True"
    assert "to stderr" in r.stderr


def test_uncaught_exception_exits_one_with_traceback(tmp_path, dist_info):
    r = run(tmp_path, "print('before')\nraise ValueError('boom')\n")
    assert r.returncode == 1
    assert r.stdout == "before\n"
    assert "ValueError: boom" in r.stderr and "Traceback" in r.stderr


def test_sys_exit_status_passes_through(tmp_path, dist_info):
    assert run(tmp_path, "import sys; sys.exit(7)").returncode == 7
