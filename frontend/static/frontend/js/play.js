// /play/<id>/: one game. The board is always the server's latest version of the game — from the
// answer to a move, or from the game's websocket (another tab or device) — never a guess.

import { api, canPlayAgain, pageAccount, playAgain, socket, startGame } from "./api.js";
import { fitFans, pileInSentence, renderBoard } from "./board.js";
import { SUITS, cardElement, rankName } from "./cards.js";
import { confirmBaseRank } from "./base_rank.js";
import { cappedWords, clockExplanation } from "./clock_words.js";
import { attachInput } from "./input.js";
import { createOutbox } from "./outbox.js";
import { cardsWords, moveSummary, undoSummary } from "./narration.js";
import { animateRedraw, dealIn, motionMs, nudge } from "./motion.js";
import { CHOICES, choiceOf, onSaveFailed, onSettings, saveSettings, savedToAccount, settings, valueOf } from "./settings.js";
import { playSound } from "./sound.js";
import { keepFocus } from "./roving.js";
import { newDealBody, setWinnableOnly, winnableOnly } from "./winnable.js";
import { copyLinkButton, dayName, dealLink, duration, headerSignedOut, liveText, serverNow } from "./ui.js";

const $ = (id) => document.getElementById(id);
const root = $("play");
const gameId = Number(root.dataset.gameId);
const board = $("board");
const message = $("message");

let game = null; // the version shown
let variant = null;
let queue = Promise.resolve(); // actions run one after another, each naming the version it saw
// The actions' writes, kept and sent again while the connection is lost (outbox.js); those
// waiting their turn are shown as pending meanwhile.
const outbox = createOutbox({ onChange: showPending });
// Bumped when a write kept offline is refused as stale (the game moved on elsewhere): the
// actions queued behind it were chosen on the board it was made on, and are dropped.
let queuedOn = 0;
let resultShownFor = null;
let hintTimer = null;
let signedOut = null; // the server's message once this page's sign-in has ended elsewhere
let finishing = null; // {sent, stopped, wake, notes} while Finish sends cards home one by one
let putBack = ""; // what the last redraw put back of the cards the player held, in words

const HINT_SHOWN_MS = 4000;
// Finish waits this long after each answer before the next move: the player sees each card go
// home, and the moves are never a "burst" to fair play (FAIR_PLAY_BURST_MS, 150 ms; pinned by
// tests/games/moderation/test_fair_play.py, which reads this line). Fair play's time check
// leaves a win's final run of moves to the foundations out, so a long Finish does not make a win
// look fast.
const FINISH_STEP_MS = 220;
// What the live indicator says when the game's websocket closes with the server's code.
// After 4401-4429 the socket does not reconnect (api.js), so none of them says "Reconnecting…".
const CLOSED_SAYS = {
  4401: "Signed out",
  4403: "Live updates refused: reload the page",
  4404: "This game is gone",
  4429: "Live updates stopped: reload the page",
  4430: "Too many live pages open: moves still save; retrying in a minute",
};

const OUTCOMES = { won: "You won", lost: "No moves left", resigned: "Resigned", closed: "Day closed" };
const NOTES = {
  run_removed: (e) => `A run of ${SUITS[e.suit]?.name ?? e.suit} went to the discard.`,
  base_rank_set: (e) => `The foundations start at ${rankName(e.rank)}.`,
  undone: () => "Move taken back.",
  day_closed: () => "The day closed at midnight UTC: your attempt stands as it was left.",
  // A casual game at a dead end stays in play (games/rules/RULINGS.md, "Dead ends").
  game_lost: () => (game?.dead_end ? "No moves left: Undo takes a move back, End game records the game as lost." : null),
};

// What #message says of the board as it stood goes once it no longer holds: a hint ("board")
// when the board changes (a move here or in another tab), a refusal ("action") then too, and
// when the player picks up or puts back a card, and "the server cannot be reached"
// ("connection") then too, and when the server sends the game again. Anything else stays until
// the next action.
let messageOutdatedBy = null;

// #message and #announce are live regions: liveText makes a repeated message heard again (the
// same refusal twice).
function say(text, kind = "error", until = null) {
  liveText(message, text || "");
  message.dataset.kind = kind;
  messageOutdatedBy = text ? until : null;
}

/** Clear #message if what it says no longer holds after `change` ("board" or "action"). */
function outdated(change) {
  if (CLEARED_BY[change].includes(messageOutdatedBy)) say("", "info");
}

// What each change makes outdated: a new board all of it; a new action a refusal or the server
// out of reach; the game arriving from the server again (a reconnection) the server out of reach.
const CLEARED_BY = {
  board: ["board", "action", "connection"],
  action: ["action", "connection"],
  connection: ["connection"],
};

/** This page's sign-in ended (signed out in another tab, a new password, a closed account):
 * say so with a way back, and send nothing more. Returns whether that is the case. */
function whenSignedOut() {
  if (!signedOut) return false;
  const link = document.createElement("a");
  link.id = "sign-in-again";
  link.href = `/signin/?next=${encodeURIComponent(window.location.pathname)}`;
  link.textContent = "Sign in again";
  link.addEventListener("click", signInAgain);
  announce("");
  liveText(message, `${signedOut} `, link);
  message.dataset.kind = "error";
  messageOutdatedBy = null;
  headerSignedOut();
  input.reset(); // put back a card picked up
  if (game) show(game, { force: true });
  return true;
}

const announce = (text) => liveText($("announce"), text);

/** "Sign in again": a player who has already signed back in as this page's account (in
 * another tab) gets the game back at once, not a second sign-in; anyone else goes to sign in
 * (where a browser signed in as another account says so). */
async function signInAgain(event) {
  event.preventDefault();
  const link = event.currentTarget;
  try {
    const me = await api("GET", "/api/auth/me/");
    if (me.username === pageAccount()) {
      window.location.reload();
      return;
    }
  } catch {
    // Signed out (or unreachable): to the sign-in page.
  }
  window.location.assign(link.href);
}

