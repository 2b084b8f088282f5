// "2 of 5 dailies today" (the header's, and the lobby's): drawn by the server with the page
// (base.html), then kept true without a reload: asked again (/api/me/dailies-today/) when the
// page is shown again (a daily finished in another tab), when a game on this page ends (the
// board's data-status leaves "playing"), and at midnight UTC, when a new day's five open.

import { api } from "./api.js";
import { serverNow } from "./ui.js";

const shown = () => document.querySelectorAll("[data-dailies-today]");

function draw(today) {
  for (const node of shown()) {
    node.dataset.played = today.played;
    node.dataset.of = today.of;
    node.querySelector(".dailies-count").textContent = `${today.played} of ${today.of}`;
    const short = node.querySelector(".dailies-short"); // the header's, on a phone
    if (short) short.textContent = `${today.played}/${today.of}`;
  }
}

let asking = null;
function refresh() {
  asking ??= api("GET", "/api/me/dailies-today/")
    .then(draw)
    .catch(() => {}) // the figure stays as it was: nothing here is worth an error message
    .finally(() => {
      asking = null;
    });
}

function atMidnight() {
  const now = serverNow();
  const next = Math.ceil((now + 1) / 86_400_000) * 86_400_000;
  setTimeout(() => {
    refresh();
    atMidnight();
  }, next - now + 2000);
}

if (shown().length) {
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refresh();
  });
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) refresh();
  });
  const board = document.getElementById("board");
  if (board) {
    let status = board.dataset.status;
    new MutationObserver(() => {
      const now = board.dataset.status;
      if (status === "playing" && now && now !== "playing") refresh();
      status = now;
    }).observe(board, { attributes: true, attributeFilter: ["data-status"] });
  }
  atMidnight();
}
