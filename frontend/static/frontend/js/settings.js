// The player's settings: animation speed, automatic play to the foundations, sounds, the card
// backs, the table's colour, the left-handed layout of a phone and "Winnable deals only" (the
// names and choices of accounts/preferences.py, which the API checks).
//
// A signed-in account's settings are the account's (GET/PATCH /api/auth/settings/): the page
// is served with them (<script id="player-settings">, and the colours and layout already on
// <html>, base.html), so every device draws the player's table from the first paint, and each
// change is saved to the account. A guest's or a visitor's are kept in this browser's
// localStorage (prefs.js applies them in <head>). Signing in: an account that has saved
// settings keeps them (they replace this browser's); one that has none takes this browser's.
// The browser keeps a copy of an account's too, so its other tabs follow a change at once.

import { api, pageAccount } from "./api.js";

const KEY = "patience.settings";
// An account's changes not yet confirmed by the server (the page left before the answer came):
// the next page applies them over the ones it was served with, and saves them again.
const PENDING = "patience.settings.pending";
// The account's settings as the last save's answer gave them, with its saved_at: a page
// served while that save was on its way (a reload straight after a change) was served older
// ones, and takes these instead.
const CONFIRMED = "patience.settings.confirmed";

export const CHOICES = {
  speed: { off: "Off", fast: "Fast", normal: "Normal", slow: "Slow" },
  autoplay: { off: "Off", safe: "Safe cards only", all: "Every card that can go" },
  sound: { off: "Off", on: "On" },
  card_back: { blue: "Blue", red: "Red", green: "Green", black: "Black" },
  table: { green: "Green", blue: "Blue", red: "Red", grey: "Grey" },
  left_handed: { off: "Right-handed", on: "Left-handed" },
};

// Settings that are true or false (the dialog's "on" and "off").
const SWITCHES = new Set(["sound", "left_handed", "winnable_only"]);

export const DEFAULTS = {
  speed: "normal",
  autoplay: "off",
  sound: false,
  card_back: "blue",
  table: "green",
  left_handed: false,
  winnable_only: false,
};

/** A setting's value as the dialog's radio button names it ("on"/"off" for a switch). */
export function choiceOf(name, value) {
  return SWITCHES.has(name) ? (value ? "on" : "off") : value;
}

/** The value of the dialog's choice `choice` of the setting `name`. */
export function valueOf(name, choice) {
  return SWITCHES.has(name) ? choice === "on" : choice;
}

function allowed(name, value) {
  return SWITCHES.has(name) ? typeof value === "boolean" : Object.hasOwn(CHOICES[name] ?? {}, value);
}

/** The known settings of `raw` with allowed values (older names read too: `back`, `sound` as
 * "on"/"off", "Winnable deals only" kept per username). */
function known(raw) {
  const source = raw && typeof raw === "object" ? { ...raw } : {};
  if (source.card_back === undefined && source.back !== undefined) source.card_back = source.back;
  if (typeof source.sound === "string") source.sound = source.sound === "on";
  const out = {};
  for (const name of Object.keys(DEFAULTS)) {
    if (allowed(name, source[name])) out[name] = source[name];
  }
  return out;
}

function readJSON(key) {
  try {
    return JSON.parse(window.localStorage.getItem(key) || "null");
  } catch {
    return null;
  }
}

function writeJSON(key, value) {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // No storage: the choice holds for this page only (and for the account, when signed in).
  }
}

/** What this browser keeps: the settings stored, with an older "Winnable deals only". */
function storedLocally() {
  const stored = known(readJSON(KEY));
  if (stored.winnable_only === undefined && pageAccount()) {
    try {
      if (window.localStorage.getItem(`patience:winnable-only:${pageAccount()}`) === "1") stored.winnable_only = true;
    } catch {
      // no storage
    }
  }
  return stored;
}

// The account's settings served with the page (null: a guest's or a visitor's page).
const served = (() => {
  const script = document.getElementById("player-settings");
  if (!script) return null;
  try {
    return JSON.parse(script.textContent);
  } catch {
    return null;
  }
})();
const ACCOUNT = served !== null && pageAccount() !== "";