/** #message says `text` as what just happened, and #announce, which may still hold what an
 * earlier action did (a move, a pick-up), is emptied: a screen reader that reads it again must
 * not hear an old move, and #message, a live region itself, is not read twice. */
function sayOnly(text, kind = "error", until = kind === "error" ? "action" : null) {
  announce("");
  say(text, kind, until);
}

// The clock shows the game's time as the server counts it (games/core/clock.py): its figure at
// the last entry (game.clock.seconds), then the time since, at most the cap, less the time this
// page was hidden or not open (a casual game; sent as away_ms with the next move or undo, so the
// server's figure is the one shown). A ranked attempt's clock runs on while hidden: the server
// counts that time (up to the cap), whatever a page says.
let awaySince = null; // the last entry (ms) the time away is counted from
let awayMs = 0; // time away since then, but for the hidden spell under way
let hiddenAt = null; // when the page was hidden, while it is

/** The time since the last entry the game was out of sight: never shown, or hidden. */
function timeAway(now = serverNow()) {
  const since = Date.parse(game.clock.running_since);
  if (since !== awaySince) {
    // A new entry: time away counts afresh from it; before this page showed it, it was away.
    awayMs = awaySince === null ? Math.max(0, pageShownAt() - since) : 0;
    awaySince = since;
    if (document.hidden) hiddenAt = Math.max(now, since);
  }
  return awayMs + (hiddenAt === null ? 0 : Math.max(0, now - hiddenAt));
}
const loadedAt = performance.now();
/** When this page was opened, on the server's clock (its offset known once the server answered). */
const pageShownAt = () => serverNow() - (performance.now() - loadedAt);

function elapsed() {
  if (!game) return 0;
  const { seconds, running_since: since, cap_seconds: cap, counts_time_away: countsAway } = game.clock;
  if (game.status !== "playing" || !since) return seconds;
  const now = serverNow();
  const away = countsAway ? 0 : timeAway(now);
  return seconds + Math.min(Math.max(0, now - Date.parse(since) - away), cap * 1000) / 1000;
}

/** What a move or an undo tells the server of the time away (casual games only). */
const awayField = () => (game.clock.counts_time_away || !game.clock.running_since ? {} : { away_ms: Math.round(timeAway()) });

document.addEventListener("visibilitychange", () => {
  const now = serverNow();
  if (document.hidden) hiddenAt = now;
  else if (hiddenAt !== null) {
    awayMs += Math.max(0, now - hiddenAt);
    hiddenAt = null;
  }
  if (game) tick();
});

/** Whether the time since the last entry has reached the cap: the clock stands still then,
 * by the rule, and says so (once an entry). */
function atCap() {
  const { running_since: since, cap_seconds: cap, counts_time_away: countsAway } = game.clock;
  if (game.status !== "playing" || !since) return false;
  const now = serverNow();
  return now - Date.parse(since) - (countsAway ? 0 : timeAway(now)) >= cap * 1000;
}
let cappedSaidFor = null;

function tick() {
  const timer = $("timer");
  timer.textContent = duration(elapsed());
  timer.setAttribute("datetime", `PT${Math.max(0, Math.floor(elapsed()))}S`);
  timer.title = clockExplanation(game.clock);
  const capped = atCap();
  timer.toggleAttribute("data-capped", capped);
  if (capped && cappedSaidFor !== game.clock.running_since) {
    cappedSaidFor = game.clock.running_since;
    sayOnly(cappedWords(game.clock), "info", "board");
  }
}

function badge(text, className, href) {
  const node = document.createElement(href ? "a" : "span");
  node.className = `badge ${className}`;
  node.textContent = text;
  if (href) node.href = href;
  return node;
}

/** The pile the board's one Tab stop is on: where the focus goes when its control is gone. */
const boardStop = () => board.querySelector('.pile[tabindex="0"]');

// The header keeps room for what the game may still show: its outcome while it is in play, and
// its deal number while the server keeps it hidden (a random deal until it is over, a daily
// challenge until its day closes). Each comes in a place kept for it, as wide as the widest it
// may be, so the header never rewraps and the board never moves when a game ends. (Decided from
// the game as first shown, so that a badge keeps its place once it has come.)
const SEED_ROOM = "Deal #0000000000000000"; // the largest deal number (2**53 - 1) has 16 digits
const OUTCOME_ROOM = Object.values(OUTCOMES).reduce((a, b) => (b.length > a.length ? b : a));
let keptRoom = null;

/** The place kept for the badges still to come: as wide as `rooms` (the widest each may be) side
 * by side, invisible (site.css .badge-room: .room-ghost), holding those come (`held`) side by side
 * too, the spare room after them (or before them where the badges lie on the right), so that a
 * short deal number leaves no gap before the outcome. */
function badgeRoom(rooms, held) {
  const place = document.createElement("span");
  place.className = "badge-room";
  const ghost = document.createElement("span");
  ghost.className = "room-ghost";
  ghost.setAttribute("aria-hidden", "true");
  for (const room of rooms) {
    const one = document.createElement("span");
    one.textContent = room;
    ghost.append(one);
  }
  const come = document.createElement("span");
  come.className = "room-held";
  come.append(...held);
  place.append(ghost, come);
  return place;
}

