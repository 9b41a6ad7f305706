// The kernel pool: extra Web Workers (web/src/kernel-pool-worker.js) that compute slices of large
// matrix products for the engine, which runs in the Pyodide worker on one thread. Pyodide's
// memory is not shared, so for each product the pool copies a worker's rows of A, and B, into
// that worker's shared WebAssembly memory, wakes it (Atomics), and after the Pyodide worker has
// computed its own rows with its kernel, waits for the workers and copies their rows of C back.
// Each output row is computed by the same kernel with the same summation order as on one thread
// (rows are split, never the reduction), so the product is bit for bit the same.
//
// Python drives it (engine/tapegrad/kernels/threads.py): begin() hands out the rows, the engine's
// own kernel computes the first ones, end() collects the rest. Everything after the workers have
// started goes through shared memory: while Python runs, the Pyodide worker's event loop does not
// turn, so no message could arrive. Needs a cross-origin-isolated page (SharedArrayBuffer);
// elsewhere createKernelPool returns null and the engine stays on one thread.
import { SLOT, LOW_MEMORY, MAX_PAGES, sharedMemoryModule } from "./kernel-pool-shared.js";
import { toPoolThread } from "./messages.js";

const READY_WAIT_MS = 2000;     // for the workers to instantiate the kernels, once
const WAIT_STEP_MS = 100;
const GIVE_UP_MS = 120000;      // a worker silent this long is taken as lost: the pool stops
const PAGE = 65536;
// Multiply-adds a worker must have per element copied (its rows of A and of C, and B) for the
// product to go to the pool: below, the copies cost more than the worker saves (measured in
// Chromium on the convolutions' products: docs/performance.md, "Threads in the browser").
const MIN_INTENSITY = 20;

/** A pool of `extra` workers beside the calling one (navigator.hardwareConcurrency - 1 when not
 * given), or null where shared memory is not available or there is no second core. */
export function createKernelPool(workerUrl, extra = null) {
  const isolated = typeof SharedArrayBuffer !== "undefined" && self.crossOriginIsolated === true;
  const count = extra ?? (navigator.hardwareConcurrency || 1) - 1;
  if (!isolated || count < 1) return null;
  return new KernelPool(workerUrl, count);
}

class KernelPool {
  constructor(workerUrl, count) {
    this.workers = [];
    for (let i = 0; i < count; i++) {
      const worker = new Worker(workerUrl);
      worker.onerror = () => { this.broken = true; };
      this.workers.push({ worker, memory: null, gen: 0 });
    }
    this.control = new Int32Array(new SharedArrayBuffer(4 * SLOT.size * count));
    this.use = count + 1;       // threads wanted (setThreads)
    this.pyodide = null;
    this.loaded = null;         // path of the kernels the workers were given
    this.ready = false;
    this.broken = false;
    this.job = null;
    this.byWorkers = 0;         // products of which a worker computed rows (tests read it)
  }

  /** The Pyodide instance whose memory holds the operands. */
  attach(pyodide) {
    this.pyodide = pyodide;
  }

  /** Threads a product may use now (this one included). */
  get threads() {
    return this.broken ? 1 : Math.min(this.use, this.workers.length + 1);
  }

  /** Limits the threads to `n` (at least 1); returns the number now used. */
  setThreads(n) {
    this.use = Math.max(1, Math.floor(n));
    return this.threads;
  }

  /** Gives the workers the kernel module at `path` in Pyodide's file system (the one the engine
   * loaded, so that both compute alike) and waits for them to instantiate it. Whether they did. */
  load(path) {
    if (this.loaded !== null && this.loaded !== path) return false;   // (its workers took one)
    if (this.loaded === null) {
      this.loaded = path;
      this.ready = false;
      const module = sharedMemoryModule(this.pyodide.FS.readFile(path));
      this.workers.forEach((w, index) => {
        w.memory = new WebAssembly.Memory({ initial: LOW_MEMORY / PAGE + 16, maximum: MAX_PAGES, shared: true });
        Atomics.store(this.control, index * SLOT.size + SLOT.ready, 0);
        toPoolThread(w.worker, "pool-start", { memory: w.memory, module, control: this.control.buffer, index });
      });
    }
    if (!this.ready && !this.broken) {
      const until = performance.now() + READY_WAIT_MS;
      this.ready = this.workers.every((w, index) => {
        const at = index * SLOT.size + SLOT.ready;
        while (Atomics.load(this.control, at) === 0 && performance.now() < until) {
          Atomics.wait(this.control, at, 0, until - performance.now());
        }
        return Atomics.load(this.control, at) === 1;
      });
      if (this.workers.some((_, i) => Atomics.load(this.control, i * SLOT.size + SLOT.ready) < 0)) this.broken = true;
    }
    return this.ready && !this.broken;
  }

