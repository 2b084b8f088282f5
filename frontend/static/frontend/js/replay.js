// /replay/<id>/: step through a game's history. Step N is the board after N history entries
// (GET /api/games/<id>/replay/?step=N), drawn by board.js; the entry that led to it is shown
// in words. Controls #first #back #play #forward #last, #step, keys Left/Right/Home/End/Space;
// the board is one tab stop (roving.js) where the arrows, Home and End move between piles
// instead, and Page Up/Page Down step.
//
// /daily/<date>/<game>/solution/ (data-solution-date): the same page steps through the
// solver's winning line of a closed day's deal instead, from the deal to the win
// (GET /api/daily/<date>/<game>/solution/, and ?step=N for each board, every card shown).

import { api, canPlayAgain, playAgain } from "./api.js";
import { fitFans, renderBoard } from "./board.js";
import { startAnalysis } from "./analysis.js";
import { animateRedraw } from "./motion.js";
import { attachReplayKeys } from "./replay_keys.js";
import { keepFocus } from "./roving.js";
import { copyLinkButton, dealLink, el, errorText, gameName, plural, say, statusWord, when } from "./ui.js";

const AUTO_STEP_MS = 800;

const root = document.getElementById("replay-page");
const gameId = root.dataset.gameId;
const solutionDate = root.dataset.solutionDate; // set in the solution mode only
const solutionUrl = solutionDate ? `/api/daily/${solutionDate}/${root.dataset.variant}/solution/` : null;
const boardBox = document.getElementById("board");
const stepLine = document.getElementById("step");
const entryLine = document.getElementById("step-entry");
const scrubber = document.getElementById("scrubber");
const historyList = document.getElementById("history-list");
const message = document.getElementById("replay-message");
const playDeal = document.getElementById("play-deal");
const buttons = Object.fromEntries(
  ["first", "back", "play", "forward", "last"].map((id) => [id, document.getElementById(id)]),
);

let game = null;
let variant = null;
let entries = [];
let last = 0;
let current = 0;
let timer = null;
const states = new Map(); // step → Promise of the state
// The game's history, or (analysis.js) the solver's line from the last winnable position.
let stepUrl = (step) => (solutionUrl ? `${solutionUrl}?step=${step}` : `/api/games/${gameId}/replay/?step=${step}`);
let readState = (answer) => answer.state;
let lineMode = null; // the analysis's result while its line is shown
let gameEntries = [];
let losingStep = null; // the game's move that lost the deal (analysis.js)

// -- the history in words ----------------------------------------------------------------

// Each entry comes with its words from the server (`said`, written by games/rules/describe.py
// for a move and games/core/history.py for an undo or an ending: the cards named, as a player
// says them), for a game's history and a solution's line alike.
const describe = (entry) => entry.said ?? entry.move.type;

// -- loading steps -------------------------------------------------------------------------

function stateAt(step) {
  if (!states.has(step)) {
    const request = api("GET", stepUrl(step)).then(readState);
    request.catch(() => states.delete(step));
    states.set(step, request);
  }
  return states.get(step);
}

function boardGame(state, step) {
  return {
    ...game,
    state,
    move_number: step,
    status: step === last ? (lineMode ? "won" : game.status) : "playing",
    legal_moves: [],
  };
}

// -- drawing -------------------------------------------------------------------------------

function updateControls() {
  buttons.first.disabled = buttons.back.disabled = current === 0;
  buttons.forward.disabled = buttons.last.disabled = current === last;
  buttons.play.disabled = last === 0;
  const playing = timer !== null;
  // The label names the button (on phones it is visually hidden beside the play/pause icon).
  buttons.play.querySelector(".label").textContent = playing ? "Pause" : "Play";
  buttons.play.setAttribute("aria-pressed", String(playing));
  stepLine.textContent = `Step ${current} of ${last}`;
  scrubber.value = String(current);
  scrubber.setAttribute("aria-valuetext", `Step ${current} of ${last}`);
  for (const item of historyList.children) {
    const on = Number(item.dataset.step) === current;
    item.classList.toggle("current", on);
    item.classList.toggle("losing", !lineMode && Number(item.dataset.step) === losingStep);
    item.querySelector("button")?.setAttribute("aria-current", on ? "step" : "false");
  }
}