function showControls() {
  const over = game.status !== "playing";
  const focused = document.activeElement;
  $("game-title").textContent = variant?.name ?? game.variant;
  document.title = `${variant?.name ?? "Game"} · Patience`;
  board.setAttribute("aria-label", `${variant?.name ?? "Card"} table`);
  $("rules-link").href = `/rules/${game.variant}/`;
  $("move-count").textContent = String(game.counts.moves);
  keptRoom ??= { outcome: !over, seed: game.seed === null || game.seed === undefined };
  const badges = [];
  if (game.daily) badges.push(badge(`Daily · ${dayName(game.daily)}`, "daily", `/daily/${game.daily}/${game.variant}/`));
  if (game.ranked) badges.push(badge("Ranked", "ranked"));
  // Dealt from the deals the solver has proven winnable: a coarse label the rules allow
  // (games/rules/RULINGS.md §Solutions and hints).
  if (game.winnable) badges.push(badge("Can be won", "winnable"));
  const seed = game.seed !== null && game.seed !== undefined ? badge(`Deal #${game.seed}`, "seed") : null;
  const outcome = over ? badge(OUTCOMES[game.status] ?? game.status, `status status-${game.status}`) : null;
  // Those whose place is kept come into the one room, the others are there from the start.
  const rooms = [];
  const held = [];
  for (const [node, keep, room] of [[seed, keptRoom.seed, SEED_ROOM], [outcome, keptRoom.outcome, OUTCOME_ROOM]]) {
    if (keep) rooms.push(room);
    if (node) (keep ? held : badges).push(node);
  }
  if (rooms.length) badges.push(badgeRoom(rooms, held));
  $("badges").replaceChildren(...badges);
  $("hint-count").textContent = String(game.counts.hints ?? 0);
  $("hint-stat").hidden = !game.counts.hints;
  // A casual game keeps the count's room until the first hint (a ranked one has none to count).
  $("hint-stat").classList.toggle("keep-room", !game.ranked);
  // Ranked games have no undo and no hints at all; the server would refuse them anyway.
  $("hint").hidden = game.ranked;
  $("hint").disabled = game.ranked || over;
  $("undo").hidden = game.ranked;
  $("help-undo-hint").hidden = game.ranked;
  // Grounds for Divorce has no foundation: no double-tap home, no Finish.
  for (const part of document.querySelectorAll(".help-foundations")) part.hidden = !hasFoundations();
  // Selective Castle and Grandfather's Clock deal everything at once: no stock to tap, no D.
  for (const part of document.querySelectorAll(".help-stock")) part.hidden = !hasStock();
  // The server says whether it would take the last move back (any move of a casual game).
  $("undo").disabled = game.ranked || over || !game.can_undo;
  $("undo").title = game.can_undo || over ? "" : undoRefusal();
  $("resign").disabled = over;
  // At a dead end, End game takes Resign's place: the game is lost, not given up.
  $("resign").hidden = Boolean(game.dead_end);
  $("end-game").hidden = !game.dead_end;
  $("show-result").hidden = !over;
  // Result comes at the end of the bar, where Finish was (site.css gives both one width): in a
  // game with no foundation, where Finish never shows, Result keeps that room while in play.
  $("show-result").classList.toggle("keep-room", !over && !hasFoundations());
  showFinish();
  tick();
  // A button disabled under the focus (Undo once nothing can be undone, Resign once resigned)
  // drops it to the page's start: keep it on the table instead.
  if (focused instanceof HTMLButtonElement && (focused.disabled || focused.hidden)) boardStop()?.focus();
}

function showResult() {
  // The figures are the server's (the representation's `result`, games/play/results.py): the
  // time as it records it, the best before this game, the streak, the day's rank.
  const result = game.result ?? null;
  const moves = result?.moves ?? game.counts.moves;
  const hints = result?.hints ?? game.counts.hints ?? 0;
  $("result-outcome").textContent = OUTCOMES[game.status] ?? game.status;
  $("result-outcome").dataset.status = game.status;
  $("result-moves").textContent = String(moves);
  $("result-time").textContent = duration(result ? result.time_seconds : elapsed());
  $("result-hints").textContent = hints ? `${hints} ${hints === 1 ? "hint" : "hints"}` : "None";
  showRecords(result);
  // The deal's number, once the server shows it, to share.
  $("result-seed").hidden = game.seed === null || game.seed === undefined;
  $("result-seed-text").textContent = `Deal number ${game.seed}: anyone can play this deal with it.`;
  $("result-again").hidden = !canPlayAgain(game);
  $("replay-link").href = `/replay/${game.id}/`;
  showDailyResult(result);
  // Closed by the service at midnight, not by a move here: say why the game is over.
  if (game.status === "closed") say(NOTES.day_closed(), "info");
  if (!$("result").open) $("result").showModal();
  celebrate(game.status === "won");
  if (game.status === "won") playSound("win");
}

/** The player's best at this game and the wins in a row, as the server counted them. */
function showRecords(result) {
  const won = game.status === "won" && result;
  $("result-records").hidden = !won;
  if (!won) return;
  const name = variant?.name ?? "this game";
  const best = $("result-best");
  const improved = [];
  if (result.beat_moves) improved.push(`fewest moves (was ${result.best_moves})`);
  if (result.beat_time) improved.push(`fastest time (was ${duration(result.best_time_seconds)})`);
  best.dataset.kind = result.first_win ? "first" : improved.length ? "new-best" : "best";
  if (result.first_win) best.textContent = `Your first win at ${name}!`;
  else if (improved.length) best.textContent = `New personal best: ${improved.join(" and ")}.`;
  else
    best.textContent = `Your best at ${name}: ${result.best_moves} moves, ${duration(result.best_time_seconds)}.`;
  const streak = $("result-streak");
  streak.dataset.streak = String(result.streak);
  streak.textContent =
    result.streak > 1
      ? `Winning streak: ${result.streak} wins in a row at ${name}.`
      : "Winning streak: 1 win. Win the next one to keep it going.";
}

/** A short celebration on a win: the cards of the foundations fall into a fan at the top of
 * the dialog, one after another, and bounce. It is drawn either way; it moves only when the
 * player's animation speed is on and the system asks for no reduced motion (motion.js). */
