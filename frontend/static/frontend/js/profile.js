// /profile/: statistics per game, daily streaks, games in progress (→ /play/<id>/) and
// finished games, all or by outcome (→ /replay/<id>/), both paginated by the API (20 a page).

import { api } from "./api.js";
import { followButton } from "./follow.js";
import { renderProgress } from "./progress.js";
import { RESULT_COLUMNS, ago, el, errorText, gameName, plural, say, serverNow, statsTable, statusWord, streaksTable, when } from "./ui.js";

const message = document.getElementById("profile-message");
const report = (error) => say(message, errorText(error), "error");

const COLUMNS = [
  ...RESULT_COLUMNS,
  ["Streak", (s) => String(s.current_streak)],
  ["Best streak", (s) => String(s.best_streak)],
];

async function loadStats() {
  const stats = await api("GET", "/api/me/stats/");
  document.getElementById("stats").replaceChildren(statsTable(stats, COLUMNS, "stats-table"));
}

async function loadStreaks() {
  const day = await api("GET", "/api/daily/");
  const streaks = day.streaks;
  if (!streaks) return;
  document.getElementById("daily-streaks").replaceChildren(streaksTable(streaks, "daily-streaks-table"));
}

async function loadProgress() {
  const games = document.getElementById("progress-games");
  try {
    const progress = await api("GET", "/api/me/progress/");
    const today = new Date(serverNow()).toISOString().slice(0, 10);
    renderProgress(progress, today, {
      games,
      days: document.getElementById("daily-days"),
      badges: document.getElementById("badges-list"),
      empty: document.getElementById("progress-empty"),
    });
  } finally {
    games.removeAttribute("aria-busy");
  }
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
      ...(finished ? [`finished ${when(game.finished_at)}`] : lastPlayed(game)),
    ),
    el(
      "a",
      { class: "button small", href, "aria-label": `${finished ? "Replay" : "Resume"} ${gameName(game.variant)}, game ${game.id}` },
      finished ? "Replay" : "Resume",
    ),
  );
}

/** A game in play as the lobby says it: "last played 5 minutes ago" (the date and time in
 * its title), or "started …" before its first move. */
function lastPlayed(game) {
  const last = game.last_move_at ?? game.created_at;
  return [`${game.last_move_at ? "last played" : "started"} `, el("time", { datetime: last, title: when(last) }, ago(last))];
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
      if (mine !== ticket) return;
      // Games finished or started elsewhere since this page was drawn: go to the last page.
      if (error.code === "not_found" && error.pages >= 1 && to > error.pages) load(error.pages);
      else report(error);
    } finally {
      if (mine === ticket) list.removeAttribute("aria-busy");
    }
  }
  prev.addEventListener("click", () => load(page - 1));
  next.addEventListener("click", () => load(page + 1));
  return load;
}

const loadPlaying = gameList("in-progress", (page) => `/api/games/?status=playing&page=${page}`);

// "finished": every game that is over, whatever its outcome (the API's filter for it).
let finishedStatus = "finished";
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

for (const task of [loadStats, loadStreaks, loadProgress]) task().catch(report);
loadPlaying(1);
loadFinished(1);

// -- friends: the players this account follows --------------------------------------------------

async function loadFriends() {
  const list = document.getElementById("friends-list");
  if (!list) return; // a guest follows nobody
  const body = await api("GET", "/api/me/following/");
  list.replaceChildren(
    ...body.following.map((friend) =>
      el(
        "li",
        { class: "friend", dataset: { user: friend.username } },
        el("a", { href: `/players/${encodeURIComponent(friend.username)}/` }, friend.username),
        " ",
        followButton(friend.username, true, { small: true, onError: (text) => say(message, text, "error") }),
      ),
    ),
  );
  document.getElementById("friends-empty").hidden = body.following.length > 0;
}

loadFriends().catch(report);