  /** Starts the product C[m,n] = A[m,k] @ B[k,n] (tg_gemm's arguments: byte addresses in
   * Pyodide's memory, element strides, dtype 0 float32 / 1 float64) on the workers and returns the
   * rows the caller computes itself (the first ones), or -1 when the pool does not take it (then
   * the caller computes it all). */
  begin(dtype, m, n, k, pa, rsa, csa, pb, rsb, csb, batch, bsa, bsb) {
    if (this.job) this.end(0, false);   // one whose end() never came (Python was interrupted)
    const threads = Math.min(this.threads, m);
    if (!this.ready || threads < 2 || k < 1 || n < 1
        || Math.min(rsa, csa, rsb, csb, bsa, bsb) < 0) return -1;
    const size = dtype ? 8 : 4;
    const bounds = Array.from({ length: threads + 1 }, (_, i) => Math.round((i * m) / threads));
    const heap = this.pyodide._module.HEAPU8;
    const parts = [];
    for (let i = 1; i < threads; i++) {
      const part = this.#place(i - 1, { dtype, size, rows: bounds[i + 1] - bounds[i], row0: bounds[i],
                                        n, k, pa, rsa, csa, pb, rsb, csb, batch, bsa, bsb }, heap);
      if (!part) {
        this.job = { m, n, size, batch, parts };
        this.end(0, false);
        return -1;
      }
      parts.push(part);
    }
    this.job = { m, n, size, batch, parts };
    return bounds[1];
  }

  /** Copies one worker's operands into its memory, writes its slot and wakes it; its part, or null
   * when its memory cannot hold them or copying them would cost more than the worker saves. */
  #place(index, p, heap) {
    const w = this.workers[index];
    const { size, rows, n, k, batch } = p;
    const itemsA = p.bsa > 0 ? batch : 1, itemsB = p.bsb > 0 ? batch : 1;
    const spanA = (rows - 1) * p.rsa + (k - 1) * p.csa + 1;
    const spanB = (k - 1) * p.rsb + (n - 1) * p.csb + 1;
    const copied = itemsA * spanA + itemsB * spanB + batch * rows * n;
    if (copied * MIN_INTENSITY > batch * rows * n * k) return null;
    const a = LOW_MEMORY;
    const b = align(a + itemsA * spanA * size);
    const c = align(b + itemsB * spanB * size);
    const end = align(c + batch * rows * n * size);
    if (end + (k + rows + n) * 256 * size > MAX_PAGES * PAGE) return null;   // (+ scratch)
    if (end > w.memory.buffer.byteLength) w.memory.grow(Math.ceil((end - w.memory.buffer.byteLength) / PAGE));
    const mem = new Uint8Array(w.memory.buffer);
    for (let t = 0; t < itemsA; t++) {
      const from = p.pa + (t * p.bsa + p.row0 * p.rsa) * size;
      mem.set(heap.subarray(from, from + spanA * size), a + t * spanA * size);
    }
    for (let t = 0; t < itemsB; t++) {
      const from = p.pb + t * p.bsb * size;
      mem.set(heap.subarray(from, from + spanB * size), b + t * spanB * size);
    }
    const base = index * SLOT.size;
    const fields = { dtype: p.dtype, rows, n, k, a, rsa: p.rsa, csa: p.csa, b, rsb: p.rsb, csb: p.csb,
                     c, batch, bsa: p.bsa > 0 ? spanA : 0, bsb: p.bsb > 0 ? spanB : 0 };
    for (const [name, value] of Object.entries(fields)) this.control[base + SLOT[name]] = value;
    w.gen = (w.gen + 1) | 0;
    Atomics.store(this.control, base + SLOT.gen, w.gen);
    Atomics.notify(this.control, base + SLOT.gen);
    return { index, row0: p.row0, rows, c };
  }

  /** Waits for the workers' rows of the product begun last and copies them into C (byte address
   * `pc` in Pyodide's memory, rows of n elements, matrices of m * n). A worker that has not
   * started its rows yet (its core busy with other work) does not get them: the caller computes
   * them. Returns [row0, rows, row0, rows, ...] of those, or null when a worker failed (then the
   * caller computes the whole product again). */
  end(pc, copy = true) {
    const job = this.job;
    this.job = null;
    let ok = true;
    const left = [];
    for (const part of job.parts) {
      const w = this.workers[part.index];
      const base = part.index * SLOT.size;
      if (Atomics.compareExchange(this.control, base + SLOT.taken, (w.gen - 1) | 0, w.gen) === ((w.gen - 1) | 0)) {
        left.push(part.row0, part.rows);
        continue;
      }
      const started = performance.now();
      for (;;) {
        const done = Atomics.load(this.control, base + SLOT.done);
        if (done === w.gen) break;
        if (this.broken || performance.now() - started > GIVE_UP_MS) {
          this.broken = true;     // a lost worker: never use the pool again
          return null;
        }
        Atomics.wait(this.control, base + SLOT.done, done, WAIT_STEP_MS);
      }
      if (this.control[base + SLOT.error]) ok = false;
      if (!copy || !ok) continue;
      const heap = this.pyodide._module.HEAPU8;
      const mem = new Uint8Array(w.memory.buffer);
      const block = part.rows * job.n * job.size;
      for (let t = 0; t < job.batch; t++) {
        const to = pc + (t * job.m + part.row0) * job.n * job.size;
        heap.set(mem.subarray(part.c + t * block, part.c + (t + 1) * block), to);
      }
    }
    if (ok && copy && left.length < 2 * job.parts.length) this.byWorkers++;
    return ok ? left : null;
  }
}

function align(x) {
  return Math.ceil(x / 64) * 64;
}