function celebrate(won) {
  const place = $("celebration");
  place.hidden = !won;
  place.replaceChildren();
  if (!won) return;
  const tops = Object.entries(game.state?.piles ?? {})
    .filter(([id]) => id.startsWith("foundation") || id.startsWith("discard"))
    .map(([, pile]) => pile.cards.at(-1))
    .filter(Boolean);
  const codes = [...new Set(tops)].slice(0, 8);
  while (codes.length < 4) codes.push(["AS", "AH", "AC", "AD"][codes.length]);
  const ms = motionMs();
  const middle = (codes.length - 1) / 2;
  codes.forEach((code, i) => {
    const card = cardElement(code);
    card.removeAttribute("role");
    card.removeAttribute("aria-label");
    const turn = (i - middle) * (64 / Math.max(1, codes.length - 1));
    card.style.setProperty("--turn", `${turn}deg`);
    card.style.setProperty("--drop", `${Math.abs(i - middle) * 2}px`);
    place.append(card);
    if (!ms) return;
    // From above the dialog, spinning, to its place in the fan; then a little hop in turn.
    const speed = ms / 230;
    card.animate(
      [
        { transform: `translate(${(i - middle) * 40}px, -260px) rotate(${turn * 6}deg)`, opacity: 0 },
        { opacity: 1, offset: 0.3 },
        { transform: `translateY(calc(var(--drop) + 6px)) rotate(var(--turn))`, offset: 0.8 },
        { transform: "translateY(var(--drop)) rotate(var(--turn))", opacity: 1 },
      ],
      { duration: 700 * speed, delay: i * 90 * speed, easing: "cubic-bezier(0.25, 0.8, 0.35, 1)", fill: "backwards" },
    );
    card.animate(
      [
        { transform: "translateY(var(--drop)) rotate(var(--turn))" },
        { transform: "translateY(calc(var(--drop) - 14px)) rotate(var(--turn))" },
        { transform: "translateY(var(--drop)) rotate(var(--turn))" },
      ],
      { duration: 360 * speed, delay: (700 + codes.length * 90 + i * 70) * speed, easing: "ease-in-out" },
    );
  });
}

/** A daily deal's result leads to its day's leaderboard (first among the actions, where a
 * casual game offers a new deal), and a ranked attempt says where it stands there (the rank
 * the server gave with the result). */
function showDailyResult(result) {
  const daily = Boolean(game.daily);
  $("result-board").hidden = !daily;
  $("result-new").classList.toggle("primary", !daily);
  const rank = result?.daily_rank;
  $("result-rank").hidden = !(daily && rank);
  if (!daily) return;
  $("result-board").href = `/daily/${game.daily}/${game.variant}/`;
  if (rank) $("result-rank").textContent = `Rank ${rank.rank} of ${rank.count} on the day's leaderboard so far.`;
}

/** Draw `next` unless an equal or newer version is already shown (`force`: redraw an equal
 * one, to put cards back after a refusal). A hint asked in another tab comes as the same
 * version with more hints: only the count changes. The cards the player holds stay held when
 * they still can be (input.js redrawn); #message says so when they had to be put back. */
function show(next, { force = false } = {}) {
  if (!next) return;
  if (game && next.move_number === game.move_number && !force) {
    if ((next.counts?.hints ?? 0) > (game.counts.hints ?? 0)) {
      game.counts.hints = next.counts.hints;
      showControls();
    }
    return;
  }
  if (game && next.move_number < game.move_number) return;
  if (game && next.move_number > game.move_number) outdated("board");
  game = next;
  // The cards slide from where they were (motion.js), after the answer: never before it.
  animateRedraw(board, () => keepFocus(board, () => renderBoard(board, game, variant)), { state: game.state });
  putBack = input.redrawn() ?? "";
  // #announce may still say the cards were picked up: it must not outlast them.
  if (putBack) sayOnly(putBack, "info");
  showControls();
  if (game.status !== "playing" && resultShownFor !== game.move_number) {
    resultShownFor = game.move_number;
    showResult();
  }
}

const noteText = (events) => (events ?? []).map((e) => NOTES[e.type]?.(e)).filter(Boolean).join(" ");

/** The notes of a move's effects, before what its redraw put back of the cards held meanwhile
 * (which the redraw said already: written again only together with notes, not read twice). */
function notes(events) {
  const text = noteText(events);
  if (text) say([text, putBack].filter(Boolean).join(" "), "info");
}

async function reload() {
  show(await api("GET", `/api/games/${gameId}/`), { force: true });
}

/** A refusal: the engine's message, the cards back where they were (or the game as it is now,
 * when another tab moved first). */
async function refused(error) {
  if (error.code === "stale_move_number" || error.code === "challenge_closed") {
    // Another tab or device moved first, or the day closed under the player (and the server
    // closed the attempt as it answered): show the game as it is now, then say why, once (the
    // redraw writes its own note first).
    await reload().catch(() => {});
    // The server's stale message tells a script to reload; the page has done so already.
    let stale = "The game moved on in another tab or device. The board now shows the latest position.";
    if (error.code === "stale_move_number" && error.wasHeld) {
      queuedOn += 1;
      stale = "While you were offline the game moved on in another tab or device, so the moves made meanwhile were not played. The board now shows the latest position.";
    }
    sayOnly(error.code === "stale_move_number" ? stale : error.message);
    return;
  }
  // The server out of reach, or failing behind its proxy: said until it sends the game again.
  const passing = error.status === 0 || error.status >= 500;
  sayOnly(error.message || "Something went wrong.", "error", passing ? "connection" : "action");
  if (game) show(game, { force: true });
}

/** Why an action cannot apply to the game as shown now, in words, or null when it can. The
 * page knows this from the game the server sent (its status, ranked, can_undo), so it says so
 * itself rather than send a request the server would refuse. */
