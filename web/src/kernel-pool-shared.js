// What the kernel pool (web/src/kernel-pool.js) and its workers (kernel-pool-worker.js) agree on:
// the layout of a worker's slot in the control array, and where a worker's memory holds what.

/** Int32 fields of one worker's slot in the control array (SLOT.size of them per worker).
 * gen: bumped by the pool for each job; taken: the gen of the last job the worker or the pool took
 * (whoever moves it from gen - 1 to gen computes that job's rows: the pool takes a job back that a
 * busy core has not started yet); done: the gen of the last job the worker finished; ready: 1 once the
 * worker has its kernels (-1: it failed); error: 1 when the last job failed; the others describe the job: element type (0 float32,
 * 1 float64), its rows and the product's n and k, byte addresses of A, B and C in the worker's
 * memory, and element strides as tg_gemm takes them. */
export const SLOT = {
  gen: 0, done: 1, ready: 2, dtype: 3, rows: 4, n: 5, k: 6, a: 7, rsa: 8, csa: 9, b: 10,
  rsb: 11, csb: 12, c: 13, batch: 14, bsa: 15, bsb: 16, error: 17, taken: 18, size: 32,
};

/** Bytes below which a worker's memory holds the module's static data and its stack (which grows
 * down from here); the operands start above. */
export const LOW_MEMORY = 1 << 20;

/** Pages (64 KiB) a worker's memory may grow to (1 GiB): larger products stay on one thread. */
export const MAX_PAGES = 16384;

/** The WebAssembly module `bytes` (a side module importing env.memory, unshared) compiled with
 * that import declared shared instead (maximum `maxPages`), so that one memory can be written by
 * the pool and computed on by a worker. The kernels use no atomics: only the import's type
 * changes. */
export function sharedMemoryModule(bytes, maxPages = MAX_PAGES) {
  const src = new Uint8Array(bytes);
  let pos = 8;
  while (pos < src.length) {
    const id = src[pos];
    const [size, sizeEnd] = leb(src, pos + 1);
    if (id === 2) {
      const payload = sharedImports(src.subarray(sizeEnd, sizeEnd + size), maxPages);
      const out = [...src.subarray(0, pos), 2, ...uleb(payload.length), ...payload,
                   ...src.subarray(sizeEnd + size)];
      return new WebAssembly.Module(new Uint8Array(out));
    }
    pos = sizeEnd + size;
  }
  throw new Error("kernel pool: the module imports no memory");
}

/** The import section's payload with each memory import's limits made shared. */
function sharedImports(sec, maxPages) {
  const out = [];
  let [count, p] = leb(sec, 0);
  out.push(...uleb(count));
  for (; count > 0; count--) {
    const start = p;
    for (let name = 0; name < 2; name++) {
      const [len, q] = leb(sec, p);
      p = q + len;
    }
    const kind = sec[p++];
    if (kind === 2) {
      out.push(...sec.subarray(start, p));
      const flags = sec[p++];
      const [min, q] = leb(sec, p);
      p = q;
      if (flags & 1) p = leb(sec, p)[1];
      out.push(0x03, ...uleb(min), ...uleb(maxPages));
      continue;
    }
    if (kind === 0) p = leb(sec, p)[1];
    else if (kind === 1) p = skipLimits(sec, p + 1);
    else if (kind === 3) p += 2;
    else if (kind === 4) p = leb(sec, p + 1)[1];
    out.push(...sec.subarray(start, p));
  }
  return out;
}

function skipLimits(sec, p) {
  const flags = sec[p];
  p = leb(sec, p + 1)[1];
  return flags & 1 ? leb(sec, p)[1] : p;
}

/** [value, position after it] of the unsigned LEB128 number at `p`. */
function leb(buf, p) {
  let value = 0, shift = 0, byte;
  do {
    byte = buf[p++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return [value, p];
}

function uleb(value) {
  const out = [];
  do {
    let byte = value % 128;
    value = Math.floor(value / 128);
    if (value) byte |= 0x80;
    out.push(byte);
  } while (value);
  return out;
}
