// The lobby's Race box: open a race of the chosen game, or take a quick race (the next open
// race of it, or a new one), then go to its room (/races/<code>/). A visitor plays as a guest.
import { api } from "./api.js";

const form = document.getElementById("race-form");
const variant = document.getElementById("race-variant");
const error = document.getElementById("race-error");

async function go(path) {
  error.hidden = true;
  try {
    const race = await api("POST", path, { variant: variant.value });
    window.location.assign(race.link);
  } catch (failure) {
    error.textContent = failure.message;
    error.hidden = false;
  }
}

form?.addEventListener("submit", (event) => {
  event.preventDefault();
  go("/api/races/");
});
document.getElementById("quick-race")?.addEventListener("click", () => go("/api/races/quick/"));
