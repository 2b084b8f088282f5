// The lobby (/): a tile per game with a miniature of its table and a "New deal" button, a
// numbered deal, today's daily challenges with the player's standing, and the player's saved
// games to resume. A signed-out visitor plays at once: their first "New deal" (or a shared
// deal's link, /?deal=<game>&seed=<n>) makes them a guest (accounts/guests.py), whose games are
// kept until they sign up (the guest becomes the account) or sign in (the games move to it).

import { api, pageAccount, startGame } from "./api.js";
import { renderMiniature } from "./board.js";
import { ago, when } from "./ui.js";
import { setWinnableOnly, winnableOnly as storedWinnableOnly } from "./winnable.js";

const $ = (id) => document.getElementById(id);
const root = $("lobby");
const signedIn = root.dataset.signedIn === "true";
const guest = document.documentElement.dataset.guest === "true";
const names = JSON.parse($("games-data").textContent);
// A sign-in (or sign-up) for a deal comes back here with the deal asked for, and starts it.
const signInFor = (back) => `/signin/?next=${encodeURIComponent(back)}`;
const signUpFor = (back) => `/signup/?next=${encodeURIComponent(back)}`;
const SAVED_SHOWN = 6;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else node.setAttribute(name, value);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

function say(text) {
  $("lobby-message").textContent = text || "";
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

// -- new games -----------------------------------------------------------------------------

async function newGame(body, button, report = say) {
  // Already on its way (the seed form submitted again with Enter): one game, not two.
  if (button.getAttribute("aria-busy") === "true") return;
  // Signed out too: the server makes this browser a guest for the game.
  button.disabled = true;
  button.setAttribute("aria-busy", "true");
  try {
    await startGame(body);
  } catch (error) {
    button.disabled = false;
    button.removeAttribute("aria-busy");
    if (error.status === 401 || error.status === 403) window.location.assign(signInFor(dealPath(body)));
    else if (!signedIn && error.status === 429) refusedAsGuest(body, error.message);
    else report(error.fields?.seed?.[0] ?? error.message);
  }
}

/** A visitor who could not be made a guest (too many from their address): why, and the ways
 * to an account that come back to this deal. */
function refusedAsGuest(body, message) {
  const back = dealPath(body);
  $("lobby-message").replaceChildren(
    `${message} `,
    el("a", { href: signInFor(back), id: "deal-sign-in" }, "Sign in"),
    " or ",
    el("a", { href: signUpFor(back), id: "deal-sign-up" }, "create an account"),
    " to play this deal.",
  );
}

function dealPath(body) {
  const query = new URLSearchParams({ deal: body.variant });
  if (body.seed !== undefined) query.set("seed", String(body.seed));
  if (body.winnable) query.set("winnable", "1");
  return `/?${query}`;
}

// "Winnable deals only" (winnable.js): remembered for the signed-in player in this browser,
// and it holds on the play page's "New game" and the result's "New deal" too.
const winnableOnly = $("winnable-only");

function rememberWinnableOnly() {
  setWinnableOnly(winnableOnly.checked);
}

winnableOnly.checked = storedWinnableOnly();
winnableOnly.addEventListener("change", rememberWinnableOnly);

function newDealBody(variant) {
  return winnableOnly.checked ? { variant, winnable: true } : { variant };
}

for (const button of document.querySelectorAll(".new-deal")) {
  button.addEventListener("click", () => newGame(newDealBody(button.dataset.variant), button));
}

// A shared deal's link (/?deal=<game>&seed=<n>), or back from signing in (or up) with the
// deal asked for: start it, for a visitor too (as a guest). The query is taken off the address
// first, so going back to the lobby does not deal again; the page's sign-in links keep it.
function dealAskedBeforeSigningIn() {
  const query = new URLSearchParams(window.location.search);
  const variant = query.get("deal");
  if (!variant) return;
  history.replaceState(null, "", "/");
  const button = document.querySelector(`.new-deal[data-variant="${CSS.escape(variant)}"]`);
  if (!button) return;
  const seed = query.get("seed");
  say(`Dealing ${names[variant] ?? variant}${seed === null ? "" : `, deal #${seed}`}…`);
  if (seed === null) {
    if (query.get("winnable") === "1") {
      winnableOnly.checked = true; // ticked before signing in
      rememberWinnableOnly();
    }
    newGame(newDealBody(variant), button);
  } else {
    // A numbered deal goes through the form, so its number is checked and shown as usual.
    $("seed-variant").value = variant;
    $("seed-number").value = seed;
    seedForm.requestSubmit();
  }
}

const seedForm = $("seed-form");
const seedError = $("seed-error");
const seedInput = $("seed-number");

function seedReport(text) {
  seedError.textContent = text || "";
  seedError.hidden = !text;
  if (text) seedInput.setAttribute("aria-invalid", "true");
  else seedInput.removeAttribute("aria-invalid");
}

seedForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const raw = seedInput.value.trim();
  if (!/^\d+$/.test(raw)) {
    // In the server's words, which refuse a number out of range.
    seedReport(raw ? "A deal number is a whole number from 0 to 9007199254740991." : "Enter a deal number.");
    seedInput.focus();
    return;
  }
  seedReport("");
  // A number beyond JavaScript's safe range goes as text, for the server to refuse clearly.
  const seed = Number.isSafeInteger(Number(raw)) ? Number(raw) : raw;
  newGame({ variant: $("seed-variant").value, seed }, seedForm.querySelector("button[type=submit]"), seedReport);
});

