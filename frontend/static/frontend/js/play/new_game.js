// "New game" (a new random deal) and "Play this deal again": from a game in play with moves,
// only once the player says so (#new-game-dialog).

import { api, playAgain, startGame } from "../api.js";
import { newDealBody } from "../winnable.js";
import { touched } from "./facts.js";
import { sayOnly } from "./messages.js";
import { $, page } from "./page.js";

let newGameButton = null;

/** A new game of this game's kind: a new random deal, or (`again`) this game's deal again. From
 * a game in play with moves, only once the player says so (#new-game-dialog): it stays in their
 * games in progress. One where no move was made is abandoned (deleted: it counts nowhere), but
 * a ranked attempt, which the server would resign. A ranked attempt in play always asks, moves
 * or not, and says it stays open (#new-game-ranked): resumed from its daily page until the day
 * ends, its clock running meanwhile. */
async function newGame(button, whenSignedOut, { again = false, confirmed = false } = {}) {
  if (whenSignedOut()) return;
  const game = page.game;
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
      await api("POST", `/api/games/${page.gameId}/abandon/`, { expected_move_number: game.move_number }).catch(() => null);
    }
    await (again ? playAgain(game) : startGame(newDealBody(game.variant)));
  } catch (error) {
    button.disabled = false;
    sayOnly(error.message);
  }
}

/** The buttons that deal a new game (the bar's, the result dialog's) and the dialog that asks. */
export function attachNewGame({ whenSignedOut }) {
  $("new-game").addEventListener("click", (event) => newGame(event.currentTarget, whenSignedOut));
  $("new-game-dialog").addEventListener("close", () => {
    if ($("new-game-dialog").returnValue === "new") newGame(newGameButton ?? $("new-game"), whenSignedOut, { confirmed: true });
  });
  $("result-new").addEventListener("click", (event) => newGame(event.currentTarget, whenSignedOut));
  $("result-again").addEventListener("click", (event) => newGame(event.currentTarget, whenSignedOut, { again: true }));
}
