// /leaderboards/: today's five daily challenges leading to their live boards (#today-list),
// then one tab per game (?game=<slug>) with the week's board (from a player's first ranked
// game) and the all-time ranking (from LEADERBOARD_MIN_GAMES finished ranked games).

import { api } from "./api.js";
import { canFollow } from "./follow.js";
import { attemptResult, dayName, duration, durationWords, el, errorText, percent, playerLink, plural, say } from "./ui.js";

const tabs = [...document.querySelectorAll("#game-tabs [role=tab]")];
const panel = document.getElementById("leaderboard-panel");
const table = document.getElementById("alltime-leaderboard");
const weekTable = document.getElementById("week-leaderboard");
const weekEmpty = document.getElementById("week-empty");
const weekNote = document.getElementById("week-note");
const weekMore = document.getElementById("week-more");
const todayList = document.getElementById("today-list");
const todayMessage = document.getElementById("today-message");
const empty = document.getElementById("leaderboard-empty");
const minGames = document.getElementById("min-games");
const message = document.getElementById("leaderboard-message");
const prev = document.getElementById("prev-page");
const next = document.getElementById("next-page");
const pageInfo = document.getElementById("page-info");

const slugs = tabs.map((tab) => tab.dataset.variant);
const MAX_PAGE = 1000000; // the API's highest page number
let current = { variant: slugs[0], page: 1 };
let ticket = 0;

function fromUrl() {
  const params = new URLSearchParams(window.location.search);
  const variant = slugs.includes(params.get("game")) ? params.get("game") : slugs[0];
  const page = Math.min(Math.max(1, Number.parseInt(params.get("page"), 10) || 1), MAX_PAGE);
  return { variant, page };
}

function toUrl({ variant, page }) {
  const url = new URL(window.location.href);
  url.searchParams.set("game", variant);
  if (page > 1) url.searchParams.set("page", page);
  else url.searchParams.delete("page");
  return url;
}

/** A board's row: rank, player, the board's own figures (`cells`), then the fastest win. */
function boardRow(entry, cells) {
  return el(
    "tr",
    { dataset: { user: entry.user } },
    el("td", { class: "num" }, String(entry.rank)),
    el("th", { scope: "row", class: "player" }, playerLink(entry.user)),
    ...cells.map((cell) => el("td", { class: "num" }, cell)),
    el("td", { class: "num" }, el("span", { title: durationWords(entry.best_time_seconds) }, duration(entry.best_time_seconds))),
  );
}

const row = (entry) => boardRow(entry, [String(entry.wins), percent(entry.win_rate), String(entry.played)]);
const weekRow = (entry) => boardRow(entry, [String(entry.wins), String(entry.played), String(entry.best_cards_home)]);

function showWeek(board) {
  weekTable.dataset.variant = board.variant;
  weekTable.tBodies[0].replaceChildren(...board.results.map(weekRow));
  weekEmpty.hidden = board.results.length > 0;
  weekNote.textContent = `Finished ranked attempts from ${dayName(board.since)} to today, from a player's first: most wins, then the most cards home in one attempt, then the fastest win.`;
  weekMore.hidden = board.pages <= 1;
  weekMore.textContent = `The first ${board.results.length} of ${plural(board.count, "player")} this week.`;
}

// -- today's live boards ------------------------------------------------------------------

let decks = null; // slug → decks, for "30/52 cards home"
const TODAY_REFRESH_MS = 60_000;

/** What the leader of a board has so far, as the board itself shows it (nothing hidden). */
function leaderLines(challenge) {
  const leader = challenge.leader;
  if (!challenge.ready) return [el("p", { class: "leader none" }, "Being prepared: open in a minute.")];
  if (!leader) return [el("p", { class: "leader none" }, "Nobody on the board yet: be the first.")];
  const total = 52 * (decks?.[challenge.variant] || 1);
  return [
    el("p", { class: "leader" }, el("span", { class: "leader-label" }, "Leader "), playerLink(leader.user)),
    el("p", { class: "leader-result" }, attemptResult(leader, total)),
    el(
      "p",
      { class: "leader-detail" },
      `${plural(leader.moves, "move")} · `,
      el("span", { title: durationWords(leader.time_seconds) }, duration(leader.time_seconds)),
    ),
  ];
}

// The friends' view of today's boards (an account's toggle): each board's entries of the
// account and the players it follows, with their places on the whole board, asked again
// every FRIENDS_REFRESH_MS while shown (each board's own page is the live one, pushed).
let friendsView = false;
const FRIENDS_REFRESH_MS = 10_000;

function friendsLines(challenge, board) {
  if (!board || !board.results.length) {
    return [el("p", { class: "leader none" }, "None of you on this board yet.")];
  }
  const total = 52 * (decks?.[challenge.variant] || 1);
  return [
    el(
      "ol",
      { class: "friends-board", "aria-label": `${challenge.name}: you and the players you follow` },
      ...board.results.map((entry) =>
        el(
          "li",
          { dataset: { user: entry.user } },
          el("span", { class: "friend-rank" }, `${entry.rank}.`),
          " ",
          playerLink(entry.user),
          el("span", { class: "friend-result" }, " ", attemptResult(entry, total), ` · ${plural(entry.moves, "move")} · ${duration(entry.time_seconds)}`),
        ),
      ),
    ),
  ];
}

