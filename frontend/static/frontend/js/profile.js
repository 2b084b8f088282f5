// /profile/: statistics per game, daily streaks, games in progress (→ /play/<id>/) and
// finished games by outcome (→ /replay/<id>/), both paginated by the API (20 a page).

import { api } from "./api.js";
import { duration, durationWords, el, errorText, gameName, percent, plural, say, statusWord, when } from "./ui.js";

const message = document.getElementById("profile-message");
const report = (error) => say(message, errorText(error), "error");

const COLUMNS = [
  ["Played", (s) => String(s.played)],
  ["Won", (s) => String(s.won)],
  ["Win rate", (s) => percent(s.win_rate)],
  ["Best moves", (s) => (s.best_moves === null ? "—" : String(s.best_moves))],
  ["Best time", (s) => el("span", { title: durationWords(s.best_time_seconds) }, duration(s.best_time_seconds))],
  ["Streak", (s) => String(s.current_streak)],
  ["Best streak", (s) => String(s.best_streak)],
];

function statsTable(rows) {
  return el(
    "table",
    { class: "data-table stats-table", id: "stats-table" },
    el(
      "thead",
      {},
      el("tr", {}, el("th", { scope: "col" }, "Game"), COLUMNS.map(([label]) => el("th", { scope: "col", class: "num" }, label))),
    ),
    el(
      "tbody",
      {},
      rows.map((stats) =>
        el(
          "tr",
          { dataset: { variant: stats.variant } },
          el("th", { scope: "row" }, gameName(stats.variant)),
          COLUMNS.map(([label, value]) => el("td", { class: "num", "data-label": label }, value(stats))),
        ),
      ),
    ),
  );
}

async function loadStats() {
  const stats = await api("GET", "/api/me/stats/");
  document.getElementById("stats").replaceChildren(statsTable(stats));
}

async function loadStreaks() {
  const day = await api("GET", "/api/daily/");
  const streaks = day.streaks;
  if (!streaks) return;
  const rows = [
    ["All games", streaks.overall, "overall"],
    ...Object.entries(streaks.by_variant).map(([slug, s]) => [gameName(slug), s, slug]),
  ];
  const table = el(
    "table",
    { class: "data-table", id: "daily-streaks-table" },
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
  document.getElementById("daily-streaks").replaceChildren(table);
}

function gameRow(game) {
  const finished = game.status !== "playing";
  const href = finished ? `/replay/${game.id}/` : `/play/${game.id}/`;
  const kind = game.daily ? (game.ranked ? `daily ${game.daily}, ranked` : `daily ${game.daily}, for fun`) : null;
  return el(
    "li",
    { class: "game-row", dataset: { gameId: game.id, status: game.status } },
    el(
      "div",
      { class: "game-row-main" },
      el("strong", {}, gameName(game.variant)),
      el("span", { class: `badge status-${game.status}` }, statusWord(game.status)),
      kind ? el("span", { class: `badge ${game.ranked ? "ranked" : "daily"}` }, kind) : null,
    ),
    el(
      "div",
      { class: "game-row-meta" },
      plural(game.counts.moves, "move"),
      " · ",
      finished ? `finished ${when(game.finished_at)}` : `last played ${when(game.last_move_at || game.created_at)}`,
    ),
    el(
      "a",
      { class: "button small", href, "aria-label": `${finished ? "Replay" : "Continue"} ${gameName(game.variant)} game ${game.id}` },
      finished ? "Replay" : "Continue",
    ),
  );
}

/** A paginated list of games: `query` returns the API path for a page. */
function gameList(prefix, query) {
  const list = document.getElementById(prefix);
  const empty = document.getElementById(`${prefix}-empty`);
  const prev = document.getElementById(`${prefix}-prev`);
  const next = document.getElementById(`${prefix}-next`);
  const info = document.getElementById(`${prefix}-page`);
  let page = 1;
  let ticket = 0;
  async function load(to = page) {
    const mine = ++ticket;
    list.setAttribute("aria-busy", "true");
    try {
      const data = await api("GET", query(to));
      if (mine !== ticket) return;
      page = to;
      list.replaceChildren(...data.results.map(gameRow));
      empty.hidden = data.results.length > 0;
      prev.hidden = !data.previous;
      next.hidden = !data.next;
      const pages = Math.max(1, Math.ceil(data.count / 20));
      info.textContent = pages > 1 ? `Page ${page} of ${pages}` : "";
    } catch (error) {
      if (mine === ticket) report(error);
    } finally {
      if (mine === ticket) list.removeAttribute("aria-busy");
    }
  }
  prev.addEventListener("click", () => load(page - 1));
  next.addEventListener("click", () => load(page + 1));
  return load;
}

const loadPlaying = gameList("in-progress", (page) => `/api/games/?status=playing&page=${page}`);

let finishedStatus = "won";
const loadFinished = gameList("finished", (page) => `/api/games/?status=${finishedStatus}&page=${page}`);
for (const button of document.querySelectorAll(".segmented [data-status]")) {
  button.addEventListener("click", () => {
    finishedStatus = button.dataset.status;
    for (const other of document.querySelectorAll(".segmented [data-status]")) {
      other.setAttribute("aria-pressed", String(other === button));
    }
    loadFinished(1);
  });
}

for (const task of [loadStats, loadStreaks]) task().catch(report);
loadPlaying(1);
loadFinished(1);