function pendingChanges() {
  const pending = readJSON(PENDING);
  return pending && pending.account === pageAccount() ? known(pending.changes) : {};
}

/** The account's settings: those served with the page, unless the answer to a save this
 * browser made is newer (the page was rendered before that save was committed). */
function accountSettings() {
  const confirmed = readJSON(CONFIRMED);
  const mine = confirmed && confirmed.account === pageAccount();
  if (mine && (!served.saved || Date.parse(confirmed.saved_at) > Date.parse(served.saved_at))) {
    return known(confirmed.settings);
  }
  return known(served);
}

let current;
let toSave = {}; // an account's changes still to send

if (!ACCOUNT) {
  current = { ...DEFAULTS, ...storedLocally() };
} else if (served.saved || readJSON(CONFIRMED)?.account === pageAccount()) {
  toSave = pendingChanges();
  current = { ...DEFAULTS, ...accountSettings(), ...toSave };
} else {
  // An account with no settings saved yet takes this browser's (a guest's who signed in or up).
  toSave = { ...storedLocally(), ...pendingChanges() };
  current = { ...DEFAULTS, ...toSave };
}
if (ACCOUNT) writeJSON(KEY, current);

/** The settings now. */
export function settings() {
  return { ...current };
}

/** Whether this page's settings are an account's (saved to it) rather than this browser's. */
export function savedToAccount() {
  return ACCOUNT;
}

const listeners = new Set();
const failures = new Set();

/** Listen for changes (made in this page, or in another tab of the site). */
export function onSettings(listener) {
  listeners.add(listener);
}

/** Be told, with the ApiError, when a change could not be saved to the account. */
export function onSaveFailed(listener) {
  failures.add(listener);
}

let sending = null;
let inFlight = {}; // the changes of the request being sent

// What the account has not confirmed yet (sent or not), kept in this browser so that a page
// loaded before the server has them (a reload straight after a change) still shows them.
function rememberPending() {
  const changes = { ...inFlight, ...toSave };
  writeJSON(PENDING, Object.keys(changes).length ? { account: pageAccount(), changes } : null);
}

/** Send the account's unsaved changes, one request at a time (the last choice wins). */
function flush() {
  if (!ACCOUNT || sending || !Object.keys(toSave).length) return;
  const changes = toSave;
  inFlight = changes;
  toSave = {};
  rememberPending();
  sending = api("PATCH", "/api/auth/settings/", changes)
    .then(
      (answer) => {
        inFlight = {};
        rememberPending();
        writeJSON(CONFIRMED, { account: pageAccount(), saved_at: answer.saved_at, settings: answer });
      },
      (error) => {
        // Refused (a value the server does not take, signed out since) or not sent: the page
        // keeps the choice, the account does not; said once, not retried in a loop.
        inFlight = {};
        rememberPending();
        for (const listener of failures) listener(error);
      },
    )
    .finally(() => {
      sending = null;
      flush();
    });
}

/** Save `changes`, apply them and tell the listeners. */
export function saveSettings(changes) {
  const valid = known(changes);
  current = { ...current, ...valid };
  writeJSON(KEY, current);
  if (ACCOUNT) {
    toSave = { ...toSave, ...valid };
    rememberPending(); // before the request, which a reload may cut short
    flush();
  }
  applySettings(current);
  return settings();
}

/** The colours and the layout on <html> (site.css reads data-table, data-back, data-hand). */
export function applySettings(now = current) {
  const root = document.documentElement;
  root.dataset.table = now.table;
  root.dataset.back = now.card_back;
  if (now.left_handed) root.dataset.hand = "left";
  else delete root.dataset.hand;
  for (const listener of listeners) listener(settings());
}

window.addEventListener("storage", (event) => {
  if (event.key !== KEY) return;
  current = { ...current, ...known(readJSON(KEY)) };
  applySettings();
});

applySettings();
flush();
