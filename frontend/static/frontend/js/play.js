// /play/<id>/: one game. The board is always the server's latest version of the game — from the
// answer to a move, or from the game's websocket (another tab or device) — never a guess.
//
// This module puts the page together; each part has its own module in play/: page.js (the game
// shown), messages.js (#message, #announce), clock.js, controls.js (the bar), result.js (the
// result dialog), actions.js (the action queue and its outbox), hints.js, finish.js (automatic
// play and Finish), live.js (the websocket and the live indicator), socket_writes.js (the
// writes sent on that websocket, REST when it is down), settings_dialog.js,
// new_game.js, signed_out.js, fit.js (the card size), menu.js (a phone's ☰ menu), race.js (a
// race's game: the race live above the table).

import { api } from "./api.js";
import { renderBoard } from "./board.js";
import { confirmBaseRank } from "./base_rank.js";
import { attachInput } from "./input.js";
import { undoSummary } from "./narration.js";
import { animateRedraw, dealIn } from "./motion.js";
import { keepFocus } from "./roving.js";
import { copyLinkButton, dealLink } from "./ui.js";
import { createActions } from "./play/actions.js";
import { startClock, tick } from "./play/clock.js";
import { explainDisabled, showControls } from "./play/controls.js";
import { notOver, overWords, undoRefusal } from "./play/facts.js";
import { createFinish, moveSummaryOf } from "./play/finish.js";
import { fitChrome } from "./play/fit.js";
import { createHints } from "./play/hints.js";
import { attachMenu } from "./play/menu.js";
import { openLive } from "./play/live.js";
import { announce, outdated, say, sayOnly } from "./play/messages.js";
import { attachNewGame } from "./play/new_game.js";
import { $, boardStop, page } from "./play/page.js";
import { showRaceStrip } from "./play/race.js";
import { raceAFriend, showResult } from "./play/result.js";
import { attachSettingsDialog } from "./play/settings_dialog.js";
import { createSignedOut } from "./play/signed_out.js";
import { createSocketWrites } from "./play/socket_writes.js";

const board = page.board;
const gamePath = `/api/games/${page.gameId}`;
let resultShownFor = null;

const whenSignedOut = createSignedOut({ reset: () => input.reset(), redraw: () => show(page.game, { force: true }) });
// The actions' writes go on the game's websocket while it is up, else over REST.
const writes = createSocketWrites();
const actions = createActions({ show, reset: () => input.reset(), whenSignedOut, post: writes.post });
const { act } = actions;
const { finish, autoPlaySoon, showFinish } = createFinish({ act, idle: actions.idle, whenSignedOut });

/** The bar as the game shown says: the header, the counts, the buttons, Finish, the clock. */
function drawControls() {
  showControls();
  showFinish();
  tick();
}

const { askHint } = createHints({ enqueue: actions.enqueue, refused: actions.refused, drawControls, whenSignedOut });

/** Draw `next` unless an equal or newer version is already shown (`force`: redraw an equal
 * one, to put cards back after a refusal). A hint asked in another tab comes as the same
 * version with more hints: only the count changes. The cards the player holds stay held when
 * they still can be (input.js redrawn); #message says so when they had to be put back. */
function show(next, { force = false } = {}) {
  if (!next) return;
  const game = page.game;
  if (game && next.move_number === game.move_number && !force) {
    if ((next.counts?.hints ?? 0) > (game.counts.hints ?? 0)) {
      game.counts.hints = next.counts.hints;
      drawControls();
    }
    return;
  }
  if (game && next.move_number < game.move_number) return;
  if (game && next.move_number > game.move_number) outdated("board");
  page.game = next;
  // The cards slide from where they were (motion.js), after the answer: never before it.
  animateRedraw(board, () => keepFocus(board, () => renderBoard(board, next, page.variant)), { state: next.state });
  page.putBack = input.redrawn() ?? "";
  // #announce may still say the cards were picked up: it must not outlast them.
  if (page.putBack) sayOnly(page.putBack, "info");
  drawControls();
  if (next.status !== "playing" && resultShownFor !== next.move_number) {
    resultShownFor = next.move_number;
    showResult();
  }
}

