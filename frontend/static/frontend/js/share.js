// Share a day's result: the server builds the spoiler-free text (GET /api/daily/{date}/share/,
// games/daily/share.py: a line per game played, nothing of a deal); this hands it to the
// phone's share sheet (Web Share API) where there is one, else copies it to the clipboard, and
// where the browser allows neither shows it selected to copy by hand.

import { api } from "./api.js";
import { el, errorText, say } from "./ui.js";

const SAID_MS = 3000;

/** A "Share" button for `date`'s results, with its status line and its hand-copy fallback. */
export function shareButton(date, { id = "share-day" } = {}) {
  const button = el("button", { type: "button", class: "button small share-button", id }, "Share");
  const status = el("p", { class: "note share-status", role: "status", hidden: true });
  const fallback = el("pre", { class: "share-text", hidden: true });
  let timer = 0;
  button.addEventListener("click", async () => {
    let card;
    try {
      card = await api("GET", `/api/daily/${date}/share/`);
    } catch (error) {
      say(status, errorText(error), "error");
      return;
    }
    fallback.textContent = card.text;
    try {
      if (navigator.share) {
        await navigator.share({ text: card.text });
        say(status, "Shared.");
      } else {
        await navigator.clipboard.writeText(card.text);
        say(status, "Copied: paste it anywhere. It shows nothing of the deals.");
      }
    } catch (error) {
      if (error?.name === "AbortError") return; // the share sheet closed: nothing to say
      fallback.hidden = false;
      window.getSelection()?.selectAllChildren(fallback);
      say(status, "Copy the text below.");
      return;
    }
    clearTimeout(timer);
    timer = setTimeout(() => say(status, ""), SAID_MS);
  });
  return el("div", { class: "share-row" }, button, status, fallback);
}
