// The lobby's Race box: open a race of the chosen game, or take a quick race (the next open
// race of it, or a new one), then go to its room (/races/<code>/). A visitor plays as a guest.
import { api } from "./api.js";

const form = document.getElementById("race-form");
const variant = document.getElementById("race-variant");
const error = document.getElementById("race-error");

async function go(path) {
  error.hidden = true;
  try {
    const race = await api("POST", path, { variant: variant.value }, { idempotent: true });
    window.location.assign(race.link);
  } catch (failure) {
    error.textContent = failure.message;
    error.hidden = false;
  }
}

const list = document.getElementById("open-races");
const empty = document.getElementById("open-races-empty");
const names = JSON.parse(document.getElementById("games-data")?.textContent ?? "{}");

// The rooms waiting for players, the oldest first: each a link to its room, to join there.
async function showOpenRaces() {
  if (!list) return;
  let rooms = [];
  try {
    rooms = (await api("GET", "/api/races/")).results;
  } catch {
    return;
  }
  list.replaceChildren(
    ...rooms.map((room) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = room.link;
      link.textContent = `${names[room.variant] ?? room.variant}: ${room.players} of ${room.max_players} players, opened by ${room.opener ?? "a player"}`;
      item.append(link);
      return item;
    }),
  );
  empty.hidden = rooms.length > 0;
}

showOpenRaces();
setInterval(showOpenRaces, 15000);

form?.addEventListener("submit", (event) => {
  event.preventDefault();
  go("/api/races/");
});
document.getElementById("quick-race")?.addEventListener("click", () => go("/api/races/quick/"));