/** A move of the player's: sent, and then the automatic play's moves home (after it is taken).
 * A move that would set the base rank of every foundation asks first (base_rank.js). */
const playMove = async (move) => {
  if (!(await confirmBaseRank(move, page.game, page.variant))) return false;
  return act(`${gamePath}/moves/`, { move }, notOver, { summary: moveSummaryOf }).then((accepted) => {
    if (accepted) autoPlaySoon();
    return accepted;
  });
};
const undo = () =>
  act(`${gamePath}/undo/`, {}, undoRefusal, { summary: (fields, before, next) => undoSummary(before, next, page.variant) });

const input = attachInput(board, {
  game: () => page.game,
  move: playMove,
  deal: () => playMove({ type: "deal" }),
  undo,
  hint: askHint,
  finish,
  ended: () => sayOnly(overWords()),
  say: sayOnly,
  // A pick-up or a put-back is a new action: a refusal of the one before no longer applies.
  announce: (text) => {
    outdated("action");
    announce(text);
  },
});

$("hint").addEventListener("click", askHint);
$("finish").addEventListener("click", finish);
$("undo").addEventListener("click", undo);
$("resign").addEventListener("click", () => $("resign-dialog").showModal());
$("end-game").addEventListener("click", () => act(`${gamePath}/end/`, {}));
$("resign-dialog").addEventListener("close", () => {
  if ($("resign-dialog").returnValue === "resign") act(`${gamePath}/resign/`, {});
});
attachNewGame({ whenSignedOut });
$("show-result").addEventListener("click", showResult);
$("result-race-friend").addEventListener("click", raceAFriend);
copyLinkButton($("copy-deal-link"), () => dealLink(page.game.variant, page.game.seed), $("deal-link"));
// The dialog gives the focus back to what had it, which may be gone by now.
$("result").addEventListener("close", () => {
  if (document.activeElement === document.body) boardStop()?.focus();
});
attachSettingsDialog({ onAutoplay: autoPlaySoon });
explainDisabled(document.querySelector(".play-actions"));
attachMenu($("menu-button"), $("play-menu"));

/** Wait `ms`, or until the browser says it is online again. */
function retryAfter(ms) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    window.addEventListener("online", () => resolve(clearTimeout(timer)), { once: true });
  });
}

/** The game and the games' layouts. While the server cannot be reached or fails (a blip, a
 * restart), it is asked again, 1 s later and then up to every 30 s; a refusal (no such game,
 * signed out) is final. */
async function load() {
  for (let wait = 1000; ; wait = Math.min(wait * 2, 30000)) {
    try {
      return await Promise.all([api("GET", `${gamePath}/`), api("GET", "/api/variants/")]);
    } catch (error) {
      if (error.status !== 0 && error.status < 500) throw error;
      say("Could not load the game: the server cannot be reached. Trying again…", "error", "connection");
      await retryAfter(wait);
    }
  }
}

async function start() {
  try {
    const [first, variants] = await load();
    page.variant = variants.find((v) => v.slug === first.variant) ?? null;
    outdated("connection");
    show(first);
    // A race's game: the race's line above the table, there before the table is measured.
    showRaceStrip(first);
    fitChrome();
    // A new deal is dealt on the table before the player's eyes (not under reduced motion).
    if (first.move_number === 0 && first.status === "playing") dealIn(board);
  } catch (error) {
    say(error.message || "Could not load the game.");
    return;
  }
  startClock();
  openLive({
    // ?since= the version shown: on a reconnection the server sends only what was missed.
    path: () => `/ws/games/${page.gameId}/?since=${page.game.move_number}`,
    onGame: show,
    onBack: actions.wake,
    writes,
    onSignedOut: (message) => {
      page.signedOut = message;
      whenSignedOut();
    },
  });
}

start();
