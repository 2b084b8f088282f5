// Following players (POST/DELETE /api/players/{username}/follow/, accounts.follows): the list
// of whom the account follows, read once per page, and a Follow / Following button.

import { api } from "./api.js";
import { el, errorText, isGuest } from "./ui.js";

let followed = null; // Promise of a Set of names

/** Whether this page's visitor can follow: an account (not a guest, not signed out). */
export function canFollow() {
  return Boolean(document.documentElement.dataset.user) && !isGuest();
}

/** The names the account follows (an empty set for anyone else). */
export function following() {
  if (!followed) {
    followed = canFollow()
      ? api("GET", "/api/me/following/").then((body) => new Set(body.following.map((f) => f.username))).catch(() => new Set())
      : Promise.resolve(new Set());
  }
  return followed;
}

/** A toggle that follows or stops following `username`; `onChange(following)` after each. */
export function followButton(username, isFollowing, { small = false, star = false, onChange = null, onError = null } = {}) {
  const classes = `button follow-button${small || star ? " small" : ""}${star ? " star" : ""}`;
  const button = el("button", { type: "button", class: classes, dataset: { follow: username } });
  const draw = (on) => {
    button.setAttribute("aria-pressed", String(on));
    // A star in a leaderboard row (room for it on a phone), named for screen readers.
    if (star) {
      button.textContent = on ? "\u2605" : "\u2606";
      button.setAttribute("aria-label", `Follow ${username}`);
    } else button.textContent = on ? "Following" : "Follow";
    button.title = on ? `Following ${username}: choose to stop` : `Follow ${username}: see them on your friends' boards`;
  };
  draw(isFollowing);
  button.addEventListener("click", async () => {
    const on = button.getAttribute("aria-pressed") !== "true";
    button.disabled = true;
    try {
      await api(on ? "POST" : "DELETE", `/api/players/${encodeURIComponent(username)}/follow/`);
      const names = await following();
      if (on) names.add(username);
      else names.delete(username);
      draw(on);
      onChange?.(on);
    } catch (error) {
      onError?.(errorText(error));
    } finally {
      button.disabled = false;
    }
  });
  return button;
}
