// The boot snapshot's file format (dist/pyodide-0.27.7/snapshot.bin): Pyodide's memory snapshot
// (its header, then the whole WebAssembly heap) without the 4 KB pages that are all zero. A third
// of the heap is zero (the unused top of the last memory growth, the C stack, freed arenas), and
// the page downloads, decompresses and copies every byte it is sent, so those pages are left out
// at build time (build/make_snapshot.mjs) and put back as zeros here, before Pyodide restores it.
//
//   u32 MAGIC, u32 full length, u32 number of segments,
//   per segment: u32 offset, u32 length (offsets ascending, 4 KB aligned),
//   then the segments' bytes, one after the other.       (all little-endian)

const MAGIC = 0x31534754;   // "TGS1"
const PAGE = 4096;

/** Pyodide's snapshot bytes -> the sparse file's bytes. */
export function packSnapshot(full) {
  const segments = [];
  let start = -1;
  for (let p = 0; p < full.length; p += PAGE) {
    const page = full.subarray(p, Math.min(p + PAGE, full.length));
    const zero = page.every((b) => b === 0);
    if (!zero && start < 0) start = p;
    if (zero && start >= 0) {
      segments.push([start, p - start]);
      start = -1;
    }
  }
  if (start >= 0) segments.push([start, full.length - start]);
  const headerLength = 12 + 8 * segments.length;
  const dataLength = segments.reduce((n, [, len]) => n + len, 0);
  const out = new Uint8Array(headerLength + dataLength);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, MAGIC, true);
  dv.setUint32(4, full.length, true);
  dv.setUint32(8, segments.length, true);
  let at = headerLength;
  segments.forEach(([offset, len], i) => {
    dv.setUint32(12 + 8 * i, offset, true);
    dv.setUint32(16 + 8 * i, len, true);
    out.set(full.subarray(offset, offset + len), at);
    at += len;
  });
  return out;
}

/** The sparse file's bytes (ArrayBuffer or Uint8Array) -> Pyodide's snapshot bytes. */
export function unpackSnapshot(bytes) {
  const packed = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const dv = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  if (packed.length < 12 || dv.getUint32(0, true) !== MAGIC) {
    throw new Error("snapshot.bin is not a tapegrad snapshot file (bad magic number)");
  }
  const fullLength = dv.getUint32(4, true);
  const count = dv.getUint32(8, true);
  let at = 12 + 8 * count;
  if (packed.length < at) throw new Error("snapshot.bin is truncated (segment table)");
  const full = new Uint8Array(fullLength);
  for (let i = 0; i < count; i++) {
    const offset = dv.getUint32(12 + 8 * i, true);
    const len = dv.getUint32(16 + 8 * i, true);
    if (offset + len > fullLength || at + len > packed.length) {
      throw new Error(`snapshot.bin is damaged (segment ${i} runs past the end)`);
    }
    full.set(packed.subarray(at, at + len), offset);
    at += len;
  }
  if (at !== packed.length) throw new Error("snapshot.bin is damaged (bytes after the last segment)");
  return full;
}

// Lazy form, for the page: skips building the full buffer (a 40 MB copy) and Pyodide's copy of it
// into the heap (another); restoreSparse writes the segments straight into the heap instead.
const SPARSE = new WeakMap();

/** The sparse file's bytes -> a buffer of the snapshot's full length that holds only Pyodide's
 * header (what loadPyodide reads before the restore: the length, the header); the heap's pages
 * are written by restoreSparse(HEAP8, buffer) in place of Pyodide's restore of the heap. */
export function sparseSnapshot(bytes) {
  const packed = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const dv = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  if (packed.length < 12 || dv.getUint32(0, true) !== MAGIC) {
    throw new Error("snapshot.bin is not a tapegrad snapshot file (bad magic number)");
  }
  const fullLength = dv.getUint32(4, true);
  const count = dv.getUint32(8, true);
  const segments = [];
  let at = 12 + 8 * count;
  for (let i = 0; i < count; i++) {
    const offset = dv.getUint32(12 + 8 * i, true);
    const len = dv.getUint32(16 + 8 * i, true);
    if (offset + len > fullLength || at + len > packed.length) {
      throw new Error(`snapshot.bin is damaged (segment ${i} runs past the end)`);
    }
    segments.push([offset, len, at]);
    at += len;
  }
  if (at !== packed.length) throw new Error("snapshot.bin is damaged (bytes after the last segment)");
  if (!segments.length || segments[0][0] !== 0 || segments[0][1] < 16) throw new Error("snapshot.bin has no header");
  // Pyodide's header: u32 magic, u32 header length (the heap starts there), ...
  const headerLength = new DataView(packed.buffer, packed.byteOffset + segments[0][2]).getUint32(4, true);
  const full = new Uint8Array(fullLength);
  for (const [offset, len, from] of segments) {
    if (offset >= headerLength) break;
    const n = Math.min(len, headerLength - offset);
    full.set(packed.subarray(from, from + n), offset);
  }
  SPARSE.set(full, { packed, segments, headerLength, fullLength });
  return full;
}

/** Pyodide's header of a sparseSnapshot buffer (to hand to its restore), or null for a full one. */
export function sparseHeader(full) {
  const s = SPARSE.get(full);
  return s ? full.subarray(0, s.headerLength) : null;
}

/** Writes a sparseSnapshot buffer's heap into HEAP8 (segments copied, the pages between them zeroed). */
export function restoreSparse(HEAP8, full) {
  const { packed, segments, headerLength, fullLength } = SPARSE.get(full);
  let zeroFrom = 0;   // heap offsets: snapshot offsets minus the header
  for (const [offset, len, from] of segments) {
    const start = Math.max(offset, headerLength);
    const end = offset + len;
    if (end <= start) continue;
    if (start - headerLength > zeroFrom) HEAP8.fill(0, zeroFrom, start - headerLength);
    HEAP8.set(packed.subarray(from + (start - offset), from + len), start - headerLength);
    zeroFrom = end - headerLength;
  }
  if (fullLength - headerLength > zeroFrom) HEAP8.fill(0, zeroFrom, fullLength - headerLength);
  SPARSE.delete(full);
}