function todayBoard(challenge, day, friends) {
  const href = `/daily/${day.date}/${challenge.variant}/`;
  return el(
    "li",
    { class: "today-board card-panel", dataset: { variant: challenge.variant } },
    el("h3", {}, el("a", { class: "board-link", href }, challenge.name)),
    el("p", { class: "attempts" }, plural(challenge.attempts, "ranked attempt")),
    ...(friendsView && challenge.ready ? friendsLines(challenge, friends?.[challenge.variant]) : leaderLines(challenge)),
  );
}

async function friendsBoards(day) {
  if (!friendsView) return null;
  const boards = await Promise.all(
    day.challenges.map((c) => api("GET", `/api/leaderboards/daily/${day.date}/${c.variant}/friends/`).catch(() => null)),
  );
  return Object.fromEntries(day.challenges.map((c, i) => [c.variant, boards[i]]));
}

const viewButtons = [...document.querySelectorAll("#today-view [data-view]")];
if (canFollow()) document.getElementById("today-view").hidden = false;
for (const button of viewButtons) {
  button.addEventListener("click", () => {
    friendsView = button.dataset.view === "friends";
    for (const b of viewButtons) b.setAttribute("aria-pressed", String(b === button));
    todayList.dataset.view = friendsView ? "friends" : "everyone";
    showToday();
  });
}
setInterval(() => friendsView && !document.hidden && showToday(), FRIENDS_REFRESH_MS);

async function showToday() {
  try {
    const [day, variants] = await Promise.all([
      api("GET", "/api/daily/"),
      decks ? null : api("GET", "/api/variants/").catch(() => []),
    ]);
    if (variants) decks = Object.fromEntries(variants.map((v) => [v.slug, v.decks]));
    const friends = await friendsBoards(day);
    todayList.dataset.date = day.date;
    todayList.replaceChildren(...day.challenges.map((challenge) => todayBoard(challenge, day, friends)));
    say(todayMessage, "");
  } catch (error) {
    say(todayMessage, errorText(error), "error");
  } finally {
    todayList.removeAttribute("aria-busy");
  }
}

// -- the tabs: the week's and the all-time boards of one game ---------------------------------

function selectTab(variant) {
  for (const tab of tabs) {
    const selected = tab.dataset.variant === variant;
    tab.setAttribute("aria-selected", String(selected));
    tab.tabIndex = selected ? 0 : -1;
    if (selected) panel.setAttribute("aria-labelledby", tab.id);
  }
}

async function show(state) {
  current = state;
  selectTab(state.variant);
  const mine = ++ticket;
  panel.setAttribute("aria-busy", "true");
  say(message, "");
  try {
    const [board, week] = await Promise.all([
      api("GET", `/api/leaderboards/${state.variant}/?page=${state.page}`),
      api("GET", `/api/leaderboards/${state.variant}/week/`),
    ]);
    if (mine !== ticket) return;
    showWeek(week);
    table.dataset.variant = state.variant;
    table.tBodies[0].replaceChildren(...board.results.map(row));
    empty.hidden = board.results.length > 0;
    minGames.textContent = `Players appear once they have finished at least ${plural(board.min_games, "ranked game")} of this game; ${board.count} ${board.count === 1 ? "player qualifies" : "players qualify"}.`;
    prev.hidden = board.page <= 1;
    next.hidden = board.page >= board.pages;
    pageInfo.textContent = board.pages > 1 ? `Page ${board.page} of ${board.pages}` : "";
  } catch (error) {
    if (mine !== ticket) return;
    if (error.code === "not_found" && error.pages >= 1 && state.page > error.pages) {
      // The board has fewer pages than asked for (an old link, or players left it): its last.
      const last = { ...state, page: error.pages };
      window.history.replaceState({}, "", toUrl(last));
      show(last);
      return;
    }
    say(message, errorText(error), "error");
  } finally {
    if (mine === ticket) panel.removeAttribute("aria-busy");
  }
}

function go(state) {
  window.history.pushState({}, "", toUrl(state));
  show(state);
}

for (const tab of tabs) {
  tab.addEventListener("click", () => go({ variant: tab.dataset.variant, page: 1 }));
  tab.addEventListener("keydown", (event) => {
    const index = tabs.indexOf(tab);
    const moves = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const target = tabs[(moves[event.key] + tabs.length) % tabs.length];
    target.focus();
    go({ variant: target.dataset.variant, page: 1 });
  });
}
prev.addEventListener("click", () => go({ ...current, page: current.page - 1 }));
next.addEventListener("click", () => go({ ...current, page: current.page + 1 }));
window.addEventListener("popstate", () => show(fromUrl()));

show(fromUrl());
showToday();
// The boards move while the page is open: asked again now and then, and on coming back to it.
setInterval(() => document.hidden || showToday(), TODAY_REFRESH_MS);
document.addEventListener("visibilitychange", () => document.hidden || showToday());