const OVER_WORDS = { won: "you won it", lost: "no moves were left", resigned: "you resigned", closed: "its day closed" };
const overWords = () => `This game is over: ${OVER_WORDS[game.status] ?? game.status}.`;
const notOver = () => (game.status === "playing" ? null : overWords());

function undoRefusal() {
  if (game.ranked) return "Ranked games have no undo.";
  if (game.status !== "playing") return `${overWords()} No move can be taken back.`;
  if (game.can_undo) return null;
  return "No move to take back yet.";
}

function hintRefusal() {
  if (game.ranked) return "Ranked games have no hints.";
  if (game.status !== "playing") return `${overWords()} No more hints.`;
  return null;
}

/** Send an action about the version shown, after those before it; `refusal()` says why it
 * cannot apply to that version (checked when its turn comes), and then nothing is sent.
 * `body` may be a function of the game shown when its turn comes, giving null to send nothing.
 * `summary(fields, before, next)`: what the accepted action did, in words, for #announce (left
 * empty without one, so that it never keeps an older action's words). `quiet`: leave #message,
 * its notes and #announce to the caller (Finish). Resolves to true when the server accepted the
 * action, false when it was refused or not sent for a reason #message now gives, null when
 * `body` gave nothing to send. */
function act(path, body, refusal = notOver, { quiet = false, summary = null } = {}) {
  const done = outbox.add();
  const chosenOn = queuedOn;
  queue = queue.then(async () => {
    if (!game || whenSignedOut() || chosenOn !== queuedOn) return false;
    const before = game;
    const why = refusal();
    if (why) {
      input.reset(); // put back a card picked up
      show(game, { force: true });
      sayOnly(why);
      return false;
    }
    const fields = typeof body === "function" ? body(game) : body;
    if (!fields) return null;
    try {
      const timed = /\/(moves|undo)\/$/.test(path) ? awayField() : {};
      const sent = { ...fields, ...timed, expected_move_number: game.move_number };
      const next = await outbox.send(path, sent, { onRetry: reconnecting }).finally(reconnected);
      if (!quiet) say("", "info");
      show(next);
      playSound(fields.move?.type === "deal" ? "deal" : fields.move?.to?.startsWith("foundation:") ? "home" : "move");
      if (quiet) return true;
      notes(next.events);
      announce(summary ? summary(fields, before, next) : "");
      return true;
    } catch (error) {
      await refused(error);
      return false;
    }
  });
  queue = queue.finally(done);
  return queue;
}

let pendingShown = false;
/** While a write waits for the connection, the actions not yet sent are shown as pending
 * (#message, and #board's data-pending); once they have all gone, the page says so. */
function showPending({ waiting, held }) {
  if (held && waiting) {
    pendingShown = true;
    board.dataset.pending = String(waiting);
    const actions = waiting === 1 ? "1 move waits" : `${waiting} moves wait`;
    say(`Not sent yet: ${actions} for the connection, and will be sent as soon as it is back.`, "info");
    if (!navigator.onLine) live("offline", "Offline");
    return;
  }
  delete board.dataset.pending;
  if (pendingShown && !waiting) {
    pendingShown = false;
    if (!messageOutdatedBy && message.dataset.kind !== "error") say("Connection back: the moves kept meanwhile were sent.", "info", "board");
  }
}

function clearHint() {
  clearTimeout(hintTimer);
  for (const node of board.querySelectorAll(".hinted, .hinted-target")) node.classList.remove("hinted", "hinted-target");
}

/** "Move the Seven of spades from tableau pile 2 to foundation 1." in the page's own pile names
 * ("from the waste", "to the 12 o'clock foundation"). */
function hintText(move) {
  if (move.type === "deal") return "Hint: deal from the stock.";
  const cards = game.state.piles[move.from].cards;
  const from = pileInSentence(move.from, variant);
  const to = pileInSentence(move.to, variant);
  const said = `Hint: move ${cardsWords(cards.at(-move.count), move.count)} from ${from} to ${to}.`;
  // In a game whose first card home chooses every foundation's base rank (as the engine's hint says).
  const setsBaseRank = choosesBaseRank(game) && move.to.startsWith("foundation");
  if (!setsBaseRank) return said;
  const rank = rankName(cards.at(-1)[0]);
  return `${said} That makes ${rank} the base rank: its four cards lie nearest the top.`;
}

/** Mark the hinted cards and where they go, on the board as drawn now. */
function showHint(move) {
  clearHint();
  const pile = (id) => board.querySelector(`.pile[data-pile="${CSS.escape(id)}"]`);
  if (move.type === "deal") pile("stock")?.classList.add("hinted-target");
  else {
    const cards = [...(pile(move.from)?.querySelectorAll(":scope > .card") ?? [])].slice(-move.count);
    for (const card of cards) card.classList.add("hinted");
    pile(move.to)?.classList.add("hinted-target");
    nudge(cards, pile(move.to)); // the cards lean toward where they may go
  }
  hintTimer = setTimeout(clearHint, HINT_SHOWN_MS);
}

/** Ask the server for a move to try. It answers about the version shown, or refuses. */
function askHint() {
  queue = queue.then(async () => {
    if (!game || whenSignedOut()) return;
    const why = hintRefusal();
    if (why) return sayOnly(why, "info", "action");
    try {
      const path = `/api/games/${gameId}/hint/`;
      const answer = await api("POST", path, { expected_move_number: game.move_number }, retrying).finally(reconnected);
      if (answer.move_number !== game.move_number) return;
      game.counts.hints = answer.hints;
      showControls();
      if (!answer.move) return sayOnly(answer.message, "info", "board");
      showHint(answer.move);
      sayOnly(hintText(answer.move), "info", "board"); // #message is a live region: not in #announce too
    } catch (error) {
      await refused(error);
    }
  });
  return queue;
}

const moveSummaryOf = (fields, before, next) => moveSummary(fields.move, before, next, variant);
/** A move of the player's: sent, and then the automatic play's moves home (after it is taken).
 * A move that would set the base rank of every foundation asks first (base_rank.js). */
