// Hints: the server suggests a move about the version shown (it counts it), and the page marks
// the cards and where they may go, and says it in the page's own pile names.

import { api } from "../api.js";
import { pileInSentence } from "../board.js";
import { rankName } from "../cards.js";
import { nudge } from "../motion.js";
import { cardsWords } from "../narration.js";
import { choosesBaseRank, hintRefusal } from "./facts.js";
import { reconnected, retrying } from "./live.js";
import { sayOnly } from "./messages.js";
import { page } from "./page.js";

const HINT_SHOWN_MS = 4000;
let hintTimer = null;

function clearHint() {
  clearTimeout(hintTimer);
  for (const node of page.board.querySelectorAll(".hinted, .hinted-target")) node.classList.remove("hinted", "hinted-target");
}

/** "Move the Seven of spades from tableau pile 2 to foundation 1." in the page's own pile names
 * ("from the waste", "to the 12 o'clock foundation"). */
function hintText(move) {
  if (move.type === "deal") return "Hint: deal from the stock.";
  const game = page.game;
  const cards = game.state.piles[move.from].cards;
  const from = pileInSentence(move.from, page.variant);
  const to = pileInSentence(move.to, page.variant);
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
  const pile = (id) => page.board.querySelector(`.pile[data-pile="${CSS.escape(id)}"]`);
  if (move.type === "deal") pile("stock")?.classList.add("hinted-target");
  else {
    const cards = [...(pile(move.from)?.querySelectorAll(":scope > .card") ?? [])].slice(-move.count);
    for (const card of cards) card.classList.add("hinted");
    pile(move.to)?.classList.add("hinted-target");
    nudge(cards, pile(move.to)); // the cards lean toward where they may go
  }
  hintTimer = setTimeout(clearHint, HINT_SHOWN_MS);
}

/** Hints, given the action queue's `enqueue` and `refused` (actions.js), `drawControls()` (the
 * hint count) and `whenSignedOut()`. Returns {askHint}. */
export function createHints({ enqueue, refused, drawControls, whenSignedOut }) {
  /** Ask the server for a move to try. It answers about the version shown, or refuses. */
  function askHint() {
    return enqueue(async () => {
      const game = page.game;
      if (!game || whenSignedOut()) return;
      const why = hintRefusal();
      if (why) return sayOnly(why, "info", "action");
      try {
        const path = `/api/games/${page.gameId}/hint/`;
        const answer = await api("POST", path, { expected_move_number: game.move_number }, retrying).finally(reconnected);
        if (answer.move_number !== page.game.move_number) return;
        page.game.counts.hints = answer.hints;
        drawControls();
        if (!answer.move) return sayOnly(answer.message, "info", "board");
        showHint(answer.move);
        sayOnly(hintText(answer.move), "info", "board"); // #message is a live region: not in #announce too
      } catch (error) {
        await refused(error);
      }
    });
  }
  return { askHint };
}
