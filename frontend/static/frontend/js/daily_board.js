// /daily/<date>/<game>/: the challenge's live leaderboard. Every {"type": "leaderboard"}
// message from the websocket redraws table#leaderboard (rows tr[data-user]); the viewer's own
// entry is highlighted (.me), and shown below the table when it is not in the top 20. A day
// still to come says when it opens (#day-notice), a closed one that its ranking is final;
// #live-status reads "Live" only while the day is open.

import { api, socket } from "./api.js";
import { challengeActions } from "./daily_actions.js";
import { canFollow, followButton, following } from "./follow.js";
import { shareButton } from "./share.js";
import { attemptResult, dayName, duration, durationWords, el, errorText, playerLink, say } from "./ui.js";

// What the live indicator says when the board's websocket closes with the server's code.
// After 4401-4429 the socket does not reconnect (api.js), so none of them says "Reconnecting…".
const CLOSED_SAYS = {
  4403: "Live updates refused: reload the page.",
  4404: "This leaderboard does not exist.",
  4429: "Live updates stopped: reload the page.",
  4430: "Too many live pages open: this one tries again in a minute.",
};

const root = document.getElementById("daily-board");
const { date, variant } = root.dataset;
const table = document.getElementById("leaderboard");
const empty = document.getElementById("leaderboard-empty");
const count = document.getElementById("leaderboard-count");
const live = document.getElementById("live-status");
const mine = document.getElementById("my-entry");
const actions = document.getElementById("board-actions");
const message = document.getElementById("board-message");

let totalCards = 52;
let followed = new Set(); // names this account follows (follow.js)
let view = "everyone"; // or "friends": the board's friends (the websocket's "friends")
let lastBoard = null;
let previous = new Map(); // user → the entry last drawn, to mark rows that changed
let myStatus;

function row(entry, me) {
  const isMe = me !== null && entry.user === me.user;
  const before = previous.get(entry.user);
  const changed = before !== undefined && JSON.stringify(before) !== JSON.stringify(entry);
  const classes = [isMe ? "me" : "", changed || (before === undefined && previous.size) ? "changed" : ""];
  return el(
    "tr",
    { class: classes.filter(Boolean).join(" ") || null, dataset: { user: entry.user }, "aria-current": isMe ? "true" : null },
    el("td", { class: "num" }, String(entry.rank)),
    el(
      "th",
      { scope: "row", class: "player" },
      playerLink(entry.user),
      isMe ? el("span", { class: "you" }, " (you)") : null,
      canFollow() && entry.user !== root.dataset.username
        ? followButton(entry.user, followed.has(entry.user), { star: true, onError: (text) => say(message, text, "error") })
        : null,
    ),
    el("td", {}, attemptResult(entry, totalCards)),
    el("td", { class: "num" }, String(entry.moves)),
    el("td", { class: "num" }, el("span", { title: durationWords(entry.time_seconds) }, duration(entry.time_seconds))),
  );
}

/** A past day that had no challenge of this game: said once, in place of the day's notice,
 * and no empty ranking, "Final" badge or "0 ranked attempts" under it (pages.css hides them). */
function showNoChallenge(name) {
  root.dataset.noChallenge = "true";
  actions.replaceChildren();
  const notice = el("p", { id: "day-notice", class: "day-notice", dataset: { day: "closed" } },
    `There was no ${name} challenge on this day: nothing was played, and there is no ranking.`);
  const old = document.getElementById("day-notice");
  if (old) old.replaceWith(notice);
  else actions.before(notice);
}

const viewButtons = [...document.querySelectorAll("#board-view [data-view]")];
const caption = table.querySelector("caption");
const CAPTIONS = {
  everyone: "Top 20: won first, then most cards home, fewest moves, least time.",
  friends: "You and the players you follow, with your places on the whole board.",
};

function setView(next) {
  view = next;
  for (const button of viewButtons) button.setAttribute("aria-pressed", String(button.dataset.view === view));
  caption.textContent = CAPTIONS[view];
  table.dataset.view = view;
  if (lastBoard) render(lastBoard);
}

for (const button of viewButtons) button.addEventListener("click", () => setView(button.dataset.view));

