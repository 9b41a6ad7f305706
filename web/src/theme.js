// Light and dark: the page follows the system's colour scheme (prefers-color-scheme) until the
// visitor picks one with the theme button, which is remembered in this browser. The choice is
// <html data-theme="light|dark">: the page's stylesheets (web/styles/dark.css), the graph panel
// and the plots read it, and the editor (editor.js) watches it. Set by the page's first script
// (early-boot.js) before the first paint, so a dark page never flashes light.

const KEY = "tapegrad.theme";   // "light" | "dark"; absent: follow the system

function stored() {
  try {
    const value = localStorage.getItem(KEY);
    return value === "light" || value === "dark" ? value : null;
  } catch {
    return null;
  }
}

const systemDark = () => matchMedia("(prefers-color-scheme: dark)").matches;

/** The theme in force: the visitor's choice, else the system's. */
export function currentTheme() {
  return stored() ?? (systemDark() ? "dark" : "light");
}

function apply() {
  document.documentElement.dataset.theme = currentTheme();
}

/** Sets <html data-theme> now and follows the system's changes while no choice is stored. */
export function applyTheme() {
  apply();
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", apply);
}

/** The theme button (in the page's menu, before `before`): switches and remembers. */
export function addThemeButton(menu, before = null) {
  const button = document.createElement("button");
  button.type = "button";
  button.id = "theme";
  button.dataset.testid = "theme";
  const label = () => {
    const dark = currentTheme() === "dark";
    button.textContent = dark ? "Light theme" : "Dark theme";
    button.title = dark ? "Switch to the light theme" : "Switch to the dark theme";
  };
  button.addEventListener("click", () => {
    try {
      localStorage.setItem(KEY, currentTheme() === "dark" ? "light" : "dark");
    } catch { /* storage off: the switch lasts for this page only */ }
    document.documentElement.dataset.theme = stored() ?? (currentTheme() === "dark" ? "light" : "dark");
    label();
  });
  new MutationObserver(label).observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  label();
  menu.insertBefore(button, before);
  return button;
}
