// Small helpers shared by the account, daily, leaderboard, profile and replay pages:
// building DOM nodes, formatting numbers and times, game and pile names.

// The server's clock, from the page: <html data-server-time> is when the server made it
// (whole seconds), set against when the browser got it. A device clock off by more than a
// couple of seconds would otherwise show wrong timers and countdowns.
const CLOCK_TOLERANCE_MS = 2000;
const clockOffset = (() => {
  const made = Number(document.documentElement.dataset.serverTime) * 1000 + 500;
  const navigation = performance.getEntriesByType?.("navigation")?.[0];
  const received = navigation ? performance.timeOrigin + navigation.responseStart : Date.now();
  const offset = made - received;
  return Number.isFinite(offset) && Math.abs(offset) > CLOCK_TOLERANCE_MS ? offset : 0;
})();

/** Now, in milliseconds since the epoch, by the server's clock. */
export function serverNow() {
  return Date.now() + clockOffset;
}

/** el("a", {href: "/", class: "x"}, "text", otherNode) → an element. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "dataset") Object.assign(node.dataset, value);
    else if (name.startsWith("on") && typeof value === "function") {
      node.addEventListener(name.slice(2), value);
    } else node.setAttribute(name, value === true ? "" : String(value));
  }
  node.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

/** The JSON a template put in <script type="application/json" id="…"> (json_script). */
export function pageData(id, fallback = null) {
  const script = document.getElementById(id);
  if (!script) return fallback;
  try {
    return JSON.parse(script.textContent);
  } catch {
    return fallback;
  }
}

/** slug → display name, from the games the view passes to every page. */
export function gameNames() {
  return pageData("games-data", {});
}

export function gameName(slug) {
  return gameNames()[slug] || slug;
}

/** Whether the visitor plays as a guest (<html data-guest="true">, accounts/guests.py): signed in,
 * with what needs an account (a ranked attempt, a public profile) refused. */
export function isGuest() {
  return document.documentElement.dataset.guest === "true";
}

export function signedIn() {
  // The page's root element says so: <section data-signed-in="true|false">.
  return document.querySelector("[data-signed-in]")?.dataset.signedIn === "true";
}

/** 65.9 → "1:05"; 3725 → "1:02:05"; null → "—". Seconds are cut, as a running clock cuts
 * them, so that a game's time reads the same on its page, in its result and on the boards.
 * From 100 hours (a game left open for days) in days and hours ("4d 04h"), then days: never
 * wider than 99:59:59, whose room the play page's header keeps (site.css .timer-room), so the
 * time passing 10 or 100 hours never moves the board. */
