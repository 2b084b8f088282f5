// Every page's header: the menu closes when the player clicks or tabs elsewhere; signing out
// is an API call.

import { api, pageAccount } from "./api.js";
import { headerSignedOut } from "./ui.js";
// The player's settings on every page: an account that has saved none takes this browser's.
import "./settings.js";
// "2 of 5 dailies today" in the header, kept true as the player's dailies end.
import "./dailies_today.js";

const menu = document.querySelector(".site-nav details");
document.addEventListener("click", (event) => { if (menu && !menu.contains(event.target)) menu.open = false; });
menu?.addEventListener("focusout", (event) => { if (!menu.contains(event.relatedTarget)) menu.open = false; });
menu?.addEventListener("keydown", (event) => { if (event.key === "Escape") { menu.open = false; menu.querySelector("summary").focus(); } });

const changed = document.getElementById("account-changed");

/** Sign `account` out of this browser, then go to the lobby. A page opened as an account
 * the browser has since left (signed in as another in another tab) is refused, 409
 * account_changed, and signs nobody out: the page says so and lets the player choose. When
 * the browser is signed out already, or cannot reach the server, the lobby says the rest. */
async function signOut(account) {
  try {
    await api("POST", "/api/auth/logout/", undefined, { account });
  } catch (error) {
    if (error.code === "account_changed" && error.signed_in_as) {
      showAccountChanged(error.signed_in_as);
      return;
    }
  }
  window.location.assign("/");
}

/** dialog#account-changed: this page is its account's, the browser is now `now`'s. Continue as
 * `now` (to the lobby: this page may be the other account's own, a game of theirs), sign `now`
 * out too, or stay here. */
function showAccountChanged(now) {
  const page = pageAccount();
  headerSignedOut(); // this page's account is signed out here, as the game page shows it
  document.getElementById("account-changed-title").textContent = `This browser is now signed in as ${now}`;
  document.getElementById("account-changed-message").textContent =
    `This page belongs to ${page}, who is no longer signed in on this browser: it has since signed in as ${now} ` +
    `(in another tab or window). Nobody was signed out.`;
  const go = document.getElementById("account-changed-continue");
  go.textContent = `Continue as ${now}`;
  const out = document.getElementById("account-changed-sign-out");
  out.textContent = `Sign out ${now}`;
  out.dataset.account = now;
  if (!changed.open) changed.showModal();
  go.focus();
}

// Delegated: a sign-up that stays on its page puts a new "Sign out" in the header (ui.js
// headerSignedIn), naming its account.
document.addEventListener("click", (event) => {
  const button = event.target.closest?.("#sign-out");
  if (button) signOut(button.dataset.account ?? pageAccount());
});
const signOutNow = document.getElementById("account-changed-sign-out");
signOutNow?.addEventListener("click", async () => {
  signOutNow.disabled = true;
  await signOut(signOutNow.dataset.account);
  signOutNow.disabled = false;
});