const playMove = async (move) => {
  if (!(await confirmBaseRank(move, game, variant))) return false;
  return act(`/api/games/${gameId}/moves/`, { move }, notOver, { summary: moveSummaryOf }).then((accepted) => {
    if (accepted) autoPlaySoon();
    return accepted;
  });
};
const undo = () => act(`/api/games/${gameId}/undo/`, {}, undoRefusal, { summary: (fields, before, next) => undoSummary(before, next, variant) });

// -- automatic play to the foundations (a setting) ----------------------------------------------

let autoTimer = 0;

/** The moves automatic play may send now, as the setting says: the safe ones the server lists
 * (safe_home_moves: the solver's safe rule, from what the player sees), or every card that can
 * go (as Finish). Never the move that chooses Selective Castle's base rank. */
function autoMoves(shown) {
  const mode = settings().autoplay;
  if (mode === "off" || !shown || shown.status !== "playing" || choosesBaseRank(shown)) return [];
  if (mode === "all") return homeMoves(shown);
  return shown.safe_home_moves ?? [];
}

/** After a move of the player's (never after an undo, which would send the card home again),
 * send the cards automatic play may send, one ordinary move at a time, each after the answer
 * to the one before is drawn and a pause (never a fair-play burst; the card's slide shown).
 * Each is chosen from the version shown when its turn comes. */
function autoPlaySoon() {
  clearTimeout(autoTimer);
  if (finishing || signedOut || !autoMoves(game).length) return offerFinish();
  autoTimer = setTimeout(async () => {
    if (finishing) return;
    const pick = (shown) => {
      const move = autoMoves(shown)[0];
      return move ? { move } : null;
    };
    const accepted = await act(`/api/games/${gameId}/moves/`, pick, notOver, { summary: moveSummaryOf });
    if (accepted) autoPlaySoon();
    else offerFinish();
  }, Math.max(FINISH_STEP_MS, motionMs()));
}

let offeredFor = null;
/** When every card left can only go home (finishes_home), offer Finish: the button stands out
 * and #message says so, once a game. */
function offerFinish() {
  const offer = Boolean(game?.finishes_home && game.status === "playing" && !finishing);
  $("finish").classList.toggle("offer", offer);
  if (offer && offeredFor !== game.id) {
    offeredFor = game.id;
    sayOnly("Every card left can go home: Finish sends them there.", "info", "board");
  }
}

// -- Finish: the cards that can go home, one move at a time ------------------------------------

const isFoundation = (id) => typeof id === "string" && id.startsWith("foundation:");
const hasFoundations = () => (variant?.piles ?? []).some((pile) => isFoundation(pile.id));
const hasStock = () => (variant?.piles ?? []).some((pile) => pile.id === "stock");
/** Where the first card home sets the base rank of every foundation (Selective Castle), that
 * choice is the player's ("a player-selected base rank", its rule document), so Finish never
 * makes it. */
const choosesBaseRank = (shown) =>
  Boolean(variant?.chooses_base_rank_on_first_foundation_move && shown && !shown.state?.base_rank);
/** The legal moves that put one more card on a foundation (Grandfather's Clock's dial piles
 * are foundations too), from the game's legal_moves: which cards may go is the engine's say.
 * None while a move home would choose the base rank. */
const homeMoves = (shown) =>
  choosesBaseRank(shown)
    ? []
    : (shown?.legal_moves ?? []).filter((m) => m.type === "move" && isFoundation(m.to) && !isFoundation(m.from));

const cardsWord = (n) => `${n} ${n === 1 ? "card" : "cards"}`;

/** The Finish button: shown while a card can go home in a game in play, "Stop" while running.
 * While the game is in play its place in the bar is kept when hidden (site.css .keep-room), so
 * the board never moves for it; once the game is over Result takes that place. */
function showFinish() {
  const button = $("finish");
  const running = Boolean(finishing);
  const hide = !running && (!game || game.status !== "playing" || !homeMoves(game).length);
  if (hide && document.activeElement === button) boardStop()?.focus();
  button.hidden = hide;
  // Gone once the game is over, and never kept in a game with no foundation (Grounds for
  // Divorce), where it never shows.
  button.classList.toggle("keep-room", game?.status === "playing" && hasFoundations());
  button.textContent = running ? "Stop" : "Finish";
  button.classList.toggle("offer", !running && Boolean(game?.finishes_home && game.status === "playing"));
  button.title = running ? "Stop sending cards to the foundations (F)" : "Send the cards that can go to the foundations (F)";
}

function stopFinishing() {
  if (!finishing || finishing.stopped) return;
  finishing.stopped = true;
  finishing.wake?.();
}

/** Wait `ms`, or less if the run is stopped meanwhile. */
function pause(run, ms) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    run.wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });
}

/** Send cards to the foundations for the player: a legal foundation move, its answer drawn, a
 * pause, and again, until none is left, the game ends, the server refuses, or the player does
 * anything else (stopFinishing). Deals are never made. Again while running: stop. */