function render(board) {
  if (root.dataset.noChallenge) return;
  lastBoard = board;
  const me = board.me || null;
  // An account's pushes carry its friends (docs/api.md); the toggle shows only then.
  document.getElementById("board-view").hidden = board.friends === undefined;
  const shown = view === "friends" && board.friends ? board.friends : board.results;
  table.tBodies[0].replaceChildren(...shown.map((entry) => row(entry, me)));
  empty.hidden = shown.length > 0;
  empty.textContent = view === "friends" ? "None of you is on this board yet: follow players from their profile or the star beside their name." : "No ranked attempts yet.";
  count.textContent = `${board.count} ranked ${board.count === 1 ? "attempt" : "attempts"}`;
  const inTop = me !== null && shown.some((entry) => entry.user === me.user);
  mine.hidden = me === null || inTop;
  if (me !== null && !inTop) {
    mine.querySelector("tbody").replaceChildren(row(me, me));
  }
  previous = new Map(board.results.map((entry) => [entry.user, entry]));
  if (me) previous.set(me.user, me);
  table.dataset.count = String(board.count);
  // When the viewer's own attempt changes state, what they can do changes too.
  const status = me ? me.status : null;
  if (myStatus !== undefined && status !== myStatus) loadActions();
  myStatus = status;
  showShare(status);
}

/** Share the day's results once the viewer's attempt here is over. */
function showShare(status) {
  const box = document.getElementById("board-share");
  const over = status !== null && status !== "playing";
  if (over && !box.firstChild) box.replaceChildren(shareButton(date));
  box.hidden = !over;
}

async function loadActions() {
  try {
    const day = await api("GET", `/api/daily/?date=${date}`);
    const challenge = day.challenges.find((c) => c.variant === variant);
    if (!challenge) return;
    if (!challenge.ready && day.date < day.today) {
      showNoChallenge(challenge.name);
      return;
    }
    actions.replaceChildren(challengeActions(challenge, day, (text) => say(message, text, "error"), { ids: true }));
    // The page may have been open across midnight UTC: the API's answer says where the day is.
    setDay(day.open ? "open" : day.date < day.today ? "closed" : "upcoming");
  } catch (error) {
    say(message, errorText(error), "error");
  }
}

function setLive(state, text) {
  live.dataset.state = state;
  live.textContent = text;
}

/** The leaderboard's badge once the websocket answers: "Live" only while the day is open; a
 * day still to come has no attempts to follow, a closed day's ranking is final. */
function showConnected() {
  const day = root.dataset.day;
  if (day === "upcoming") setLive("upcoming", "Not started");
  else if (day === "closed") setLive("final", "Final");
  else setLive("live", "Live");
}

function dayNotice(day) {
  if (day === "closed") return el("p", { id: "day-notice", class: "day-notice", dataset: { day } }, "This day has closed: the ranking is final.");
  if (day === "upcoming") {
    return el(
      "p",
      { id: "day-notice", class: "day-notice", dataset: { day } },
      "Not started yet: this day's challenge opens at midnight UTC on ",
      el("time", { datetime: `${date}T00:00:00Z` }, dayName(date)),
      ".",
    );
  }
  return null;
}

/** "upcoming", "open" or "closed" (the server drew the page with its own). */
function setDay(day) {
  if (root.dataset.day === day) return;
  root.dataset.day = day;
  const notice = dayNotice(day);
  const old = document.getElementById("day-notice");
  if (old && notice) old.replaceWith(notice);
  else if (old) old.remove();
  else if (notice) actions.before(notice);
  if (live.dataset.state !== "connecting" && live.dataset.state !== "offline") showConnected();
}

async function start() {
  try {
    const variants = await api("GET", "/api/variants/");
    totalCards = 52 * (variants.find((v) => v.slug === variant)?.decks || 1);
  } catch {
    /* keep 52: only the "n/52 cards home" wording depends on it */
  }
  if (canFollow()) followed = await following();
  loadActions();
  socket(
    `/ws/leaderboards/daily/${date}/${variant}/`,
    (data) => {
      if (data?.type !== "leaderboard") return;
      showConnected();
      render(data);
    },
    {
      onClose: (code) => setLive("offline", CLOSED_SAYS[code] ?? "Reconnecting…"),
    },
  );
}

start();
