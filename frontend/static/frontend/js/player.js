// /players/<username>/: a player's public profile, from /api/players/<username>/: daily
// challenge results per game, streaks, and the recent results, each linking to its day's board;
// the last races, each linking to its page.

import { api } from "./api.js";
import { canFollow, followButton, following } from "./follow.js";
import { renderProgress } from "./progress.js";
import { RESULT_COLUMNS, attemptResult, duration, durationWords, el, errorText, say, serverNow, statsTable, streaksTable } from "./ui.js";

const root = document.getElementById("player");
const message = document.getElementById("player-message");

/** "2031-05-09" → "9 May 2031" (a UTC day). */
function shortDay(isoDate) {
  const date = new Date(`${isoDate}T00:00:00Z`);
  return date.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
}

function recentRow(result, totalCards) {
  const board = `/daily/${encodeURIComponent(result.date)}/${encodeURIComponent(result.variant)}/`;
  return el(
    "tr",
    { dataset: { date: result.date, variant: result.variant, status: result.status } },
    el("th", { scope: "row" }, el("a", { href: board, class: "board-link" }, el("time", { datetime: result.date }, shortDay(result.date)))),
    el("td", {}, el("a", { href: board }, result.name)),
    el("td", { class: "num" }, String(result.rank)),
    el("td", {}, attemptResult(result, totalCards[result.variant] || 52)),
    el("td", { class: "num" }, String(result.moves)),
    el("td", { class: "num" }, el("span", { title: durationWords(result.time_seconds) }, duration(result.time_seconds))),
  );
}

const RACE_RESULT = { won: "Won", stuck: "Stuck (no move left)", resigned: "Resigned", out_of_time: "Out of time", playing: "Playing", waiting: "Waiting" };

/** A race that is over: its day and game (links to its page), the place of how many, the result. */
function raceRow(entry) {
  const day = entry.ended_at.slice(0, 10);
  return el(
    "tr",
    { dataset: { code: entry.code, standing: entry.standing } },
    el("th", { scope: "row" }, el("a", { href: entry.link }, el("time", { datetime: entry.ended_at }, shortDay(day)))),
    el("td", {}, el("a", { href: entry.link }, entry.name)),
    el("td", { class: "num" }, entry.place ? `${entry.place} of ${entry.players}` : "–"),
    el("td", {}, RACE_RESULT[entry.standing] ?? entry.standing),
  );
}

/** Follow / Following, for an account looking at someone else's profile. */
async function showFollow() {
  const name = root.dataset.username;
  if (!canFollow() || name === document.documentElement.dataset.user) return;
  const names = await following();
  const note = el("span", { class: "note" }, " Whom you follow shows on your friends' boards; nobody is told.");
  document.getElementById("player-follow").replaceChildren(
    followButton(name, names.has(name), { onError: (text) => say(message, text, "error") }),
    note,
  );
}

async function start() {
  showFollow();
  const path = `/api/players/${encodeURIComponent(root.dataset.username)}/`;
  const [profile, variants, progress] = await Promise.all([api("GET", path), api("GET", "/api/variants/"), api("GET", `${path}progress/`)]);
  const totalCards = Object.fromEntries(variants.map((v) => [v.slug, 52 * v.decks]));
  document.getElementById("player-daily").replaceChildren(statsTable(profile.daily, RESULT_COLUMNS, "player-daily-table"));
  document.getElementById("player-streaks").replaceChildren(streaksTable(profile.daily_streaks, "player-streaks-table"));
  document.querySelector("#recent-results tbody").replaceChildren(...profile.recent.map((r) => recentRow(r, totalCards)));
  document.getElementById("recent-empty").hidden = profile.recent.length > 0;
  document.querySelector("#player-races tbody").replaceChildren(...profile.races.map(raceRow));
  document.getElementById("races-empty").hidden = profile.races.length > 0;
  const games = document.getElementById("progress-games");
  renderProgress(progress, new Date(serverNow()).toISOString().slice(0, 10), {
    games,
    days: document.getElementById("daily-days"),
    badges: document.getElementById("badges-list"),
    empty: document.getElementById("progress-empty"),
  });
  games.removeAttribute("aria-busy");
  root.dataset.loaded = "true";
}

start().catch((error) => say(message, errorText(error), "error"));
