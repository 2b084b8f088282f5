// The lobby's race invitations: an account's own websocket (/ws/account/) sends the friends'
// invitations still open on connecting (and on every reconnection), each new one as it is
// sent, and each one that is no longer the account's to take (race_invitation_gone: its race
// has started or ended, the account joined it from another tab, or declined it). Each is a
// line "ada invites you to race Gold Mine" with Join, one tap: joined (POST
// /api/races/<code>/join/), then the race's room; and "Not now" (DELETE
// /api/me/race-invitations/<code>/): gone, and that race does not ask again. Guests and
// visitors are invited by nobody.
import { api, socket } from "./api.js";
import { canFollow } from "./follow.js";
import { el, errorText } from "./ui.js";

const box = document.getElementById("race-invitations");
const list = document.getElementById("race-invitations-list");
const error = document.getElementById("race-invitations-error");
const shown = new Map(); // code → invitation

async function join(invitation, buttons) {
  for (const button of buttons) button.disabled = true;
  error.hidden = true;
  try {
    await api("POST", `/api/races/${invitation.code}/join/`, undefined, { idempotent: true });
    window.location.assign(invitation.link);
  } catch (failure) {
    error.textContent = errorText(failure);
    error.hidden = false;
    for (const button of buttons) button.disabled = false;
    // The race started meanwhile: the invitation is no longer one (its line goes).
    if (failure.code === "race_started") forget(invitation.code);
  }
}

async function decline(invitation, buttons) {
  for (const button of buttons) button.disabled = true;
  error.hidden = true;
  try {
    await api("DELETE", `/api/me/race-invitations/${invitation.code}/`);
  } catch (failure) {
    // None pending any more (declined in another tab, the race gone on): gone all the same.
    if (failure.status !== 404) {
      error.textContent = errorText(failure);
      error.hidden = false;
      for (const button of buttons) button.disabled = false;
      return;
    }
  }
  forget(invitation.code);
}

function line(invitation) {
  const joinButton = el("button", { type: "button", class: "button primary small" }, "Join");
  joinButton.setAttribute("aria-label", `Join ${invitation.sender}'s race of ${invitation.name}`);
  const notNow = el("button", { type: "button", class: "button small" }, "Not now");
  notNow.setAttribute("aria-label", `Not now, ${invitation.sender}'s race of ${invitation.name}`);
  const buttons = [joinButton, notNow];
  joinButton.addEventListener("click", () => join(invitation, buttons));
  notNow.addEventListener("click", () => decline(invitation, buttons));
  return el(
    "li",
    { dataset: { code: invitation.code } },
    el("span", {}, `${invitation.sender} invites you to race `, el("a", { href: invitation.link }, invitation.name)),
    el("span", { class: "invite-buttons" }, joinButton, notNow),
  );
}

function draw() {
  const newest = [...shown.values()].sort((a, b) => b.created_at.localeCompare(a.created_at));
  list.replaceChildren(...newest.map(line));
  box.hidden = newest.length === 0;
}

function forget(code) {
  if (shown.delete(code)) draw();
}

if (box && canFollow()) {
  socket("/ws/account/", (data) => {
    if (data.type === "race_invitations") {
      shown.clear();
      for (const invitation of data.results) shown.set(invitation.code, invitation);
      draw();
    } else if (data.type === "race_invitation") {
      shown.set(data.invitation.code, data.invitation);
      draw();
    } else if (data.type === "race_invitation_gone") {
      forget(data.code);
    }
  });
}
