// The race page's "Invite a friend": while the race waits, an account in it sees its Friends
// list (whom it follows, /api/me/following/) with an Invite button each (POST
// /api/races/<code>/invite/); the friend's lobby shows the invitation live. A guest, a visitor
// or someone not in the race sees nothing of it.
import { api } from "./api.js";
import { canFollow, following } from "./follow.js";
import { el, errorText } from "./ui.js";

const box = document.getElementById("race-invite");
const list = document.getElementById("race-invite-list");
const empty = document.getElementById("race-invite-empty");
const error = document.getElementById("race-invite-error");
const invited = new Set();
let drawnFor = null;

function inviteButton(code, username) {
  const button = el("button", { type: "button", class: "button small", dataset: { invite: username } });
  const draw = () => {
    const done = invited.has(username);
    button.textContent = done ? "Invited" : "Invite";
    button.disabled = done;
    button.setAttribute("aria-label", done ? `${username} is invited` : `Invite ${username}`);
  };
  draw();
  button.addEventListener("click", async () => {
    button.disabled = true;
    error.hidden = true;
    try {
      await api("POST", `/api/races/${code}/invite/`, { username }, { idempotent: true });
      invited.add(username);
    } catch (failure) {
      error.textContent = errorText(failure);
      error.hidden = false;
    }
    draw();
  });
  return button;
}

/** Show or hide the box for the race as shown; the list is drawn once per race. */
export async function drawInvite(race) {
  const open = canFollow() && race.you.joined && race.phase === "waiting";
  box.hidden = !open;
  if (!open || drawnFor === race.code) return;
  drawnFor = race.code;
  const inRace = new Set(race.players.map((p) => p.username));
  const names = [...(await following())].filter((name) => !inRace.has(name)).sort();
  list.replaceChildren(...names.map((name) => el("li", {}, el("span", {}, name), " ", inviteButton(race.code, name))));
  empty.hidden = names.length > 0;
}
