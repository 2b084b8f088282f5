// /leaderboards/: the all-time ranking of each game (?game=<slug>), one tab per game.

import { api } from "./api.js";
import { duration, durationWords, el, errorText, percent, playerLink, plural, say } from "./ui.js";

const tabs = [...document.querySelectorAll("#game-tabs [role=tab]")];
const panel = document.getElementById("leaderboard-panel");
const table = document.getElementById("alltime-leaderboard");
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

function row(entry) {
  return el(
    "tr",
    { dataset: { user: entry.user } },
    el("td", { class: "num" }, String(entry.rank)),
    el("th", { scope: "row", class: "player" }, playerLink(entry.user)),
    el("td", { class: "num" }, String(entry.wins)),
    el("td", { class: "num" }, percent(entry.win_rate)),
    el("td", { class: "num" }, String(entry.played)),
    el("td", { class: "num" }, el("span", { title: durationWords(entry.best_time_seconds) }, duration(entry.best_time_seconds))),
  );
}

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
    const board = await api("GET", `/api/leaderboards/${state.variant}/?page=${state.page}`);
    if (mine !== ticket) return;
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
