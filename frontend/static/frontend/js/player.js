// /players/<username>/: a player's public profile, from /api/players/<username>/: daily
// challenge results per game, streaks, and the recent results, each linking to its day's board.

import { api } from "./api.js";
import { attemptResult, duration, durationWords, el, errorText, percent, plural, say } from "./ui.js";

const root = document.getElementById("player");
const message = document.getElementById("player-message");

const COLUMNS = [
  ["Played", (s) => String(s.played)],
  ["Won", (s) => String(s.won)],
  ["Win rate", (s) => percent(s.win_rate)],
  ["Best moves", (s) => (s.best_moves === null ? "—" : String(s.best_moves))],
  ["Best time", (s) => el("span", { title: durationWords(s.best_time_seconds) }, duration(s.best_time_seconds))],
];

function dailyTable(stats) {
  return el(
    "table",
    { class: "data-table stats-table", id: "player-daily-table" },
    el(
      "thead",
      {},
      el("tr", {}, el("th", { scope: "col" }, "Game"), COLUMNS.map(([label]) => el("th", { scope: "col", class: "num" }, label))),
    ),
    el(
      "tbody",
      {},
      stats.map((s) =>
        el(
          "tr",
          { dataset: { variant: s.variant } },
          el("th", { scope: "row" }, s.name),
          COLUMNS.map(([label, value]) => el("td", { class: "num", "data-label": label }, value(s))),
        ),
      ),
    ),
  );
}

function streaksTable(streaks, names) {
  const rows = [
    ["All games", streaks.overall, "overall"],
    ...Object.entries(streaks.by_variant).map(([slug, s]) => [names[slug] || slug, s, slug]),
  ];
  return el(
    "table",
    { class: "data-table", id: "player-streaks-table" },
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

/** "2031-05-09" → "9 May 2031" (a UTC day). */
function shortDay(isoDate) {
  const date = new Date(`${isoDate}T00:00:00Z`);
  return date.toLocaleDateString(undefined, { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
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

async function start() {
  const path = `/api/players/${encodeURIComponent(root.dataset.username)}/`;
  const [profile, variants] = await Promise.all([api("GET", path), api("GET", "/api/variants/")]);
  const totalCards = Object.fromEntries(variants.map((v) => [v.slug, 52 * v.decks]));
  const names = Object.fromEntries(profile.daily.map((s) => [s.variant, s.name]));
  document.getElementById("player-daily").replaceChildren(dailyTable(profile.daily));
  document.getElementById("player-streaks").replaceChildren(streaksTable(profile.daily_streaks, names));
  document.querySelector("#recent-results tbody").replaceChildren(...profile.recent.map((r) => recentRow(r, totalCards)));
  document.getElementById("recent-empty").hidden = profile.recent.length > 0;
  root.dataset.loaded = "true";
}

start().catch((error) => say(message, errorText(error), "error"));
