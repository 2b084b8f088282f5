// /daily/: a day's five challenges (today unless ?date=), the countdown to the day's close,
// the player's attempts, ranks and streaks, and a date picker for past days.

import { shareButton } from "./share.js";
import { api } from "./api.js";
import { challengeActions } from "./daily_actions.js";
import {
  dayName,
  el,
  errorText,
  plural,
  say,
  serverNow,
  signedIn,
  statusWord,
} from "./ui.js";

const root = document.getElementById("daily");
const list = document.getElementById("challenges");
const picker = document.getElementById("daily-date");
const heading = document.getElementById("daily-day");
const countdown = document.getElementById("daily-countdown");
const streaksBox = document.getElementById("daily-streaks");
const message = document.getElementById("daily-message");

let timer = null;
let retry = null; // asks again while a challenge of today is still being prepared
let loading = 0;
const RETRY_MS = 60_000;
const provenLine = document.getElementById("daily-proven");

const report = (text) => say(message, text, "error");

const DAY_FORMAT = /^\d{4}-\d{2}-\d{2}$/;

/** The page's ?date=, as written (null without one): one the server cannot read is said so,
 * not quietly replaced by today. */
function requestedDate() {
  return new URLSearchParams(window.location.search).get("date") || null;
}

/** A day the page cannot show: nothing of another day stays on it (not even its name in the
 * heading), the picker is emptied, and Today leads back. */
function showNoDay(text) {
  clearInterval(timer);
  heading.textContent = "No such day";
  picker.value = "";
  delete root.dataset.date;
  countdown.replaceChildren();
  streaksBox.replaceChildren();
  list.replaceChildren();
  report(text);
}

function attemptLine(attempt, total) {
  if (!attempt) return null;
  const parts = [statusWord(attempt.status), `${attempt.cards_home}/${total} cards home`, plural(attempt.moves, "move")];
  const rank = attempt.rank ? el("strong", { class: "attempt-rank" }, `rank ${attempt.rank}`) : "not ranked";
  return el("p", { class: "your-attempt" }, "Your attempt: ", parts.join(" · "), " · ", rank);
}

/** How hard the deal is (the solver's effort, games/solver/difficulty.py), and whether it is
 * proven winnable: coarse labels that say nothing of any card. */
function difficultyLine(challenge) {
  if (!challenge.ready) return null;
  const parts = [];
  if (challenge.difficulty) parts.push(el("span", { class: `difficulty difficulty-${challenge.difficulty}` }, `Difficulty: ${challenge.difficulty}`));
  if (challenge.proven_winnable) parts.push(el("span", { class: "proven" }, "proven winnable"));
  if (!parts.length) return null;
  return el("p", { class: "difficulty-line" }, ...parts.flatMap((part, i) => (i ? [" · ", part] : [part])));
}

function streakLine(streak) {
  if (!streak) return null;
  return el("p", { class: "streak" }, `Streak ${streak.current} (best ${streak.best})`);
}

function challengeCard(challenge, day, decks) {
  const total = 52 * (decks[challenge.variant] || 1);
  const streak = day.streaks?.by_variant?.[challenge.variant];
  return el(
    "li",
    { class: "challenge card-panel", dataset: { variant: challenge.variant } },
    el("h2", {}, challenge.name),
    el(
      "p",
      { class: "attempts" },
      `${plural(challenge.attempts, "ranked attempt")}`,
      challenge.seed !== null ? ` · deal ${challenge.seed}` : "",
    ),
    difficultyLine(challenge),
    attemptLine(challenge.your_attempt, total),
    streakLine(streak),
    challengeActions(challenge, day, report),
    el(
      "p",
      { class: "links" },
      el("a", { class: "leaderboard-link", href: `/daily/${day.date}/${challenge.variant}/` }, day.open ? "Live leaderboard" : "Leaderboard"),
      " · ",
      el("a", { href: `/rules/${challenge.variant}/` }, "Rules"),
    ),
  );
}

function renderStreaks(streaks) {
  streaksBox.replaceChildren();
  if (!streaks) {
    streaksBox.hidden = signedIn();
    if (!signedIn()) {
      const next = encodeURIComponent(window.location.pathname + window.location.search);
      streaksBox.append(
        el("p", {}, el("a", { href: `/signin/?next=${next}` }, "Sign in"), " to take part and keep a streak."),
      );
    }
    return;
  }
  streaksBox.hidden = false;
  streaksBox.append(
    el("h2", {}, "Your daily streak"),
    el(
      "p",
      { id: "overall-streak" },
      el("strong", {}, plural(streaks.overall.current, "day")),
      ` in a row with a won challenge (best ${plural(streaks.overall.best, "day")}).`,
    ),
  );
}

