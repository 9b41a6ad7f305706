"""Python's half of the page's boot after a snapshot restore (web/src/pyodide-boot.js).

Imported into the build's snapshot (build/make_snapshot.mjs), so the page calls it without
compiling any Python: ``after_restore`` reseeds ``random`` (a snapshot freezes one interpreter
state) and puts ``FilesOnFirstImport`` first on ``sys.meta_path``.
"""
import random
import sys


class FilesOnFirstImport:
    """Has a package's files written on the first import that needs them.

    The snapshot holds the modules of NumPy and tapegrad imported, but not their files, which the
    page writes after the first run (networkx's too: nothing imports it until a program does). A module imported before that (``numpy.fft``,
    ``tapegrad.data``...) asks ``ensure(top_level_name)`` to write its package's files first;
    Python's own finders then find it as usual (this finder never returns a spec).
    """

    def __init__(self, ensure, names, site):
        self._ensure, self._names, self._site = ensure, set(names), site

    def find_spec(self, name, path=None, target=None):
        top = name.partition(".")[0]
        if top in self._names:
            self._names.discard(top)
            self._ensure(top)
            refresh_site_finders(self._site)
        return None


def refresh_site_finders(site):
    """New files under ``site``: drop the directory listings its finders cached. (Not
    ``importlib.invalidate_caches()``, which imports ``importlib.metadata``: 0.3-0.8 s in a page.)"""
    for folder, finder in list(sys.path_importer_cache.items()):
        if finder is not None and folder.startswith(site):
            finder.invalidate_caches()


def after_restore(ensure, names, site):
    random.seed()
    sys.meta_path.insert(0, FilesOnFirstImport(ensure, names, site))
