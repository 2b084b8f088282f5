// "Winnable deals only": every new random deal the player asks for (the lobby's "New deal",
// the play page's "New game", the result's "New deal") comes from the deals the solver has
// proven winnable, until the player switches it off. One of the player's settings
// (settings.js): the account's when signed in, this browser's for a guest or a visitor.

import { saveSettings, settings } from "./settings.js";

export function winnableOnly() {
  return settings().winnable_only;
}

export function setWinnableOnly(on) {
  saveSettings({ winnable_only: Boolean(on) });
}

/** The body of a new random deal of `variant`, as the choice stands. */
export function newDealBody(variant) {
  return winnableOnly() ? { variant, winnable: true } : { variant };
}