// -- tiles: descriptions and miniatures from the catalogue ----------------------------------

async function loadVariants() {
  const variants = await api("GET", "/api/variants/");
  for (const variant of variants) {
    const mini = document.querySelector(`[data-mini="${variant.slug}"]`);
    if (mini) renderMiniature(mini, variant);
    const text = document.querySelector(`[data-description="${variant.slug}"]`);
    if (text) text.textContent = variant.description;
  }
}

// -- saved games ---------------------------------------------------------------------------

function savedGame(game) {
  const badges = [];
  if (game.daily) badges.push(el("span", { class: "badge daily" }, "Daily"));
  if (game.ranked) badges.push(el("span", { class: "badge ranked" }, "Ranked"));
  if (game.winnable) badges.push(el("span", { class: "badge winnable" }, "Winnable"));
  if (game.seed !== null) badges.push(el("span", { class: "badge seed" }, `Deal #${game.seed}`));
  const last = game.last_move_at ?? game.created_at;
  return el(
    "li",
    { class: "saved-game", "data-game-id": String(game.id) },
    el(
      "div",
      { class: "saved-text" },
      el("strong", {}, names[game.variant] ?? game.variant),
      " ",
      ...badges,
      el("br"),
      el(
        "span",
        { class: "meta" },
        `${plural(game.counts.moves, "move")} · ${game.last_move_at ? "last played" : "started"} `,
        el("time", { datetime: last, title: when(last) }, ago(last)),
      ),
    ),
    el(
      "div",
      { class: "saved-actions" },
      el("a", { class: "button primary resume", href: `/play/${game.id}/`, "aria-label": `Resume ${names[game.variant] ?? game.variant}, game ${game.id}` }, "Resume"),
      el("button", { type: "button", class: "button abandon", "data-game-id": String(game.id), "aria-label": `Abandon ${names[game.variant] ?? game.variant}, game ${game.id}` }, "Abandon"),
    ),
  );
}