export function duration(seconds) {
  if (seconds === null || seconds === undefined || Number.isNaN(seconds)) return "—";
  const total = wholeSeconds(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  if (h >= 100 * 24) return `${Math.floor(h / 24)}d`;
  if (h >= 100) return `${Math.floor(h / 24)}d ${String(h % 24).padStart(2, "0")}h`;
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** The same, for screen readers and titles: "1 h 2 min 5 s". */
export function durationWords(seconds) {
  if (seconds === null || seconds === undefined) return "no time";
  const total = wholeSeconds(seconds);
  const parts = [];
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  if (h) parts.push(`${h} h`);
  if (m) parts.push(`${m} min`);
  parts.push(`${total % 60} s`);
  return parts.join(" ");
}

function wholeSeconds(seconds) {
  return Math.max(0, Math.floor(seconds));
}

/** 0.4567 → "46%"; null → "—". */
export function percent(rate) {
  if (rate === null || rate === undefined) return "—";
  return `${Math.round(rate * 100)}%`;
}

export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

/** An ISO timestamp as a short local date and time ("3 Mar 2025, 14:05"). */
export function when(iso) {
  if (!iso) return "—";
  const date = new Date(iso);
  // The site's day format ("22 November 2026", as the server's pages write it), at the time of
  // day where the player is.
  const day = date.toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric" });
  return `${day}, ${date.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" })}`;
}

// The site's language whatever the browser's (as `when` writes dates).
const relative = new Intl.RelativeTimeFormat("en-GB", { numeric: "auto" });

/** "5 minutes ago", "yesterday"… */
export function ago(iso) {
  const seconds = (Date.parse(iso) - serverNow()) / 1000;
  const steps = [
    [60, "second"],
    [60, "minute"],
    [24, "hour"],
    [7, "day"],
    [4.35, "week"],
    [12, "month"],
    [Infinity, "year"],
  ];
  let value = seconds;
  for (const [size, unit] of steps) {
    if (Math.abs(value) < size) return relative.format(Math.round(value), unit);
    value /= size;
  }
  return "";
}

/** "2025-03-04" (a UTC day) → "Tuesday 4 March 2025", as the server's pages write a day
 * (browsers' own formats add commas or change the order). */
export function dayName(isoDate) {
  const date = new Date(`${isoDate}T00:00:00Z`);
  const part = (options) => date.toLocaleDateString("en-GB", { timeZone: "UTC", ...options });
  return `${part({ weekday: "long" })} ${part({ day: "numeric", month: "long", year: "numeric" })}`;
}

const STATUS_WORDS = { playing: "in play", won: "won", lost: "no moves left", resigned: "resigned", closed: "day closed" };

export function statusWord(status) {
  return STATUS_WORDS[status] || status;
}

/** An attempt's result as a leaderboard shows it: "Won", or "30/52 cards home" and its status. */
export function attemptResult(entry, totalCards) {
  if (entry.won) return el("span", { class: "result won" }, "Won");
  const note = entry.status === "playing" ? "in play" : statusWord(entry.status);
  return el(
    "span",
    { class: "result" },
    `${entry.cards_home}/${totalCards}`,
    el("span", { class: "result-words" }, " cards"),
    " home",
    el("span", { class: `badge status-${entry.status}` }, note),
  );
}

/** The columns of results per game that /api/me/stats/ and a public profile share. */
export const RESULT_COLUMNS = [
  ["Played", (s) => String(s.played)],
  ["Won", (s) => String(s.won)],
  ["Win rate", (s) => percent(s.win_rate)],
  ["Best moves", (s) => (s.best_moves === null ? "—" : String(s.best_moves))],
  ["Best time", (s) => el("span", { title: durationWords(s.best_time_seconds) }, duration(s.best_time_seconds))],
];

/** Results per game: a row per game (its name, then a numeric cell per `[label, value(row)]`
 * column); the cells carry their label for the narrow-screen layout. */
export function statsTable(rows, columns, id) {
  return el(
    "table",
    { class: "data-table stats-table", id },
    el(
      "thead",
      {},
      el("tr", {}, el("th", { scope: "col" }, "Game"), columns.map(([label]) => el("th", { scope: "col", class: "num" }, label))),
    ),
    el(
      "tbody",
      {},
      rows.map((row) =>
        el(
          "tr",
          { dataset: { variant: row.variant } },
          el("th", { scope: "row" }, gameName(row.variant)),
          columns.map(([label, value]) => el("td", { class: "num", "data-label": label }, value(row))),
        ),
      ),
    ),
  );
}

/** Daily challenge streaks (`{overall, by_variant}` of the API): current and best, in days. */
export function streaksTable(streaks, id) {
  const rows = [
    ["All games", streaks.overall, "overall"],
    ...Object.entries(streaks.by_variant).map(([slug, s]) => [gameName(slug), s, slug]),
  ];
  return el(
    "table",
    { class: "data-table", id },
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Game"), el("th", { scope: "col" }, "Current"), el("th", { scope: "col" }, "Best"))),
    el(
      "tbody",
      {},
      rows.map(([label, s, key]) =>
        el(
          "tr",
          { dataset: { variant: key } },
          el("th", { scope: "row" }, label),
          el("td", { class: "num" }, plural(s.current, "day")),
          el("td", { class: "num" }, plural(s.best, "day")),
        ),
      ),
    ),
  );
}

/** A player's name as a link to their public profile; the name goes in as text, never HTML. */
export function playerLink(name) {
  // "." and ".." cannot be a path segment: browsers resolve them, even percent-encoded.
  if (name === "." || name === "..") return name;
  return el("a", { class: "player-link", href: `/players/${encodeURIComponent(name)}/` }, name);
}

/** A message for an error thrown by api(): its own message, or a plain one for a network fault. */
export function errorText(error) {
  if (error && error.code && error.message) return error.message;
  return "Could not reach the server. Check your connection and try again.";
}

// A live region is read when its content changes. Writing the text it already shows changes
// nothing a screen reader can hear (the same refusal twice would be read once), so a repeat is
// written in two steps: the region is emptied now and the text put back a little later. Not on
// the next animation frame: the browser publishes DOM changes to the accessibility tree once per
// rendered frame, and a requestAnimationFrame callback runs before that frame is rendered, so the
// empty region and the text could merge into "no change"; and screen readers themselves take in
// changes asynchronously. A tenth of a second spans several frames and is what proven
// announcers (Angular CDK's LiveAnnouncer) wait, yet is too short to notice.
const REPEAT_GAP_MS = 100;
const rewrites = new WeakMap(); // live region → {text, timer}: a repeat waiting to be written

/** Put `content` (text and nodes) in the live region `node` so that screen readers read it, also
 * when it is word for word what the region already says. */
export function liveText(node, ...content) {
  const waiting = rewrites.get(node);
  clearTimeout(waiting?.timer);
  rewrites.delete(node);
  const text = content.map((part) => (typeof part === "string" ? part : part.textContent)).join("");
  if (!text || text !== (waiting?.text ?? node.textContent)) {
    node.replaceChildren(...content);
    return;
  }
  node.replaceChildren();
  const timer = setTimeout(() => {
    rewrites.delete(node);
    node.replaceChildren(...content);
  }, REPEAT_GAP_MS);
  rewrites.set(node, { text, timer });
}

/** The address that deals `seed` of `variant` to whoever opens it: the lobby starts the deal,
 * after signing in first if need be. */
export function dealLink(variant, seed) {
  const query = new URLSearchParams({ deal: variant, seed: String(seed) });
  return `${window.location.origin}/?${query}`;
}

const COPIED_SHOWN_MS = 2500;

/** Make `button` copy a link (`text()`) to the clipboard and say on itself that it did, for a moment.
 * Where the browser will not (no clipboard, or refused), the text is shown in `fallback`,
 * selected, to copy by hand. */
export function copyLinkButton(button, text, fallback) {
  const label = button.textContent;
  let timer = 0;
  button.addEventListener("click", async () => {
    const value = text();
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      fallback.textContent = value;
      fallback.hidden = false;
      window.getSelection()?.selectAllChildren(fallback);
      return;
    }
    button.textContent = "Link copied";
    clearTimeout(timer);
    timer = setTimeout(() => {
      button.textContent = label;
    }, COPIED_SHOWN_MS);
  });
}

/** Show text in a status element (role=status or role=alert); empty text hides it. */
export function say(node, text, kind = "info") {
  if (!node) return;
  node.textContent = text || "";
  node.hidden = !text;
  node.dataset.kind = kind;
}

/** The header once the page's sign-in has ended: no profile or sign-out links. */
export function headerSignedOut() {
  document.documentElement.dataset.user = "";
  document.querySelector("nav.account-nav")?.setAttribute("hidden", "");
}

/** The header once this page has signed in without leaving it (a sign-up that stays to say
 * more): the account's profile and sign-out, as a page opened signed in shows them, not the
 * guest's or visitor's "Sign in · Sign up" the page was rendered with. The sign-out names the
 * new account: the page's own (api.js pageAccount) is the one it was opened as. */
export function headerSignedIn(username) {
  const root = document.documentElement;
  root.dataset.user = username;
  delete root.dataset.guest;
  const list = document.querySelector("nav.account-nav ul");
  if (!list) return;
  const profile = document.createElement("a");
  profile.href = "/profile/";
  const who = document.createElement("span");
  who.className = "who";
  who.textContent = ` (${username})`;
  profile.append("Profile", who);
  const out = document.createElement("button");
  out.type = "button";
  out.id = "sign-out";
  out.className = "linkish";
  out.dataset.account = username;
  out.textContent = "Sign out";
  list.replaceChildren(...[profile, out].map((item) => {
    const li = document.createElement("li");
    li.append(item);
    return li;
  }));
}
