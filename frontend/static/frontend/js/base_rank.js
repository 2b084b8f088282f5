// The one choice a move makes for the rest of the game, asked before it is sent: where the
// variant says the first card home sets the base rank of every foundation (the API's
// chooses_base_rank_on_first_foundation_move, Selective Castle's) and the game has none yet,
// the page says so and asks once (#base-rank-dialog). Once the player has confirmed it, this
// browser does not ask again: the choice is kept with the page's other preferences (prefs.js
// reads the settings under the same "patience." prefix; this is a flag of its own).

import { rankName } from "./cards.js";

const SEEN_KEY = "patience.prefs.base-rank-confirmed";

function confirmedBefore() {
  try {
    return window.localStorage.getItem(SEEN_KEY) === "1";
  } catch {
    return false; // no storage (a private window's policy): ask each game
  }
}

function rememberConfirmed() {
  try {
    window.localStorage.setItem(SEEN_KEY, "1");
  } catch {
    /* asked again next time: nothing lost */
  }
}

/** Whether `move` on the game `shown` sets the base rank (the API's words, never a game's name). */
export function setsBaseRank(move, shown, variant) {
  return Boolean(
    variant?.chooses_base_rank_on_first_foundation_move &&
      shown?.state &&
      !shown.state.base_rank &&
      move?.type === "move" &&
      typeof move.to === "string" &&
      move.to.startsWith("foundation:"),
  );
}

/** Resolves true when the move may be sent: it sets no base rank, the player confirmed this
 * before, or confirms it now; false when they keep the card where it is. */
export function confirmBaseRank(move, shown, variant) {
  if (!setsBaseRank(move, shown, variant) || confirmedBefore()) return Promise.resolve(true);
  const dialog = document.getElementById("base-rank-dialog");
  if (!dialog) return Promise.resolve(true);
  const cards = shown.state.piles?.[move.from]?.cards ?? [];
  const card = cards[cards.length - 1];
  const rank = typeof card === "string" ? rankName(card[0]) : null;
  document.getElementById("base-rank-card").textContent = rank ? `This ${rank.toLowerCase()}` : "This card";
  return new Promise((resolve) => {
    dialog.addEventListener(
      "close",
      () => {
        const yes = dialog.returnValue === "confirm";
        if (yes) rememberConfirmed();
        resolve(yes);
      },
      { once: true },
    );
    dialog.returnValue = "";
    dialog.showModal();
  });
}