async function finish() {
  if (finishing) return stopFinishing();
  await queue; // the version the player sees once what they sent before is answered
  if (!game || finishing || whenSignedOut()) return;
  if (game.status !== "playing") return sayOnly(overWords());
  if (choosesBaseRank(game)) return sayOnly("Choose the base rank first: put a card on a foundation yourself.", "info", "board");
  if (!homeMoves(game).length) return sayOnly("No card can go to a foundation now.", "info", "board");
  const run = { sent: 0, stopped: false, wake: null, notes: [], refused: false };
  finishing = run;
  putBack = "";
  showFinish();
  sayOnly("Sending cards to the foundations. Any key or click stops.", "info");
  // The move is chosen when its turn in the queue comes, from the version shown then (a newer
  // one from the websocket, when another tab moved meanwhile).
  const pick = (shown) => {
    const move = shown.status === "playing" ? homeMoves(shown)[0] : null;
    return move ? { move } : null;
  };
  while (!run.stopped) {
    const accepted = await act(`/api/games/${gameId}/moves/`, pick, () => null, { quiet: true });
    if (!accepted) {
      run.refused = accepted === false; // #message gives the server's reason then
      break;
    }
    run.sent += 1;
    const note = noteText(game.events);
    if (note) run.notes.push(note);
    if (game.status !== "playing" || run.stopped) break;
    await pause(run, FINISH_STEP_MS);
  }
  finishing = null;
  showFinish();
  const sent = run.sent ? `Sent ${cardsWord(run.sent)} to the foundations.` : "No card went to the foundations.";
  if (run.refused) announce(`Stopped. ${sent}`); // #message keeps the server's reason
  else say([...run.notes, run.stopped ? `Stopped. ${sent}` : sent, putBack].filter(Boolean).join(" "), "info");
}

// Anything else the player does stops Finish at once: a press anywhere, any key (but F and the
// button's own Enter or Space, which stop it themselves).
document.addEventListener(
  "pointerdown",
  (event) => {
    if (!event.target.closest?.("#finish")) stopFinishing();
  },
  true,
);
document.addEventListener(
  "keydown",
  (event) => {
    const plain = !event.altKey && !event.ctrlKey && !event.metaKey;
    if (plain && (event.key === "f" || event.key === "F")) return;
    if (event.target.closest?.("#finish") && (event.key === "Enter" || event.key === " ")) return;
    stopFinishing();
  },
  true,
);

const input = attachInput(board, {
  game: () => game,
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

/** Whether a move was ever made in the game (else it counts nowhere, and "New game" drops it). */
const touched = () => game.counts.moves > 0 || game.counts.undos > 0;

/** A new game of this game's kind: a new random deal, or (`again`) this game's deal again. From
 * a game in play with moves, only once the player says so (#new-game-dialog): it stays in their
 * games in progress. One where no move was made is abandoned (deleted: it counts nowhere), but
 * a ranked attempt, which the server would resign. A ranked attempt in play always asks, moves
 * or not, and says it stays open (#new-game-ranked): resumed from its daily page until the day
 * ends, its clock running meanwhile. */
async function newGame(button, { again = false, confirmed = false } = {}) {
  if (whenSignedOut()) return;
  const ranked = Boolean(game?.ranked && game.daily);
  // A game at a dead end is not kept: the server records it lost as the new one starts.
  if (game?.status === "playing" && (touched() || ranked) && !confirmed && !game.dead_end) {
    newGameButton = button;
    $("new-game-title").textContent = ranked ? "Leave your ranked attempt?" : "Start a new game?";
    $("new-game-casual").hidden = ranked;
    $("new-game-ranked").hidden = !ranked;
    if (ranked) $("new-game-daily-link").href = `/daily/${game.daily}/${game.variant}/`;
    $("confirm-new-game").textContent = ranked ? "New casual game" : "New game";
    $("new-game-dialog").showModal();
    return;
  }
  button.disabled = true;
  try {
    if (game?.status === "playing" && !touched() && !game.ranked) {
      await api("POST", `/api/games/${gameId}/abandon/`, { expected_move_number: game.move_number }).catch(() => null);
    }
    await (again ? playAgain(game) : startGame(newDealBody(game.variant)));
  } catch (error) {
    button.disabled = false;
    sayOnly(error.message);
  }
}

$("hint").addEventListener("click", askHint);
$("finish").addEventListener("click", finish);
$("undo").addEventListener("click", undo);
$("resign").addEventListener("click", () => $("resign-dialog").showModal());
$("end-game").addEventListener("click", () => act(`/api/games/${gameId}/end/`, {}));
$("resign-dialog").addEventListener("close", () => {
  if ($("resign-dialog").returnValue === "resign") act(`/api/games/${gameId}/resign/`, {});
});
let newGameButton = null;
$("new-game").addEventListener("click", (event) => newGame(event.currentTarget));
$("new-game-dialog").addEventListener("close", () => {
  if ($("new-game-dialog").returnValue === "new") newGame(newGameButton ?? $("new-game"), { confirmed: true });
});
$("result-new").addEventListener("click", (event) => newGame(event.currentTarget));
$("result-again").addEventListener("click", (event) => newGame(event.currentTarget, { again: true }));
$("show-result").addEventListener("click", showResult);
copyLinkButton($("copy-deal-link"), () => dealLink(game.variant, game.seed), $("deal-link"));
// The dialog gives the focus back to what had it, which may be gone by now.
$("result").addEventListener("close", () => {
  if (document.activeElement === document.body) boardStop()?.focus();
});

/** The card size keeps the table, the controls above it and the help line below it in the
 * window at the deal (site.css: --cw from the window's height less --chrome). What lies outside
 * the table (the header and controls above the felt, the felt's edge, the help line and the
 * page's margin below it) is measured rather than assumed: the help line takes two lines or
 * more as the window narrows, and none on a phone. Measured once the page is filled in and again
 * when the window changes size, never on a move, so the cards keep their size during a game. */
function fitChrome() {
  const table = board.querySelector(".tabletop");
  if (!table) return;
  const felt = board.getBoundingClientRect();
  const below = $("main").getBoundingClientRect().bottom - felt.bottom;
  const chrome = felt.top + window.scrollY + (felt.height - table.getBoundingClientRect().height) + below;
  board.style.setProperty("--page-chrome", `${Math.ceil(chrome)}px`);
  fitFans(board);
}

let resizeFrame = 0;
window.addEventListener("resize", () => {
  cancelAnimationFrame(resizeFrame);
  resizeFrame = requestAnimationFrame(fitChrome);
});

function live(state, text) {
  $("live").dataset.state = state;
  $("live").textContent = text;
  liveSaid = null;
}

// An action sent again while the server is out of reach for a moment (api.js onRetry) says
// "Reconnecting…" on the live indicator, and nothing more; what the indicator said before
// comes back once the action is answered, unless the socket has said something since.
let liveSaid = null;
function reconnecting() {
  const before = liveSaid ?? { state: $("live").dataset.state, text: $("live").textContent };
  live("closed", "Reconnecting…");
  liveSaid = before;
}
function reconnected() {
  if (liveSaid) live(liveSaid.state, liveSaid.text);
}
const retrying = { idempotent: true, onRetry: reconnecting };

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
      return await Promise.all([api("GET", `/api/games/${gameId}/`), api("GET", "/api/variants/")]);
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
    variant = variants.find((v) => v.slug === first.variant) ?? null;
    outdated("connection");
    show(first);
    fitChrome();
    // A new deal is dealt on the table before the player's eyes (not under reduced motion).
    if (first.move_number === 0 && first.status === "playing") dealIn(board);
  } catch (error) {
    say(error.message || "Could not load the game.");
    return;
  }
  setInterval(() => game?.status === "playing" && tick(), 1000);
  // ?since= the version shown: on a reconnection the server sends only what was missed.
  const updates = socket(
    () => `/ws/games/${gameId}/?since=${game.move_number}`,
    (data) => {
      if (["sync", "catch_up", "update"].includes(data.type)) {
        // "Live" once the server has sent the game: a socket it refuses (too many pages open)
        // opens too, only to be closed at once.
        live("open", "Live");
        if (data.type !== "update") {
          outdated("connection"); // (re)connected: the server is back
          outbox.wake(); // and the writes kept meanwhile go now
        }
        show(data.game);
      }
      if (data.type === "error" && data.code === "signed_out") {
        signedOut = data.message;
        whenSignedOut();
      }
    },
    {
      onClose: (code) => (navigator.onLine ? live("closed", CLOSED_SAYS[code] ?? "Reconnecting…") : live("offline", "Offline")),
    },
  );
  // The browser's word on the network: a socket may stay open while it is offline, and lose
  // what is sent meanwhile, so it is opened afresh once the browser is back online.
  window.addEventListener("offline", () => live("offline", "Offline"));
  window.addEventListener("online", () => {
    live("closed", "Reconnecting…");
    updates.reconnect();
  });
  if (!navigator.onLine) live("offline", "Offline");
}