function tick(closesAt) {
  clearInterval(timer);
  const end = Date.parse(closesAt);
  const update = () => {
    const left = Math.max(0, Math.floor((end - serverNow()) / 1000));
    const h = Math.floor(left / 3600);
    const m = String(Math.floor((left % 3600) / 60)).padStart(2, "0");
    const s = String(left % 60).padStart(2, "0");
    countdown.querySelector("time").textContent = `${h}:${m}:${s}`;
    if (left === 0) {
      clearInterval(timer);
      // The day has closed (midnight UTC): show the new one, unless a date was asked for.
      setTimeout(() => load(requestedDate()), 1500);
    }
  };
  update();
  timer = setInterval(update, 1000);
}

function renderCountdown(day) {
  clearInterval(timer);
  countdown.replaceChildren();
  if (day.open) {
    const time = el("time", { datetime: day.closes_at, class: "countdown" });
    countdown.append("Closes in ", time, " (midnight UTC)");
    tick(day.closes_at);
  } else if (day.date < day.today && !day.challenges.some((c) => c.ready)) {
    // Nothing was dealt: no deals to show, no ranking, nothing to replay.
    countdown.append("There were no daily challenges on this day: nothing was played or ranked.");
  } else if (day.date < day.today) {
    const replay = signedIn() ? "you can replay them for fun" : "signed in, you can replay them for fun";
    countdown.append(`This day has closed: its ranking is final, its deals are shown, and ${replay}.`);
  } else {
    countdown.append("This day has not started yet.");
  }
}

let decksPromise = null;
function variantDecks() {
  decksPromise ??= api("GET", "/api/variants/")
    .then((variants) => Object.fromEntries(variants.map((v) => [v.slug, v.decks])))
    .catch(() => ({}));
  return decksPromise;
}

/** Share, once the player has finished any of the day's five (the text: share.js). */
function showShare(day) {
  const box = document.getElementById("daily-share");
  const over = day.challenges.some((c) => c.your_attempt && c.your_attempt.status !== "playing");
  box.hidden = !over;
  box.replaceChildren(...(over ? [shareButton(day.date)] : []));
}

async function load(date) {
  const ticket = ++loading;
  root.setAttribute("aria-busy", "true");
  say(message, "");
  if (date !== null && !DAY_FORMAT.test(date)) {
    showNoDay(`"${date}" is not a day: pick one, or write it as YYYY-MM-DD.`);
    root.removeAttribute("aria-busy");
    return;
  }
  try {
    const query = date ? `?date=${date}` : "";
    const [day, decks] = await Promise.all([api("GET", `/api/daily/${query}`), variantDecks()]);
    if (ticket !== loading) return;
    picker.max = day.today;
    picker.value = day.date;
    root.dataset.date = day.date;
    heading.textContent = day.date === day.today ? `Today, ${dayName(day.date)}` : dayName(day.date);
    renderCountdown(day);
    renderStreaks(day.streaks);
    list.replaceChildren(...day.challenges.map((c) => challengeCard(c, day, decks)));
    showShare(day);
    const ready = day.challenges.filter((c) => c.ready);
    provenLine.hidden = !ready.length || !ready.every((c) => c.proven_winnable);
    clearTimeout(retry);
    if (day.open && ready.length < day.challenges.length) retry = setTimeout(() => load(date), RETRY_MS);
  } catch (error) {
    if (ticket !== loading) return;
    // A day the server refuses (30 February, one with no challenges): said in its own words,
    // without the field's name the API puts before them.
    if (error.status === 400 || error.status === 404) showNoDay(error.fields?.date?.[0] ?? errorText(error));
    else report(errorText(error));
  } finally {
    if (ticket === loading) root.removeAttribute("aria-busy");
  }
}

picker.form?.addEventListener("submit", (event) => event.preventDefault());

picker.addEventListener("change", () => {
  const date = picker.value;
  if (!DAY_FORMAT.test(date)) return;
  const url = new URL(window.location.href);
  url.searchParams.set("date", date);
  window.history.pushState({}, "", url);
  load(date);
});

document.getElementById("daily-today")?.addEventListener("click", () => {
  window.history.pushState({}, "", window.location.pathname);
  load(null);
});

window.addEventListener("popstate", () => load(requestedDate()));

load(requestedDate());
