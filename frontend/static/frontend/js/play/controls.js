// The bar above the table: the game's name and badges, the counts, and which buttons show.

import { dayName } from "../ui.js";
import { hasFoundations, hasStock, hintRefusal, noHints, noUndo, OUTCOMES, overWords, undoRefusal } from "./facts.js";
import { sayOnly } from "./messages.js";
import { $, boardStop, page } from "./page.js";

function badge(text, className, href) {
  const node = document.createElement(href ? "a" : "span");
  node.className = `badge ${className}`;
  node.textContent = text;
  if (href) node.href = href;
  return node;
}

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

/** Draw the header, the counts and the buttons for the game shown (but Finish: finish.js
 * showFinish, and the clock: clock.js tick). */
export function showControls() {
  const game = page.game;
  const variant = page.variant;
  const board = page.board;
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
  if (game.race) badges.push(badge("Race", "race", game.race.link));
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
  $("hint-stat").classList.toggle("keep-room", !noHints());
  // Ranked games have no undo and no hints at all, a race's game no hints and undo as its room
  // says: not shown, rather than shown and refused (the server would refuse them anyway).
  $("hint").hidden = noHints();
  $("hint").disabled = noHints() || over;
  $("undo").hidden = noUndo();
  $("help-undo-hint").hidden = noHints();
  // A race's game leads back to its room, where everyone's progress and the result show.
  $("race-room").hidden = !game.race;
  if (game.race) $("race-room").href = game.race.link;
  // Grounds for Divorce has no foundation: no double-tap home, no Finish.
  for (const part of document.querySelectorAll(".help-foundations")) part.hidden = !hasFoundations();
  // Selective Castle and Grandfather's Clock deal everything at once: no stock to tap, no D.
  for (const part of document.querySelectorAll(".help-stock")) part.hidden = !hasStock();
  // The server says whether it would take the last move back (any move of a casual game).
  $("undo").disabled = noUndo() || over || !game.can_undo;
  $("undo").title = game.can_undo || over ? "" : undoRefusal();
  $("resign").disabled = over;
  // At a dead end, End game takes Resign's place: the game is lost, not given up.
  $("resign").hidden = Boolean(game.dead_end);
  $("end-game").hidden = !game.dead_end;
  $("show-result").hidden = !over;
  // Result comes at the end of the bar, where Finish was (site.css gives both one width): in a
  // game with no foundation, where Finish never shows, Result keeps that room while in play.
  $("show-result").classList.toggle("keep-room", !over && !hasFoundations());
  // A button disabled under the focus (Undo once nothing can be undone, Resign once resigned)
  // drops it to the page's start: keep it on the table instead.
  if (focused instanceof HTMLButtonElement && (focused.disabled || focused.hidden)) boardStop()?.focus();
}

/** Why a greyed button of the bar does nothing, in words (the title says it to a mouse). */
function disabledReason(button) {
  if (!page.game) return null;
  if (button.id === "undo") return undoRefusal();
  if (button.id === "hint") return hintRefusal();
  if (button.id === "resign") return overWords();
  return button.title || null;
}

/** A tap on a disabled button of the bar says why it does nothing. */
export function explainDisabled(bar) {
  // A disabled button gets no click; a press on it still reaches the bar (pointer events).
  bar.addEventListener("pointerdown", (event) => {
    const button = event.target.closest?.("button");
    if (!button?.disabled) return;
    const why = disabledReason(button);
    if (why) sayOnly(why, "info", "action");
  });
}
