// The player's settings: animation speed, automatic play to the foundations, sounds, the card
// backs and the table's colour. Kept in this browser's localStorage for now (per account
// later); prefs.js applies the colours in <head>, before the page is first drawn.

const KEY = "patience.settings";

export const CHOICES = {
  speed: { off: "Off", fast: "Fast", normal: "Normal", slow: "Slow" },
  autoplay: { off: "Off", safe: "Safe cards only", all: "Every card that can go" },
  sound: { off: "Off", on: "On" },
  back: { blue: "Blue", red: "Red", green: "Green", black: "Black" },
  table: { green: "Green", blue: "Blue", red: "Red", grey: "Grey" },
};

export const DEFAULTS = { speed: "normal", autoplay: "off", sound: "off", back: "blue", table: "green" };

/** The settings now: each one saved when it is one of its choices, else its default. */
export function settings() {
  let saved = {};
  try {
    saved = JSON.parse(window.localStorage.getItem(KEY) || "{}") || {};
  } catch {
    saved = {};
  }
  const out = { ...DEFAULTS };
  for (const name of Object.keys(CHOICES)) {
    if (Object.hasOwn(CHOICES[name], saved[name])) out[name] = saved[name];
  }
  return out;
}

const listeners = new Set();

/** Listen for changes (made in this page, or in another tab of the site). */
export function onSettings(listener) {
  listeners.add(listener);
}

/** Save `changes`, apply them and tell the listeners. */
export function saveSettings(changes) {
  const next = { ...settings(), ...changes };
  try {
    window.localStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    // No storage: the choice holds for this page only.
  }
  applySettings(next);
  return next;
}

/** The colours on <html> (site.css reads data-table and data-back). */
export function applySettings(current = settings()) {
  document.documentElement.dataset.table = current.table;
  document.documentElement.dataset.back = current.back;
  for (const listener of listeners) listener(current);
}

window.addEventListener("storage", (event) => {
  if (event.key === KEY) applySettings();
});