// -- settings (settings.js): a small dialog, each choice saved and applied at once ----------------

const SETTING_LABELS = {
  speed: "Card animation",
  autoplay: "Automatic play to the foundations",
  sound: "Sounds",
  card_back: "Card backs",
  table: "Table colour",
  left_handed: "Phone layout",
};

function fillSettings() {
  const current = settings();
  const fields = Object.entries(CHOICES).map(([name, choices]) => {
    const set = document.createElement("fieldset");
    set.className = "setting";
    set.dataset.setting = name;
    const legend = document.createElement("legend");
    legend.textContent = SETTING_LABELS[name];
    set.append(legend);
    for (const [value, text] of Object.entries(choices)) {
      const label = document.createElement("label");
      const input = document.createElement("input");
      input.type = "radio";
      input.name = name;
      input.value = value;
      input.id = `setting-${name}-${value}`;
      input.checked = choiceOf(name, current[name]) === value;
      label.append(input, ` ${text}`);
      set.append(label);
    }
    return set;
  });
  $("settings-fields").replaceChildren(...fields);
  $("settings-where").textContent = savedToAccount()
    ? "Saved to your account: they follow you to any device you sign in on."
    : "Kept in this browser.";
}

// A choice the account could not save (signed out since, the server out of reach): it holds
// in this page, and the dialog says so.
onSaveFailed((error) => {
  $("settings-where").textContent = `Not saved to your account: ${error.message}`;
});

/** "Winnable deals only" (winnable.js), shown on "New game" and "New deal" while it is on. */
function showWinnableOnly() {
  const on = winnableOnly();
  for (const mark of document.querySelectorAll(".winnable-mark")) mark.hidden = !on;
  for (const id of ["new-game", "result-new"]) {
    $(id).title = on ? "A new deal proven winnable (Winnable deals only is on: Settings switches it off)" : "";
  }
  $("setting-winnable").checked = on;
}

$("setting-winnable").addEventListener("change", (event) => {
  setWinnableOnly(event.target.checked);
  showWinnableOnly();
});
onSettings(showWinnableOnly); // changed in another tab too
showWinnableOnly();

// "⚙ Settings" below the board; on a phone, where that line is not shown, the ⚙ by the counts.
for (const button of document.querySelectorAll(".open-settings")) {
  button.addEventListener("click", () => {
    fillSettings();
    $("settings-dialog").showModal();
  });
}
$("settings-form").addEventListener("change", (event) => {
  const input = event.target;
  if (input.type !== "radio") return;
  saveSettings({ [input.name]: valueOf(input.name, input.value) });
  if (input.name === "sound" && input.value === "on") playSound("move"); // heard at once
  if (input.name === "autoplay") autoPlaySoon();
});

// -- a tap on a disabled button says why ----------------------------------------------------------

/** Why a greyed button of the bar does nothing, in words (the title says it to a mouse). */
function disabledReason(button) {
  if (!game) return null;
  if (button.id === "undo") return undoRefusal();
  if (button.id === "hint") return hintRefusal();
  if (button.id === "resign") return overWords();
  return button.title || null;
}

// A disabled button gets no click; a press on it still reaches the bar (pointer events).
document.querySelector(".play-actions").addEventListener("pointerdown", (event) => {
  const button = event.target.closest?.("button");
  if (!button?.disabled) return;
  const why = disabledReason(button);
  if (why) sayOnly(why, "info", "action");
});

start();
