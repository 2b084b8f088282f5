// The lobby's race invitations: an account's own websocket (/ws/account/) sends the friends'
// invitations still open on connecting (and on every reconnection) and each new one as it is
// sent; each is a line "ada invites you to race Gold Mine" with Join, one tap: joined (POST
// /api/races/<code>/join/), then the race's room. Guests and visitors are invited by nobody.
import { api, socket } from "./api.js";
import { canFollow } from "./follow.js";
import { el, errorText } from "./ui.js";

const box = document.getElementById("race-invitations");
const list = document.getElementById("race-invitations-list");
const error = document.getElementById("race-invitations-error");
const shown = new Map(); // code → invitation

async function join(invitation, button) {
  button.disabled = true;
  error.hidden = true;
  try {
    await api("POST", `/api/races/${invitation.code}/join/`, undefined, { idempotent: true });
    window.location.assign(invitation.link);
  } catch (failure) {
    error.textContent = errorText(failure);
    error.hidden = false;
    button.disabled = false;
  }
}

function line(invitation) {
  const button = el("button", { type: "button", class: "button primary small" }, "Join");
  button.setAttribute("aria-label", `Join ${invitation.sender}'s race of ${invitation.name}`);
  button.addEventListener("click", () => join(invitation, button));
  return el(
    "li",
    { dataset: { code: invitation.code } },
    el("span", {}, `${invitation.sender} invites you to race `, el("a", { href: invitation.link }, invitation.name)),
    " ",
    button,
  );
}

function draw() {
  const newest = [...shown.values()].sort((a, b) => b.created_at.localeCompare(a.created_at));
  list.replaceChildren(...newest.map(line));
  box.hidden = newest.length === 0;
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
    }
  });
}
