// What the page says: #message (what just happened, a refusal, a hint) and #announce (what an
// action did, for screen readers). Both are live regions: liveText makes a repeated message
// heard again (the same refusal twice).

import { rankName, SUITS } from "../cards.js";
import { liveText } from "../ui.js";
import { $, page } from "./page.js";

const message = $("message");

// What #message says of the board as it stood goes once it no longer holds: a hint ("board")
// when the board changes (a move here or in another tab), a refusal ("action") then too, and
// when the player picks up or puts back a card, and "the server cannot be reached"
// ("connection") then too, and when the server sends the game again. Anything else stays until
// the next action.
let messageOutdatedBy = null;

// What each change makes outdated: a new board all of it; a new action a refusal or the server
// out of reach; the game arriving from the server again (a reconnection) the server out of reach.
const CLEARED_BY = {
  board: ["board", "action", "connection"],
  action: ["action", "connection"],
  connection: ["connection"],
};

/** #message says `text`, of `kind` ("error" or "info"), until `until` makes it outdated. */
export function say(text, kind = "error", until = null) {
  liveText(message, text || "");
  message.dataset.kind = kind;
  messageOutdatedBy = text ? until : null;
}

/** #message says `content` (text and nodes, e.g. a link), as an error that stays. */
export function sayWith(...content) {
  liveText(message, ...content);
  message.dataset.kind = "error";
  messageOutdatedBy = null;
}

/** Clear #message if what it says no longer holds after `change` ("board", "action" or
 * "connection"). */
export function outdated(change) {
  if (CLEARED_BY[change].includes(messageOutdatedBy)) say("", "info");
}

/** Whether #message says nothing that must stay: no error, nothing to clear on a change. */
export const messageIsCalm = () => !messageOutdatedBy && message.dataset.kind !== "error";

export const announce = (text) => liveText($("announce"), text);

/** #message says `text` as what just happened, and #announce, which may still hold what an
 * earlier action did (a move, a pick-up), is emptied: a screen reader that reads it again must
 * not hear an old move, and #message, a live region itself, is not read twice. */
export function sayOnly(text, kind = "error", until = kind === "error" ? "action" : null) {
  announce("");
  say(text, kind, until);
}

export const NOTES = {
  run_removed: (e) => `A run of ${SUITS[e.suit]?.name ?? e.suit} went to the discard.`,
  base_rank_set: (e) => `The foundations start at ${rankName(e.rank)}.`,
  undone: () => "Move taken back.",
  day_closed: () => "The day closed at midnight UTC: your attempt stands as it was left.",
  // A casual game at a dead end stays in play (games/rules/RULINGS.md, "Dead ends").
  game_lost: () => (page.game?.dead_end ? "No moves left: Undo takes a move back, End game records the game as lost." : null),
};

/** What a move's effects (its events) were, in words. */
export const noteText = (events) => (events ?? []).map((e) => NOTES[e.type]?.(e)).filter(Boolean).join(" ");
