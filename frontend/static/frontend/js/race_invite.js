// The race page's "Invite a friend": while the race waits, an account in it sees its Friends
// list (whom it follows, /api/me/following/) with an Invite button each (POST
// /api/races/<code>/invite/); the friend's lobby shows the invitation live. Whom one invited
// comes with the race (you.invited), and a friend who says "Not now" shows "Declined", live
// (the room's race_invitation_declined): the race does not ask them again. A guest, a visitor
// or someone not in the race sees nothing of it.
import { api } from "./api.js";
import { canFollow, following } from "./follow.js";
import { el, errorText } from "./ui.js";

const box = document.getElementById("race-invite");
const list = document.getElementById("race-invite-list");
const empty = document.getElementById("race-invite-empty");
const error = document.getElementById("race-invite-error");
const invited = new Map(); // username → declined
const redraws = new Map(); // username → its button's redraw
const items = new Map(); // username → its line
let drawnFor = null;

function inviteButton(code, username) {
  const button = el("button", { type: "button", class: "button small", dataset: { invite: username } });
  const draw = () => {
    const done = invited.has(username);
    const declined = invited.get(username) === true;
    button.textContent = declined ? "Declined" : done ? "Invited" : "Invite";
    button.disabled = done;
    button.classList.toggle("declined", declined);
    button.setAttribute(
      "aria-label",
      declined ? `${username} declined: not now` : done ? `${username} is invited` : `Invite ${username}`,
    );
  };
  draw();
  redraws.set(username, draw);
  button.addEventListener("click", async () => {
    button.disabled = true;
    error.hidden = true;
    try {
      const race = await api("POST", `/api/races/${code}/invite/`, { username }, { idempotent: true });
      if (!invited.has(username)) invited.set(username, false);
      learn(race.you?.invited);
    } catch (failure) {
      error.textContent = errorText(failure);
      error.hidden = false;
    }
    draw();
  });
  return button;
}

/** What the race says of whom the player invited (its you.invited). */
function learn(sent = []) {
  for (const { username, declined } of sent) {
    invited.set(username, declined);
    redraws.get(username)?.();
  }
}

/** A friend the player invited declined (the room's race_invitation_declined). */
export function declinedInvite(username) {
  invited.set(username, true);
  redraws.get(username)?.();
}

/** Show or hide the box for the race as shown; the list is drawn once per race, its buttons
 * as the race says. */
export async function drawInvite(race) {
  const open = canFollow() && race.you.joined && race.phase === "waiting";
  box.hidden = !open;
  if (!open) return;
  learn(race.you.invited);
  if (drawnFor !== race.code) {
    drawnFor = race.code;
    const names = [...(await following())].sort();
    items.clear();
    for (const name of names) items.set(name, el("li", {}, el("span", {}, name), " ", inviteButton(race.code, name)));
    list.replaceChildren(...items.values());
  }
  // A friend who has joined (invited or not) is in the race's table, not here.
  const inRace = new Set(race.players.map((p) => p.username));
  for (const [name, item] of items) item.hidden = inRace.has(name);
  empty.hidden = [...items.keys()].some((name) => !inRace.has(name));
}
