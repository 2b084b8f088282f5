// /rules/<game>/: "Play <game>" starts a new game of it at once for a signed-in player
// (without this module the link leads to the lobby, or to sign in first).

import { startGame } from "./api.js";
import { errorText, say } from "./ui.js";

const link = document.getElementById("play-link");
if (link?.dataset.variant) {
  link.addEventListener("click", async (event) => {
    event.preventDefault();
    if (link.getAttribute("aria-disabled") === "true") return; // already starting one
    link.setAttribute("aria-disabled", "true");
    try {
      await startGame({ variant: link.dataset.variant });
    } catch (error) {
      link.removeAttribute("aria-disabled");
      say(document.getElementById("play-message"), errorText(error), "error");
    }
  });
}
