// This page's sign-in ended (signed out in another tab, a new password, a closed account): the
// page says so with a way back, and sends nothing more.

import { api, pageAccount } from "../api.js";
import { headerSignedOut } from "../ui.js";
import { announce, sayWith } from "./messages.js";
import { page } from "./page.js";

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

/** Given `reset()` (put back a card held) and `redraw()` (draw the game shown again, as it
 * is), returns whenSignedOut(): whether the page's sign-in has ended (page.signedOut), saying
 * so when it has. */
export function createSignedOut({ reset, redraw }) {
  return function whenSignedOut() {
    if (!page.signedOut) return false;
    const link = document.createElement("a");
    link.id = "sign-in-again";
    link.href = `/signin/?next=${encodeURIComponent(window.location.pathname)}`;
    link.textContent = "Sign in again";
    link.addEventListener("click", signInAgain);
    announce("");
    sayWith(`${page.signedOut} `, link);
    headerSignedOut();
    reset(); // put back a card picked up
    if (page.game) redraw();
    return true;
  };
}