async function goTo(step) {
  current = Math.max(0, Math.min(last, step));
  const target = current;
  updateControls();
  try {
    const state = await stateAt(target);
    if (target !== current) return; // the player has moved on
    const reveal = game.status !== "playing";
    // The focused pile keeps the focus from step to step (a screen reader reads it again).
    const drawn = boardGame(state, target);
    animateRedraw(boardBox, () => keepFocus(boardBox, () => renderBoard(boardBox, drawn, variant, { reveal })), { state: drawn.state });
    markMove(target === 0 ? null : entries[target - 1]);
    const losing = !lineMode && target !== 0 && target === losingStep;
    boardBox.classList.toggle("losing-step", losing);
    entryLine.textContent = entryWords(target) + (losing ? " — this move lost the deal" : "");
    say(message, "");
    // Fetch the next steps ahead, so stepping and playing stay smooth.
    for (const ahead of [target + 1, target + 2]) if (ahead <= last) stateAt(ahead).catch(() => {});
  } catch (error) {
    if (target === current) {
      stop();
      say(message, errorText(error), "error");
    }
  }
}

function entryWords(step) {
  if (lineMode) {
    const from = lineMode.line_from.step;
    const start = from === 0 ? "The deal" : `Your game after move ${from}, the last position that could be won`;
    return step === 0 ? start : `Solver's move ${step}: ${describe(entries[step - 1])}`;
  }
  return step === 0 ? "The deal" : `Move ${step}: ${describe(entries[step - 1])}`;
}

/** analysis.js's hooks: the losing move marked; the solver's line or the game on the board. */
const analysisPage = {
  markLosing(step) {
    losingStep = step ?? null;
    fillHistory();
    goTo(losingStep ?? current);
  },
  showLine(result) {
    lineMode = result;
    stepUrl = (step) => `/api/games/${gameId}/analysis/?step=${step}`;
    readState = (answer) => answer.board;
    showSteps(result.line.map((move, i) => ({ move, events: [], said: result.said[i] })), 0);
  },
  showGame(step) {
    lineMode = null;
    stepUrl = (s) => `/api/games/${gameId}/replay/?step=${s}`;
    readState = (answer) => answer.state;
    showSteps(gameEntries, step);
  },
};

function showSteps(list, step) {
  stop();
  states.clear();
  entries = list;
  last = list.length;
  scrubber.max = String(last);
  scrubber.disabled = last === 0;
  root.dataset.showing = lineMode ? "solver-line" : "game";
  historyList.closest("details").querySelector("summary").textContent = lineMode
    ? "Every move of the solver's line"
    : "Every move";
  fillHistory();
  goTo(step);
}

/** On the board, the step's move: the card (or cards) that moved and its two piles. */
function markMove(entry) {
  const move = entry?.move;
  if (move?.type !== "move") return;
  const from = boardBox.querySelector(`.pile[data-pile="${CSS.escape(move.from)}"]`);
  const to = boardBox.querySelector(`.pile[data-pile="${CSS.escape(move.to)}"]`);
  from?.classList.add("replay-from");
  to?.classList.add("replay-to");
  const count = entry.cards?.length || move.count || 1;
  const landed = to ? [...to.querySelectorAll(".card")].slice(-count) : [];
  for (const card of landed) card.classList.add("replay-moved");
}

// -- playing -------------------------------------------------------------------------------

function stop() {
  clearInterval(timer);
  timer = null;
  updateControls();
}

function play() {
  if (current === last) goTo(0);
  timer = setInterval(() => {
    if (current >= last) stop();
    else goTo(current + 1);
  }, AUTO_STEP_MS);
  updateControls();
}

const toggle = () => (timer === null ? play() : stop());
const step = (to) => {
  stop();
  goTo(to);
};

buttons.first.addEventListener("click", () => step(0));
buttons.back.addEventListener("click", () => step(current - 1));
buttons.forward.addEventListener("click", () => step(current + 1));
buttons.last.addEventListener("click", () => step(last));
buttons.play.addEventListener("click", toggle);
scrubber.addEventListener("input", () => step(Number(scrubber.value)));

attachReplayKeys({
  boardBox,
  scrubber,
  ready: () => game !== null,
  step,
  toggle,
  at: () => current,
  end: () => last,
});

// -- start ---------------------------------------------------------------------------------

function fillHistory() {
  historyList.replaceChildren(
    ...entries.map((entry, index) =>
      el(
        "li",
        { dataset: { step: index + 1 } },
        el(
          "button",
          { type: "button", class: "link-button", onclick: () => step(index + 1) },
          describe(entry),
        ),
        !lineMode && index + 1 === losingStep ? el("strong", { class: "losing-note" }, " — lost the deal") : null,
      ),
    ),
  );
}

