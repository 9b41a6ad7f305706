// The boot snapshot's file format (dist/pyodide-0.27.7/snapshot.bin): Pyodide's memory snapshot
// (its header, then the whole WebAssembly heap) without the 4 KB pages the page has already:
//  - pages that are all zero (a third of the heap: the unused top of the last memory growth, the C
//    stack, freed arenas), put back as zeros;
//  - pages equal to what the fresh heap holds when Pyodide restores the snapshot (the interpreter's
//    static data that the imports did not change, about 3 MB): kept as they are, after checking
//    a hash of each run of them (a mismatch throws, and the page boots without the snapshot).
// The page downloads, decompresses and copies every byte it is sent, so those pages are left out at
// build time (build/make_snapshot.mjs) and only the others are written into the heap.
//
//   u32 MAGIC, u32 full length, u32 number of segments, u32 number of kept runs,
//   per segment: u32 offset, u32 length;  per kept run: u32 offset, u32 length, u32 hash
//   (offsets into Pyodide's snapshot bytes, ascending, 4 KB aligned; kept runs lie in the heap),
//   then the segments' bytes, one after the other.       (all little-endian)

const MAGIC = 0x32534754;   // "TGS2"
const PAGE = 4096;

/** FNV-1a over the 32-bit words of bytes[from, to) (to - from and from a multiple of 4 apart
 * from the buffer's start). */
function hashWords(bytes, from, to) {
  const words = new Int32Array(bytes.buffer, bytes.byteOffset + from, (to - from) >> 2);
  let h = 0x811c9dc5;
  for (let i = 0; i < words.length; i++) h = Math.imul(h ^ words[i], 0x01000193);
  return h >>> 0;
}

function isZero(page) {
  for (let i = 0; i < page.length; i++) if (page[i] !== 0) return false;
  return true;
}

/** Pyodide's snapshot bytes -> the sparse file's bytes. `fresh` (optional): the heap as it is just
 * before Pyodide's restore (same length or shorter); pages equal to it are left out as kept. */
export function packSnapshot(full, fresh = null) {
  const headerLength = new DataView(full.buffer, full.byteOffset).getUint32(4, true);
  const kind = (p) => {            // "zero" | "kept" | "data"
    const page = full.subarray(p, Math.min(p + PAGE, full.length));
    if (isZero(page)) return "zero";
    const h = p - headerLength;
    if (fresh && h >= 0 && h + page.length <= fresh.length && page.length === PAGE &&
        fresh.subarray(h, h + PAGE).every((b, i) => b === page[i])) return "kept";
    return "data";
  };
  const runs = { data: [], kept: [] };
  let open = null;                 // [kind, start]
  // (one step past the last page, partial or not, so that the run reaching the end is closed)
  for (let p = 0; p < full.length + PAGE; p += PAGE) {
    const k = p < full.length ? kind(p) : "end";
    if (open && open[0] !== k) {
      if (open[0] !== "zero") runs[open[0]].push([open[1], Math.min(p, full.length) - open[1]]);
      open = null;
    }
    if (!open && k !== "end") open = [k, p];
  }
  const headerBytes = 16 + 8 * runs.data.length + 12 * runs.kept.length;
  const dataLength = runs.data.reduce((n, [, len]) => n + len, 0);
  const out = new Uint8Array(headerBytes + dataLength);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, MAGIC, true);
  dv.setUint32(4, full.length, true);
  dv.setUint32(8, runs.data.length, true);
  dv.setUint32(12, runs.kept.length, true);
  let at = 16;
  for (const [offset, len] of runs.data) {
    dv.setUint32(at, offset, true);
    dv.setUint32(at + 4, len, true);
    at += 8;
  }
  for (const [offset, len] of runs.kept) {
    dv.setUint32(at, offset, true);
    dv.setUint32(at + 4, len, true);
    dv.setUint32(at + 8, hashWords(full, offset, offset + len), true);
    at += 12;
  }
  for (const [offset, len] of runs.data) {
    out.set(full.subarray(offset, offset + len), at);
    at += len;
  }
  return { bytes: out, dataBytes: dataLength, keptBytes: runs.kept.reduce((n, [, len]) => n + len, 0) };
}

