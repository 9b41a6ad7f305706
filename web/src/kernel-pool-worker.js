// One extra thread of the kernel pool (web/src/kernel-pool.js): a Web Worker that runs the
// engine's GEMM kernel (the same WebAssembly side module the Pyodide worker loaded) on the rows
// of a product it is handed. Its memory is a shared WebAssembly.Memory made by the pool, so the
// pool writes the operands into it and reads the rows back without a message: after the first
// message ("start") this worker only waits on its slot of the control array (Atomics) and never
// returns to its event loop.
import { SLOT, LOW_MEMORY } from "./kernel-pool-shared.js";
import { handlerOf } from "./messages.js";

const receive = handlerOf("worker-to-pool", { "pool-start": start });
self.onmessage = ({ data }) => receive(data);

function start({ memory, module, control, index }) {
  const ctl = new Int32Array(control);
  const base = index * SLOT.size;
  let gemm;
  try {
    const instance = new WebAssembly.Instance(module, {
      env: {
        memory,
        __stack_pointer: new WebAssembly.Global({ value: "i32", mutable: true }, LOW_MEMORY),
        __memory_base: new WebAssembly.Global({ value: "i32", mutable: false }, 1024),
        __table_base: new WebAssembly.Global({ value: "i32", mutable: false }, 0),
      },
    });
    const ex = instance.exports;
    ex.__wasm_apply_data_relocs?.();
    ex.__wasm_call_ctors?.();
    gemm = [[ex.tg_gemm_f32, ex.tg_gemm_work_f32, 4], [ex.tg_gemm_f64, ex.tg_gemm_work_f64, 8]];
  } catch (err) {
    Atomics.store(ctl, base + SLOT.ready, -1);
    Atomics.notify(ctl, base + SLOT.ready);
    throw err;
  }
  Atomics.store(ctl, base + SLOT.ready, 1);
  Atomics.notify(ctl, base + SLOT.ready);
  serve(ctl, base, memory, gemm);
}

/** Waits for jobs on this worker's slot and runs each; never returns. */
function serve(ctl, base, memory, gemm) {
  let gen = 0;
  for (;;) {
    Atomics.wait(ctl, base + SLOT.gen, gen);
    gen = Atomics.load(ctl, base + SLOT.gen);
    if (Atomics.compareExchange(ctl, base + SLOT.taken, (gen - 1) | 0, gen) !== ((gen - 1) | 0)) continue;   // the pool took it back
    const at = (name) => ctl[base + SLOT[name]];
    const [fn, work, size] = gemm[at("dtype")];
    const rows = at("rows"), n = at("n"), k = at("k");
    const c = at("c");
    // scratch after C, grown into when needed (the pool sized the memory for the operands and C)
    const w = align(c + at("batch") * rows * n * size);
    const need = w + work(rows, n, k) * size;
    try {
      if (need > memory.buffer.byteLength) memory.grow(Math.ceil((need - memory.buffer.byteLength) / 65536));
      fn(rows, n, k, at("a"), at("rsa"), at("csa"), at("b"), at("rsb"), at("csb"), c, n,
         at("batch"), at("bsa"), at("bsb"), rows * n, w);
      ctl[base + SLOT.error] = 0;
    } catch {
      ctl[base + SLOT.error] = 1;   // the pool computes these rows itself
    }
    Atomics.store(ctl, base + SLOT.done, gen);
    Atomics.notify(ctl, base + SLOT.done);
  }
}

function align(x) {
  return Math.ceil(x / 64) * 64;
}
