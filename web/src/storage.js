// Autosave in localStorage: the code and the example it started from, under one key per page
// (the full playground and each embedded element keep separate copies). Storage can be full or
// switched off: every call then quietly does nothing and says so through its return value.

const PREFIX = "tapegrad.playground.";

export function createStore(name) {
  const key = PREFIX + name;
  return {
    /** @returns {{code: string, example: string|null, savedAt: number}|null} */
    load() {
      try {
        const data = JSON.parse(localStorage.getItem(key) ?? "null");
        return data && typeof data.code === "string" ? data : null;
      } catch {
        return null;
      }
    },
    save(code, example) {
      try {
        localStorage.setItem(key, JSON.stringify({ code, example, savedAt: Date.now() }));
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** Removes everything the playground stored in this browser. Returns how many entries went. */
export function clearAllData() {
  let removed = 0;
  try {
    for (const k of Object.keys(localStorage)) {
      if (k.startsWith(PREFIX)) { localStorage.removeItem(k); removed++; }
    }
  } catch { /* storage disabled: nothing stored */ }
  return removed;
}
