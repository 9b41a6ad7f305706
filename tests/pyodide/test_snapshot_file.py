"""web/src/snapshot-file.js, the boot snapshot's sparse format, checked under Node: zero pages and
pages the fresh heap holds are left out, both restores give the snapshot back, and a fresh heap
that differs from the build's is refused (the page then boots without the snapshot)."""
import json
import subprocess

from conftest import ROOT

SCRIPT = r"""
import { packSnapshot, sparseSnapshot, sparseHeader, restoreSparse } from "%s";
const PAGE = 4096, HEADER = 144;
// Pyodide's layout: a header (u32 magic, u32 header length, ...) then the heap.
const heapLength = 40 * PAGE;
const full = new Uint8Array(HEADER + heapLength);
const dv = new DataView(full.buffer);
dv.setUint32(0, 0x706e7300, true);
dv.setUint32(4, HEADER, true);
const fresh = new Uint8Array(heapLength);
for (let i = 0; i < 6 * PAGE; i++) fresh[i] = (i * 7) & 255;          // static data at the bottom
full.set(fresh.subarray(0, 6 * PAGE), HEADER);                         // the snapshot keeps most of it...
full[HEADER + 2 * PAGE + 5] ^= 1;                                      // ...but changed one byte
for (let i = 10 * PAGE; i < 13 * PAGE; i++) full[HEADER + i] = 1 + (i & 7);   // data the imports wrote
full[HEADER + 30 * PAGE + 17] = 9;                                     // a lone page, zeros around it
const { bytes, dataBytes, keptBytes } = packSnapshot(full, fresh);
const out = { packed: bytes.length, dataBytes, keptBytes };
// Restored into a copy of the fresh heap, with Pyodide's header: the snapshot's bytes again.
const copy = fresh.slice();
const again = sparseSnapshot(bytes);
const head = sparseHeader(again);
restoreSparse(copy, again);
out.unpacked = head.every((b, i) => b === full[i]) && copy.every((b, i) => b === full[HEADER + i]);
// The page's path: a fresh heap with junk where the snapshot has zeros.
const heap = fresh.slice();
heap.fill(0xee, 20 * PAGE, 25 * PAGE);
const lazy = sparseSnapshot(bytes);
out.lazyLength = lazy.length === full.length;
out.header = sparseHeader(lazy).length;
restoreSparse(heap, lazy);
out.restored = heap.every((b, i) => b === full[HEADER + i]);
const other = fresh.slice();
other[3 * PAGE + 1] ^= 1;                                              // a kept page that differs
try { restoreSparse(other, sparseSnapshot(bytes)); out.refused = false; } catch (e) { out.refused = e.message; }
try { sparseSnapshot(new Uint8Array(64)); out.bad = false; } catch (e) { out.bad = e.message; }
// The page's buffer, made before the file arrived from snapshot-libs.json's length.
const into = new Uint8Array(full.length);
out.into = sparseSnapshot(bytes, into) === into && sparseHeader(into).every((b, i) => b === full[i]);
try { sparseSnapshot(bytes, new Uint8Array(full.length + PAGE)); out.otherBuild = false; } catch (e) { out.otherBuild = e.message; }
console.log(JSON.stringify(out));
"""


def test_sparse_snapshot_round_trips_and_refuses_a_different_fresh_heap(tmp_path):
    script = tmp_path / "check.mjs"
    script.write_text(SCRIPT % (ROOT / "web" / "src" / "snapshot-file.js").as_uri())
    r = subprocess.run(["node", str(script)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout.strip().splitlines()[-1])
    page = 4096
    # Pages are counted in the snapshot's bytes, where the heap starts 144 bytes in. Stored: page 0
    # (the header), page 2 (the changed byte), pages 10-13 (three heap pages of writes, shifted
    # across four), page 30 (the lone byte). Kept: the static pages 1, 3, 4, 5 and 6 (the last of
    # the static data, then zeros in both). The rest is zero.
    assert out["dataBytes"] == 7 * page, out
    assert out["keptBytes"] == 5 * page, out
    assert out["packed"] < 8 * page, out
    assert out["unpacked"] and out["restored"] and out["lazyLength"], out
    assert out["header"] == 144, out
    assert "differs from the build's" in out["refused"], out
    assert "bad magic number" in out["bad"], out
    assert out["into"] is True, out
    assert "files of two builds" in out["otherBuild"], out


TAIL_SCRIPT = r"""
import { packSnapshot, sparseSnapshot, restoreSparse } from "%s";
const PAGE = 4096, HEADER = 144;
// The heap's top holds data up to its last byte, the snapshot's last page only partly filled
// (its length is the header's 144 bytes past a page boundary): that run must be stored too.
const heapLength = 12 * PAGE;
const full = new Uint8Array(HEADER + heapLength);
new DataView(full.buffer).setUint32(4, HEADER, true);
full[0] = 1;
for (let i = 9 * PAGE; i < heapLength; i++) full[HEADER + i] = 1 + (i %% 13);
const fresh = new Uint8Array(heapLength);
const { bytes } = packSnapshot(full, fresh);
const heap = fresh.slice();
restoreSparse(heap, sparseSnapshot(bytes));
let first = -1;
for (let i = 0; i < heapLength; i++) if (heap[i] !== full[HEADER + i]) { first = i; break; }
console.log(JSON.stringify({ firstDifference: first }));
"""


def test_a_snapshot_whose_last_pages_hold_data_round_trips(tmp_path):
    """The heap's top can hold data (seen in 1 build of 5): the run reaching the snapshot's end,
    whose last page is partial, is stored (it was dropped, and the build's check failed)."""
    script = tmp_path / "tail.mjs"
    script.write_text(TAIL_SCRIPT % (ROOT / "web" / "src" / "snapshot-file.js").as_uri())
    r = subprocess.run(["node", str(script)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout.strip().splitlines()[-1]) == {"firstDifference": -1}