function parse(bytes) {
  const packed = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const dv = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  if (packed.length < 16 || dv.getUint32(0, true) !== MAGIC) {
    throw new Error("snapshot.bin is not a tapegrad snapshot file of this version (bad magic number)");
  }
  const fullLength = dv.getUint32(4, true);
  const dataCount = dv.getUint32(8, true);
  const keptCount = dv.getUint32(12, true);
  let at = 16 + 8 * dataCount + 12 * keptCount;
  if (packed.length < at) throw new Error("snapshot.bin is truncated (segment table)");
  const segments = [];
  for (let i = 0; i < dataCount; i++) {
    const offset = dv.getUint32(16 + 8 * i, true);
    const len = dv.getUint32(20 + 8 * i, true);
    if (offset + len > fullLength || at + len > packed.length) {
      throw new Error(`snapshot.bin is damaged (segment ${i} runs past the end)`);
    }
    segments.push([offset, len, at]);
    at += len;
  }
  if (at !== packed.length) throw new Error("snapshot.bin is damaged (bytes after the last segment)");
  const kept = [];
  for (let i = 0, p = 16 + 8 * dataCount; i < keptCount; i++, p += 12) {
    kept.push([dv.getUint32(p, true), dv.getUint32(p + 4, true), dv.getUint32(p + 8, true)]);
  }
  if (!segments.length || segments[0][0] !== 0 || segments[0][1] < 16) throw new Error("snapshot.bin has no header");
  // Pyodide's header: u32 magic, u32 header length (the heap starts there), ...
  const headerLength = new DataView(packed.buffer, packed.byteOffset + segments[0][2]).getUint32(4, true);
  return { packed, fullLength, segments, kept, headerLength };
}

// Restoring: no full buffer is built (a 40 MB copy) for Pyodide to copy into the heap (another);
// restoreSparse writes the segments straight into the heap instead.
const SPARSE = new WeakMap();

/** The sparse file's bytes -> a buffer of the snapshot's full length that holds only Pyodide's
 * header (what loadPyodide reads before the restore: the length, the header); the heap's pages
 * are written by restoreSparse(HEAP8, buffer) in place of Pyodide's restore of the heap.
 * `into`: that buffer, made before the file arrived (all zeros, its length the snapshot's). */
export function sparseSnapshot(bytes, into = null) {
  const parsed = parse(bytes);
  if (into && into.length !== parsed.fullLength) {
    throw new Error(`snapshot.bin holds a ${parsed.fullLength}-byte snapshot, not the ${into.length} bytes ` +
                    "snapshot-libs.json says (files of two builds)");
  }
  const full = into ?? new Uint8Array(parsed.fullLength);
  for (const [offset, len, from] of parsed.segments) {
    if (offset >= parsed.headerLength) break;
    const n = Math.min(len, parsed.headerLength - offset);
    full.set(parsed.packed.subarray(from, from + n), offset);
  }
  SPARSE.set(full, parsed);
  return full;
}

/** Pyodide's header of a sparseSnapshot buffer (to hand to its restore), or null for a full one. */
export function sparseHeader(full) {
  const s = SPARSE.get(full);
  return s ? full.subarray(0, s.headerLength) : null;
}

/** Writes a sparseSnapshot buffer's heap into HEAP8: segments copied, kept runs checked against
 * their hashes (throws on a mismatch), the rest zeroed. */
export function restoreSparse(HEAP8, full) {
  const { packed, segments, kept, headerLength, fullLength } = SPARSE.get(full);
  SPARSE.delete(full);
  for (const [offset, len, hash] of kept) {
    const h = offset - headerLength;
    if (hashWords(HEAP8, h, h + len) !== hash) {
      throw new Error(`snapshot: the fresh heap at ${h} differs from the build's (kept pages)`);
    }
  }
  // Every heap byte outside the segments and kept runs is zero in the snapshot.
  const written = [...segments.map(([o, l]) => [o, l]), ...kept.map(([o, l]) => [o, l])].sort((a, b) => a[0] - b[0]);
  let zeroFrom = 0;   // heap offsets: snapshot offsets minus the header
  for (const [offset, len] of written) {
    const start = Math.max(offset, headerLength) - headerLength;
    const end = offset + len - headerLength;
    if (end <= start) continue;
    if (start > zeroFrom) HEAP8.fill(0, zeroFrom, start);
    zeroFrom = end;
  }
  if (fullLength - headerLength > zeroFrom) HEAP8.fill(0, zeroFrom, fullLength - headerLength);
  for (const [offset, len, from] of segments) {
    const start = Math.max(offset, headerLength);
    const end = offset + len;
    if (end > start) HEAP8.set(packed.subarray(from + (start - offset), from + len), start - headerLength);
  }
}