// "Abandon" asks once, in its row: a game listed has moves, so abandoning it resigns it (POST
// abandon/, which would delete a game with no move: those are not listed).
function askAbandon(button) {
  const row = button.closest(".saved-game");
  const actions = row.querySelector(".saved-actions");
  const keep = el("button", { type: "button", class: "button keep" }, "Keep");
  const sure = el("button", { type: "button", class: "button danger confirm-abandon" }, "Resign it");
  const asking = el("div", { class: "saved-actions asking", role: "group", "aria-label": "Abandon this game?" },
    el("span", { class: "meta" }, "It counts as resigned."), keep, sure);
  actions.replaceWith(asking);
  keep.addEventListener("click", () => {
    asking.replaceWith(actions);
    actions.querySelector(".abandon").focus();
  });
  sure.addEventListener("click", async () => {
    sure.disabled = keep.disabled = true;
    try {
      await api("POST", `/api/games/${button.dataset.gameId}/abandon/`, {});
    } catch (error) {
      asking.querySelector(".meta").textContent = error.message;
      keep.disabled = false;
      return;
    }
    await loadSaved();
    $("saved-title").focus?.();
  });
  sure.focus();
}

$("saved-games")?.addEventListener("click", (event) => {
  const button = event.target.closest("button.abandon");
  if (button) askAbandon(button);
});

async function loadSaved() {
  const list = $("saved-games");
  if (!list) return;
  try {
    // The newest few; the profile lists them all.
    const page = await api("GET", "/api/games/?status=playing");
    list.replaceChildren(...page.results.slice(0, SAVED_SHOWN).map(savedGame));
    $("saved-empty").hidden = page.results.length > 0;
    $("saved-more").hidden = page.count <= SAVED_SHOWN;
    $("saved-more").querySelector("a").textContent = `All ${page.count} games in progress`;
  } finally {
    list.removeAttribute("aria-busy");
  }
}

// -- daily challenges ----------------------------------------------------------------------

function standing(challenge, date) {
  const attempt = challenge.your_attempt;
  if (attempt) {
    const state = { playing: "In play", won: "Won", lost: "No moves left", resigned: "Resigned", closed: "Day closed" }[attempt.status] ?? attempt.status;
    const rank = attempt.rank ? `rank ${attempt.rank}` : "not ranked";
    return el("span", { class: `standing status-${attempt.status}` }, `${state} · ${rank} · ${plural(attempt.moves, "move")}`);
  }
  if (challenge.can_attempt) return el("span", { class: "standing open" }, "Not tried yet");
  const board = `/daily/${date}/${challenge.variant}/`;
  if (guest) return el("span", { class: "standing" }, el("a", { href: signUpFor(board) }, "Create an account to compete"));
  if (signedIn) return null;
  return el("span", { class: "standing" }, el("a", { href: signInFor(board) }, "Sign in to play"));
}

async function loadDaily() {
  const list = $("daily-list");
  try {
    const day = await api("GET", "/api/daily/");
    list.replaceChildren(
      ...day.challenges.map((challenge) =>
        el(
          "li",
          { class: "daily-item", "data-variant": challenge.variant },
          el("a", { href: `/daily/${day.date}/${challenge.variant}/` }, challenge.name),
          el("span", { class: "attempts" }, plural(challenge.attempts, "attempt")),
          standing(challenge, day.date),
        ),
      ),
    );
    const streak = day.streaks?.overall;
    if (streak) {
      $("daily-streak").hidden = false;
      $("daily-streak").textContent = `Daily streak: ${plural(streak.current, "day")} (best ${streak.best}).`;
    }
  } finally {
    list.removeAttribute("aria-busy");
  }
}

dealAskedBeforeSigningIn();

for (const load of [loadVariants, loadSaved, loadDaily]) {
  load().catch((error) => say(error.message || "Could not load the lobby."));
}

// Back from a game, the browser may show the lobby as it was left: a "New deal" still busy,
// and the games in progress and the day's standings as they were before that game.
window.addEventListener("pageshow", (event) => {
  if (!event.persisted) return;
  for (const button of document.querySelectorAll("button[aria-busy='true']")) {
    button.disabled = false;
    button.removeAttribute("aria-busy");
  }
  for (const load of [loadSaved, loadDaily]) {
    load().catch((error) => say(error.message || "Could not load the lobby."));
  }
});
