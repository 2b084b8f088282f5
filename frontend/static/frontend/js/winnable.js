// "Winnable deals only": every new random deal the player asks for (the lobby's "New deal",
// the play page's "New game", the result's "New deal") comes from the deals the solver has
// proven winnable, until the player switches it off. Remembered in this browser for the
// signed-in player (localStorage, keyed by username: the account keeps no preferences on the
// server); signed out, it holds for the page only (the sign-in it leads to carries it in the
// address).

import { pageAccount } from "./api.js";

const key = () => (pageAccount() ? `patience:winnable-only:${pageAccount()}` : null);
let unsaved = false; // the choice of a page that cannot store it

export function winnableOnly() {
  const name = key();
  if (!name) return unsaved;
  try {
    return window.localStorage.getItem(name) === "1";
  } catch {
    return unsaved; // storage refused (private mode, a policy)
  }
}

export function setWinnableOnly(on) {
  unsaved = Boolean(on);
  const name = key();
  if (!name) return;
  try {
    if (on) window.localStorage.setItem(name, "1");
    else window.localStorage.removeItem(name);
  } catch {
    // not remembered; it still applies to this page
  }
}

/** The body of a new random deal of `variant`, as the choice stands. */
export function newDealBody(variant) {
  return winnableOnly() ? { variant, winnable: true } : { variant };
}
