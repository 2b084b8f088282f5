// /daily/<date>/<game>/: the challenge's live leaderboard. Every {"type": "leaderboard"}
// message from the websocket redraws table#leaderboard (rows tr[data-user]); the viewer's own
// entry is highlighted (.me), and shown below the table when it is not in the top 20.

import { api, socket } from "./api.js";
import { challengeActions } from "./daily_actions.js";
import { attemptResult, duration, durationWords, el, errorText, playerLink, say } from "./ui.js";

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
    el("th", { scope: "row", class: "player" }, playerLink(entry.user), isMe ? el("span", { class: "you" }, " (you)") : null),
    el("td", {}, attemptResult(entry, totalCards)),
    el("td", { class: "num" }, String(entry.moves)),
    el("td", { class: "num" }, el("span", { title: durationWords(entry.time_seconds) }, duration(entry.time_seconds))),
  );
}

function render(board) {
  const me = board.me || null;
  table.tBodies[0].replaceChildren(...board.results.map((entry) => row(entry, me)));
  empty.hidden = board.results.length > 0;
  count.textContent = `${board.count} ranked ${board.count === 1 ? "attempt" : "attempts"}`;
  const inTop = me !== null && board.results.some((entry) => entry.user === me.user);
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
}

async function loadActions() {
  try {
    const day = await api("GET", `/api/daily/?date=${date}`);
    const challenge = day.challenges.find((c) => c.variant === variant);
    if (!challenge) return;
    actions.replaceChildren(challengeActions(challenge, day, (text) => say(message, text, "error"), { ids: true }));
    if (!day.open && day.date < day.today) {
      actions.append(el("p", { class: "note" }, "This day has closed: the ranking is final."));
    }
  } catch (error) {
    say(message, errorText(error), "error");
  }
}

function setLive(state, text) {
  live.dataset.state = state;
  live.textContent = text;
}

async function start() {
  try {
    const variants = await api("GET", "/api/variants/");
    totalCards = 52 * (variants.find((v) => v.slug === variant)?.decks || 1);
  } catch {
    /* keep 52: only the "n/52 cards home" wording depends on it */
  }
  loadActions();
  socket(
    `/ws/leaderboards/daily/${date}/${variant}/`,
    (data) => {
      if (data?.type !== "leaderboard") return;
      setLive("live", "Live");
      render(data);
    },
    {
      onClose: (code) =>
        setLive("offline", code === 4404 ? "This leaderboard does not exist." : "Reconnecting…"),
    },
  );
}

start();
