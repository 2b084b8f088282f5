// What a player can do with one daily challenge (daily.html and daily_board.html): start the
// ranked attempt, go back to it, replay the deal for fun, or sign in first. A guest
// (accounts/guests.py) is told that a ranked attempt is for accounts, with the ways to one.

import { api } from "./api.js";
import { el, errorText, isGuest, signedIn } from "./ui.js";

const playUrl = (id) => `/play/${id}/`;

async function startGame(path, button, report) {
  if (button.getAttribute("aria-busy") === "true") return; // already on its way
  button.disabled = true;
  button.setAttribute("aria-busy", "true");
  try {
    const game = await api("POST", path, undefined, { idempotent: true });
    window.location.assign(playUrl(game.id));
  } catch (error) {
    button.disabled = false;
    button.removeAttribute("aria-busy");
    if (error?.code === "attempt_exists") {
      // Started in another tab: go to it.
      const id = error.game_id ?? error.fields?.game_id;
      if (id) {
        window.location.assign(playUrl(id));
        return;
      }
    }
    report(errorText(error));
  }
}

/**
 * "Start ranked attempt" asks first, in place (as the lobby's Abandon does): one try only, the
 * clock runs from the start, and it counts for the day's ranking. Cancel (or Escape) puts the
 * button back and starts nothing; Start starts it. Cancel comes first, where the button was, so
 * a double click on the button cannot start the attempt by itself.
 */
function askStart(button, path, report) {
  const name = button.dataset.name;
  const textId = `start-ask-text-${button.dataset.variant}`;
  const cancel = el("button", { type: "button", class: "button cancel-attempt", id: button.id ? "cancel-attempt" : null }, "Cancel");
  const sure = el("button", { type: "button", class: "button primary confirm-attempt", id: button.id ? "confirm-attempt" : null }, "Start");
  const asking = el(
    "div",
    { class: "start-ask", role: "group", "aria-labelledby": textId, dataset: { variant: button.dataset.variant } },
    el(
      "p",
      { id: textId, class: "start-ask-text" },
      el("strong", {}, `Start your ranked attempt at ${name}?`),
      " One try only: its clock starts now, there is no undo and no hint, and it counts for today's ranking.",
    ),
    el("div", { class: "start-ask-buttons" }, cancel, sure),
  );
  const back = () => {
    asking.replaceWith(button);
    button.focus();
  };
  button.replaceWith(asking);
  cancel.addEventListener("click", back);
  asking.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    if (!sure.disabled) back();
  });
  sure.addEventListener("click", async () => {
    cancel.disabled = true;
    await startGame(path, sure, report); // on its way to the game, unless refused
    cancel.disabled = false;
  });
  sure.focus();
}

/** Whether "Replay for fun" is allowed: once the day has closed, for everyone. Not after one's
 * own attempt: the replay would show the whole deal while others still play it. */
export function canReplay(challenge, day) {
  return signedIn() && day.date <= day.today && !day.open;
}

/**
 * The buttons and links for one challenge. `day` is the /api/daily/ answer (date, today, open);
 * `report(text)` shows an error. `ids` gives the controls ids (for the one-challenge page).
 */
export function challengeActions(challenge, day, report, { ids = false } = {}) {
  const base = `/api/daily/${day.date}/${challenge.variant}`;
  const id = (name) => (ids ? name : null);
  const actions = el("div", { class: "actions" });
  if (challenge.ready === false && day.date <= day.today) {
    // Not prepared yet (the solver is still proving the day's deal winnable): no button that
    // would only be refused; the overview is asked again in a minute (daily.js).
    const text =
      day.date === day.today
        ? `Today's ${challenge.name} challenge is still being prepared; try again in a minute.`
        : `There was no ${challenge.name} challenge on this day.`;
    actions.append(el("p", { class: "not-ready note", id: id("not-ready"), role: "status" }, text));
    return actions;
  }
  const attempt = challenge.your_attempt;
  if (attempt) {
    const playing = attempt.status === "playing";
    actions.append(
      el(
        "a",
        { class: `button${playing ? " primary" : ""}`, href: playUrl(attempt.game_id), id: id("continue-attempt") },
        playing ? "Continue your attempt" : "See your attempt",
      ),
    );
  } else if (challenge.can_attempt) {
    const button = el(
      "button",
      { type: "button", class: "button primary start-attempt", id: id("start-attempt"), dataset: { variant: challenge.variant, name: challenge.name } },
      "Start ranked attempt",
    );
    button.addEventListener("click", () => askStart(button, `${base}/attempt/`, report));
    actions.append(button);
  } else if (isGuest() && day.open) {
    const next = encodeURIComponent(window.location.pathname + window.location.search);
    actions.append(
      el(
        "p",
        { class: "note account-required", id: id("attempt-account-required"), role: "note" },
        "You are playing as a guest: the ranked attempt is for accounts. ",
        el("a", { href: `/signup/?next=${next}`, id: id("attempt-sign-up") }, "Create an account"),
        " (your games come with you) or ",
        el("a", { href: `/signin/?next=${next}`, id: id("attempt-sign-in") }, "sign in"),
        " to compete.",
      ),
    );
  } else if (!signedIn() && day.open) {
    const next = window.location.pathname + window.location.search;
    actions.append(
      el(
        "a",
        { class: "button primary", href: `/signin/?next=${encodeURIComponent(next)}`, id: id("signin-to-play") },
        "Sign in to play",
      ),
    );
  }
  if (attempt && attempt.status !== "playing" && day.open) {
    actions.append(
      el(
        "p",
        { class: "note replay-later", id: id("replay-after-day"), role: "note" },
        "You can replay this deal for fun once the day closes at midnight UTC: until then it is the deal everyone's attempt plays.",
      ),
    );
  }
  if (canReplay(challenge, day)) {
    const button = el(
      "button",
      { type: "button", class: "button replay-daily", id: id("replay-daily"), dataset: { variant: challenge.variant } },
      "Replay for fun",
    );
    button.addEventListener("click", () => startGame(`${base}/replay/`, button, report));
    actions.append(button);
  }
  if (challenge.solution_available) {
    actions.append(
      el(
        "a",
        { class: "button solution-link", href: `/daily/${day.date}/${challenge.variant}/solution/`, id: id("see-solution") },
        "See how it could be won",
      ),
    );
  }
  return actions;
}
