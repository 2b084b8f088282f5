// The clock shows the game's time as the server counts it (games/core/clock.py): its figure at
// the last entry (game.clock.seconds), then the time since, at most the cap, less the time this
// page was hidden or not open (a casual game; sent as away_ms with the next move or undo, so the
// server's figure is the one shown). A ranked attempt's clock runs on while hidden: the server
// counts that time (up to the cap), whatever a page says.

import { cappedWords, clockExplanation } from "../clock_words.js";
import { duration, serverNow } from "../ui.js";
import { sayOnly } from "./messages.js";
import { $, page } from "./page.js";

let awaySince = null; // the last entry (ms) the time away is counted from
let awayMs = 0; // time away since then, but for the hidden spell under way
let hiddenAt = null; // when the page was hidden, while it is
let cappedSaidFor = null;

const loadedAt = performance.now();
/** When this page was opened, on the server's clock (its offset known once the server answered). */
const pageShownAt = () => serverNow() - (performance.now() - loadedAt);

/** The time since the last entry the game was out of sight: never shown, or hidden. */
function timeAway(now = serverNow()) {
  const since = Date.parse(page.game.clock.running_since);
  if (since !== awaySince) {
    // A new entry: time away counts afresh from it; before this page showed it, it was away.
    awayMs = awaySince === null ? Math.max(0, pageShownAt() - since) : 0;
    awaySince = since;
    if (document.hidden) hiddenAt = Math.max(now, since);
  }
  return awayMs + (hiddenAt === null ? 0 : Math.max(0, now - hiddenAt));
}

/** The game's time in seconds, as the clock shows it now. */
export function elapsed() {
  const game = page.game;
  if (!game) return 0;
  const { seconds, running_since: since, cap_seconds: cap, counts_time_away: countsAway } = game.clock;
  if (game.status !== "playing" || !since) return seconds;
  const now = serverNow();
  const away = countsAway ? 0 : timeAway(now);
  return seconds + Math.min(Math.max(0, now - Date.parse(since) - away), cap * 1000) / 1000;
}

/** What a move or an undo tells the server of the time away (casual games only). */
export const awayField = () =>
  page.game.clock.counts_time_away || !page.game.clock.running_since ? {} : { away_ms: Math.round(timeAway()) };

/** Whether the time since the last entry has reached the cap: the clock stands still then,
 * by the rule, and says so (once an entry). */
function atCap() {
  const game = page.game;
  const { running_since: since, cap_seconds: cap, counts_time_away: countsAway } = game.clock;
  if (game.status !== "playing" || !since) return false;
  const now = serverNow();
  return now - Date.parse(since) - (countsAway ? 0 : timeAway(now)) >= cap * 1000;
}

/** Show the clock's figure for the game as shown now. */
export function tick() {
  const timer = $("timer");
  timer.textContent = duration(elapsed());
  timer.setAttribute("datetime", `PT${Math.max(0, Math.floor(elapsed()))}S`);
  timer.title = clockExplanation(page.game.clock);
  const capped = atCap();
  timer.toggleAttribute("data-capped", capped);
  if (capped && cappedSaidFor !== page.game.clock.running_since) {
    cappedSaidFor = page.game.clock.running_since;
    sayOnly(cappedWords(page.game.clock), "info", "board");
  }
}

document.addEventListener("visibilitychange", () => {
  const now = serverNow();
  if (document.hidden) hiddenAt = now;
  else if (hiddenAt !== null) {
    awayMs += Math.max(0, now - hiddenAt);
    hiddenAt = null;
  }
  if (page.game) tick();
});

/** The clock moves on every second while the game is in play. */
export function startClock() {
  setInterval(() => page.game?.status === "playing" && tick(), 1000);
}
