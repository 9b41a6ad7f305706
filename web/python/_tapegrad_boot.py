"""Python's half of the page's boot after a snapshot restore (web/src/pyodide-boot.js).

Imported into the build's snapshot (build/make_snapshot.mjs), so the page calls it without
compiling any Python: ``after_restore`` reseeds ``random`` (a snapshot freezes one interpreter
state), has the packages' files written on demand (``FilesOnDemand``) and the full standard
library fetched when a program imports a module the page's slim one left out (``LeftOutStdlib``).
"""
import json
import os
import random
import sys
import zipimport

_files = None   # the FilesOnDemand of this page, once after_restore has run
# The modules build/build_dist.py left out of the slim standard library (written there before the
# snapshot's imports; read into the snapshot).
LEFT_OUT_LIST = "/home/pyodide/_tapegrad_stdlib_left_out.json"
FULL_STDLIB = "/lib/python312-full.zip"


def _left_out():
    try:
        with open(LEFT_OUT_LIST) as f:
            return frozenset(json.load(f))
    except OSError:
        return frozenset()


LEFT_OUT = _left_out()


class FilesOnDemand:
    """Has a package's files written the first time something needs them.

    The snapshot holds the modules of NumPy and tapegrad imported, but not their files, which
    the page downloads only when they are needed (networkx's too: nothing imports it until a
    program does): a module imported that the snapshot lacks (``numpy.fft``, ``tapegrad.data``...),
    or the kernel library the engine wanted (``kernel_files_wanted``). A traceback's source line
    does not download them (Pyodide formats every exception that reaches JavaScript, shown or not,
    and each would cost a wheel): it shows once its package's files are written.
    ``ensure(top_level_name)`` writes them; it raises when the download fails (offline, a package not kept for offline use), and the import then fails with
    its message. As a finder it never returns a spec: Python's own finders then find the module.
    """

    def __init__(self, ensure, names, site):
        self._ensure, self._names, self._site = ensure, set(names), site

    def write(self, top):
        """Writes the files of the package whose import name is ``top``, if not written yet."""
        if top not in self._names:
            return
        self._ensure(top)
        self._names.discard(top)
        refresh_site_finders(self._site)

    def pending(self, top):
        return top in self._names

    def find_spec(self, name, path=None, target=None):
        top = name.partition(".")[0]
        try:
            self.write(top)
        except Exception as e:   # the JavaScript error says why (offline: not kept)
            raise ModuleNotFoundError(f"No module named {name!r}: {_message_of(e)}", name=name) from None
        return None


def _message_of(err):
    text = str(err).strip().splitlines()
    return text[-1].removeprefix("Error: ") if text else type(err).__name__


def refresh_site_finders(site):
    """New files under ``site``: drop the directory listings its finders cached. (Not
    ``importlib.invalidate_caches()``, which imports ``importlib.metadata``: 0.3-0.8 s in a page.)"""
    for folder, finder in list(sys.path_importer_cache.items()):
        if finder is not None and folder.startswith(site):
            finder.invalidate_caches()


def kernel_files_wanted():
    """After a run: True when a kernel the engine wanted found no library file because tapegrad's
    files were not written yet; they are written now and the engine tries the library again on its
    next call (``tapegrad.kernels.dispatch.retry_loading``)."""
    dispatch = sys.modules.get("tapegrad.kernels.dispatch")
    loaded = getattr(dispatch, "_loaded", None)
    if _files is None or not loaded or loaded[0][0] is not None or not _files.pending("tapegrad"):
        return False
    _files.write("tapegrad")
    dispatch.retry_loading()
    return True


class LeftOutStdlib:
    """Last on ``sys.meta_path``: a module of the standard library that the page's slim zip left
    out (``LEFT_OUT``) has the full zip fetched (``fetch_full(path)`` writes python_stdlib.zip
    there), which then goes on ``sys.path``; offline, when the full zip was not kept, the import
    fails saying so. Any other name is not this finder's business."""

    def __init__(self, fetch_full):
        self._fetch_full = fetch_full

    def find_spec(self, name, path=None, target=None):
        if name not in LEFT_OUT:
            return None
        if not os.path.exists(FULL_STDLIB):
            try:
                self._fetch_full(FULL_STDLIB)
            except Exception as e:
                raise ModuleNotFoundError(f"No module named {name!r}: the page's standard library leaves it out, "
                                          f"and the full one could not be fetched: {_message_of(e)}", name=name) from None
            sys.path.append(FULL_STDLIB)
        parent = name.rpartition(".")[0]   # a zipimporter finds a module by its last name, in its folder
        return zipimport.zipimporter("/".join([FULL_STDLIB, *parent.split(".")]) if parent else FULL_STDLIB).find_spec(name)


def after_restore(ensure, names, site, fetch_full=None):
    global _files
    random.seed()
    _files = FilesOnDemand(ensure, names, site)
    sys.meta_path.insert(0, _files)
    if fetch_full is not None and LEFT_OUT:
        sys.meta_path.append(LeftOutStdlib(fetch_full))
