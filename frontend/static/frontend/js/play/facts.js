// What the game as shown (page.game) and its variant say, for the page's words and buttons. No
// game rule is decided here: which cards may go where is the engine's (legal_moves).

import { page } from "./page.js";

export const OUTCOMES = { won: "You won", lost: "No moves left", resigned: "Resigned", closed: "Day closed" };

export const isFoundation = (id) => typeof id === "string" && id.startsWith("foundation:");
export const hasFoundations = () => (page.variant?.piles ?? []).some((pile) => isFoundation(pile.id));
export const hasStock = () => (page.variant?.piles ?? []).some((pile) => pile.id === "stock");
/** Where the first card home sets the base rank of every foundation (Selective Castle), that
 * choice is the player's ("a player-selected base rank", its rule document), so Finish never
 * makes it. */
export const choosesBaseRank = (shown) =>
  Boolean(page.variant?.chooses_base_rank_on_first_foundation_move && shown && !shown.state?.base_rank);
/** The legal moves that put one more card on a foundation (Grandfather's Clock's dial piles
 * are foundations too), from the game's legal_moves: which cards may go is the engine's say.
 * None while a move home would choose the base rank. */
export const homeMoves = (shown) =>
  choosesBaseRank(shown)
    ? []
    : (shown?.legal_moves ?? []).filter((m) => m.type === "move" && isFoundation(m.to) && !isFoundation(m.from));

/** Whether a move was ever made in the game (else it counts nowhere, and "New game" drops it). */
/** A race's game (its answer's `race`): no hints, undo as its room says. */
export const noHints = () => Boolean(page.game.ranked || page.game.race);
export const noUndo = () => Boolean(page.game.ranked || (page.game.race && !page.game.race.undo));

export const touched = () => page.game.counts.moves > 0 || page.game.counts.undos > 0;

export const cardsWord = (n) => `${n} ${n === 1 ? "card" : "cards"}`;

/** Why an action cannot apply to the game as shown now, in words, or null when it can. The
 * page knows this from the game the server sent (its status, ranked, can_undo), so it says so
 * itself rather than send a request the server would refuse. */
const OVER_WORDS = { won: "you won it", lost: "no moves were left", resigned: "you resigned", closed: "its day closed" };
export const overWords = () => `This game is over: ${OVER_WORDS[page.game.status] ?? page.game.status}.`;
export const notOver = () => (page.game.status === "playing" ? null : overWords());

export function undoRefusal() {
  const game = page.game;
  if (game.ranked) return "Ranked games have no undo.";
  if (game.race && !game.race.undo) return "This race's room plays without undo.";
  if (game.status !== "playing") return `${overWords()} No move can be taken back.`;
  if (game.can_undo) return null;
  return "No move to take back yet.";
}

export function hintRefusal() {
  const game = page.game;
  if (game.ranked) return "Ranked games have no hints.";
  if (game.race) return "Races have no hints: the race is between you.";
  if (game.status !== "playing") return `${overWords()} No more hints.`;
  return null;
}
