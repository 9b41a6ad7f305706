// Stop's shared memory between the page and the Python worker: two bytes of a SharedArrayBuffer
// (none where the page is not cross-origin isolated; Stop then restarts the worker).
// - byte 0, Pyodide's interrupt buffer: the page writes SIGINT; Pyodide sets it back to 0 when
//   Python reads it (the worker hands it to Pyodide only while the user's code runs: worker.js);
// - byte 1, the run's phase, written by the worker: IDLE between runs, PREPARING while a run waits
//   for the boot's files and downloads its packages (no Python of the user's runs then), CODE while
//   the user's code runs. The page's Stop reads it to tell a stuck run from one still preparing.

export const SIGINT = 2;
export const PHASE = Object.freeze({ IDLE: 0, PREPARING: 1, CODE: 2 });

/** A new signal (a Uint8Array of 2 bytes on a SharedArrayBuffer), or null where there can be none. */
export function newStopSignal() {
  const isolated = typeof SharedArrayBuffer !== "undefined" && self.crossOriginIsolated === true;
  return isolated ? new Uint8Array(new SharedArrayBuffer(2)) : null;
}
