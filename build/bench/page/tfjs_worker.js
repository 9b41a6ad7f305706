// TensorFlow.js with @tensorflow/tfjs-backend-wasm, SIMD and one thread, served from this site
// (tfjs/: the @tensorflow/tfjs union bundle, the one that registers the gradients; tfjs-backend-wasm/:
// its dist folder with the .wasm files, which setWasmPaths points to; both npm packages' dist folders).
// The cases are written as a TF.js user would (tf.variable, tf.train.sgd().minimize, tf.matMul) on
// the same inputs as the Python peers: data/inputs.json describes data/CASE.bin, made by the harness
// from peerbench/data.py. Timing follows peerbench/timing.py: warm-up calls, then repetitions until
// max_reps, or max_seconds of timed calls once min_reps are done; the median is reported.
importScripts("tfjs/tf.min.js", "tfjs-backend-wasm/tf-backend-wasm.min.js");

// threads "1": the SIMD module on one thread, even when cross-origin isolated; "all": the threaded
// SIMD module (tfjs-backend-wasm-threaded-simd.wasm, pthreads over shared memory) with one thread
// per core (navigator.hardwareConcurrency).
async function initBackend(threads = "1") {
  tf.wasm.setWasmPaths(new URL("tfjs-backend-wasm/", self.location.href).href);
  if (threads === "all") {
    if (!self.crossOriginIsolated) throw new Error("TF.js threads need a cross-origin-isolated page");
    tf.wasm.setThreadsCount(navigator.hardwareConcurrency);
  } else {
    tf.env().set("WASM_HAS_MULTITHREAD_SUPPORT", false);
  }
  if (!(await tf.setBackend("wasm"))) throw new Error("the wasm backend did not initialize");
  await tf.ready();
  const simd = await tf.env().getAsync("WASM_HAS_SIMD_SUPPORT");
  if (!simd) throw new Error("this browser runs TF.js wasm without SIMD");
  const count = threads === "all" ? tf.wasm.getThreadsCount() : 1;
  if (threads === "all" && count < 2) {     // TF.js 4.22: tensorflow/tfjs#8513
    throw new Error(`asked for ${navigator.hardwareConcurrency} threads (setThreadsCount, the threaded SIMD ` +
                    `module loaded), TF.js ${tf.version_core} runs ${count} (getThreadsCount)`);
  }
  return { version: tf.version_core, backend: tf.getBackend(), simd, threads: count };
}

async function loadInputs(caseId, spec) {
  const buf = await (await fetch(`data/${caseId}.bin`)).arrayBuffer();
  const arrays = {};
  for (const a of spec.arrays) {
    const size = a.shape.reduce((x, y) => x * y, 1);
    const view = a.dtype === "int32" ? new Int32Array(buf, a.offset, size) : new Float32Array(buf, a.offset, size);
    arrays[a.name] = tf.tensor(view, a.shape, a.dtype);
  }
  return arrays;
}

function mlpStep(inputs, spec) {
  const nLayers = spec.layers;
  const vars = [];
  for (let i = 0; i < nLayers; i++) vars.push([tf.variable(inputs[`w${i}`]), tf.variable(inputs[`b${i}`])]);
  const onehot = tf.oneHot(inputs.labels, spec.classes);
  const optimizer = tf.train.sgd(spec.learning_rate);
  return () => {
    const loss = optimizer.minimize(() => {
      let h = inputs.x;
      vars.forEach(([w, b], i) => {
        h = tf.add(tf.matMul(h, w), b);
        if (i < nLayers - 1) h = tf.relu(h);
      });
      return tf.losses.softmaxCrossEntropy(onehot, h);
    }, true);
    const value = loss.dataSync()[0];
    loss.dispose();
    return value;
  };
}

function gemmStep(inputs, spec) {
  return () => {
    const c = tf.matMul(inputs.a, inputs.b, spec.transpose_a, spec.transpose_b);
    const value = c.dataSync()[0];
    c.dispose();
    return value;
  };
}

function measure(step, policy) {
  let check = null;
  for (let i = 0; i < policy.warmup; i++) { const v = step(); if (check === null) check = v; }
  const times = [];
  let spent = 0;
  while (times.length < policy.max_reps && (times.length < policy.min_reps || spent < policy.max_seconds)) {
    const t0 = performance.now();
    const v = step();
    const dt = (performance.now() - t0) / 1000;
    times.push(dt);
    spent += dt;
    if (check === null) check = v;
  }
  const sorted = [...times].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median_s: median, min_s: sorted[0], reps: times.length, warmup: policy.warmup, check };
}

async function runCases(m) {
  const about = await initBackend(m.threads);
  const specs = await (await fetch("data/inputs.json")).json();
  const results = [];
  for (const caseId of m.cases) {
    const spec = specs[caseId];
    const row = { case: caseId };
    if (caseId.startsWith("CNN")) {
      row.na = "TF.js's wasm backend cannot train a CNN: it registers no Conv2DBackpropFilter kernel";
    } else if (!spec) {
      row.na = `no TF.js version of ${caseId}`;
    } else {
      try {
        const inputs = await loadInputs(caseId, spec);
        const step = spec.kind === "mlp" ? mlpStep(inputs, spec) : gemmStep(inputs, spec);
        Object.assign(row, measure(step, m.policy));
      } catch (err) {
        row.error = String(err);
      }
    }
    postMessage({ type: "progress", text: `${caseId}: ${JSON.stringify(row)}` });
    results.push(row);
  }
  return { status: "ok", version: about.version,
           notes: `backend ${about.backend}, SIMD ${about.simd}, ${about.threads} thread(s), tf.train.sgd().minimize`,
           results };
}

async function firstGradient() {
  await initBackend();
  const g = tf.grad((x) => tf.mul(x, x))(tf.scalar(3));
  return { status: "ok", version: tf.version_core, text: `d(x*x)/dx at x=3: ${g.dataSync()[0]}` };
}

self.onmessage = async ({ data: m }) => {
  try {
    if (m.mode === "boot") postMessage({ type: "first-gradient", info: await firstGradient() });
    else postMessage({ type: "result", info: await runCases(m) });
  } catch (err) {
    postMessage({ type: "result", info: { status: "failed", reason: String(err), results: [] } });
  }
};