/** The solution mode: the line's moves as the entries, on a "game" that is the won deal. */
async function loadSolution() {
  const [solution, variants] = await Promise.all([api("GET", solutionUrl), api("GET", "/api/variants/")]);
  game = {
    variant: solution.variant,
    seed: solution.seed,
    daily: solution.date,
    status: "won",
    move_number: solution.length,
  };
  variant = variants.find((v) => v.slug === game.variant);
  entries = solution.moves.map((move, i) => ({ move, events: [], said: solution.said[i] }));
  last = solution.length;
  document.title = `How ${gameName(game.variant)} of ${solution.date} could be won · Patience`;
  document.getElementById("replay-summary").textContent =
    `A way to win in ${plural(last, "move")}, found by our solver. Every card is shown.`;
  showDeal();
  scrubber.max = String(last);
  scrubber.disabled = last === 0;
  fillHistory();
  fitHeader();
  await goTo(0);
}

async function start() {
  if (solutionUrl) {
    try {
      await loadSolution();
    } catch (error) {
      stepLine.textContent = "";
      if (["no_challenge", "no_solution", "not_yet"].includes(error.code)) {
        // Said plainly, without step controls, a board or a move list that would do nothing.
        document.getElementById("replay-summary").textContent = errorText(error);
        root.dataset.noLine = "true";
      } else {
        say(message, errorText(error), "error");
      }
    }
    return;
  }
  try {
    const [loaded, variants, history] = await Promise.all([
      api("GET", `/api/games/${gameId}/`),
      api("GET", "/api/variants/"),
      api("GET", `/api/games/${gameId}/moves/`),
    ]);
    game = loaded;
    variant = variants.find((v) => v.slug === game.variant);
    entries = gameEntries = history;
    last = game.move_number;
    document.getElementById("replay-game").textContent = gameName(game.variant);
    document.title = `Replay: ${gameName(game.variant)} · Patience`;
    const finished = game.finished_at ? `, finished ${when(game.finished_at)}` : "";
    document.getElementById("replay-summary").textContent =
      `${statusWord(game.status)} · ${plural(last, "step")} · started ${when(game.created_at)}${finished}`;
    showDeal();
    scrubber.max = String(last);
    scrubber.disabled = last === 0;
    fillHistory();
    fitHeader();
    // The analysis's box (above the controls) settles before the first step shows, so that the
    // controls do not move under a finger once the page reads "Step 0 of N"; a done analysis
    // opens on the move that lost the deal (its markLosing).
    if (game.status !== "playing") await startAnalysis(gameId, analysisPage);
    await goTo(losingStep ?? 0);
  } catch (error) {
    say(message, errorText(error), "error");
    stepLine.textContent = "";
  }
}

/** Once the game is over, the deal's number if the server shows it (a random deal, a daily
 * challenge once its day has closed), and a way to play the same cards in a new game. */
function showDeal() {
  if (!canPlayAgain(game)) return;
  const known = game.seed !== null && game.seed !== undefined;
  document.getElementById("replay-seed").textContent = known ? String(game.seed) : "";
  document.getElementById("replay-number").hidden = !known;
  document.getElementById("replay-deal").hidden = false;
}

copyLinkButton(
  document.getElementById("copy-deal-link"),
  () => dealLink(game.variant, game.seed),
  document.getElementById("deal-link"),
);

playDeal.addEventListener("click", async () => {
  playDeal.disabled = true;
  try {
    await playAgain(game);
  } catch (error) {
    playDeal.disabled = false;
    say(message, errorText(error), "error");
  }
});

/** The replay's header (title, summary, controls, the step's entry) is taller than the play
 * page's: tell the card-size formula (pages.css, --board-top) where the board starts, so the
 * board fits the window at the deal as the play page's does. Measured once the header is
 * filled in and again when the window changes size, not at every step (a long entry that wraps
 * would otherwise resize the cards from step to step). */
function fitHeader() {
  const top = boardBox.getBoundingClientRect().top + window.scrollY;
  boardBox.style.setProperty("--board-top", `${Math.round(top)}px`);
}

let resizeFrame = 0;
window.addEventListener("resize", () => {
  cancelAnimationFrame(resizeFrame);
  resizeFrame = requestAnimationFrame(() => {
    fitHeader();
    fitFans(boardBox);
  });
});

start();
