"""Shared helpers for the native checks of the Pyodide build, server and runner."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
CACHE = ROOT / ".cache"


@pytest.fixture(scope="session")
def dist_info():
    info = DIST / "build-info.json"
    if not info.is_file():
        pytest.fail("dist/ is not built; run: npm run build")
    return json.loads(info.read_text())


def run_build(*args, cwd=ROOT):
    # Throwaway builds: the first visit's large files at brotli quality 9, not 11 (each build's
    # snapshot is new, and quality 11 takes about 95 s of it; build/precompress.mjs).
    return subprocess.run([sys.executable, str(ROOT / "build" / "build_dist.py"), *map(str, args)],
                          cwd=cwd, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "TAPEGRAD_BROTLI_BEST": "0"})


def copy_cache(dest: Path) -> Path:
    """Copy the verified, extracted assets (not the large carrier) into a scratch cache."""
    for sub in ("pyodide-packages", "wheels"):
        if not (CACHE / sub).is_dir():
            pytest.fail(f"{CACHE / sub} missing; run: npm run build")
        shutil.copytree(CACHE / sub, dest / sub)
    # The precompressed copies (build/precompress.mjs) are shared, not copied: named by content
    # hash and written atomically, and compressing all of dist/ again would take minutes.
    if (CACHE / "compressed").is_dir():
        (dest / "compressed").symlink_to(CACHE / "compressed", target_is_directory=True)
    return dest
