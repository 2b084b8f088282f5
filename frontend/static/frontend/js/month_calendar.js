// A month of dailies drawn as a calendar (the daily page's, from /api/daily/month/): a week a
// row, Monday first; each day a link to its page with one mark per game (won, played, in play,
// not played) and a ring when all five were played. A real table: a screen reader reads each
// day's link, named in words ("Saturday 10 May: 3 of 5 played, 2 won").

import { el, plural } from "./ui.js";

const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const WEEKDAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/** "2031-05" → "May 2031". */
export function monthName(month) {
  const date = new Date(`${month}-01T00:00:00Z`);
  return date.toLocaleDateString("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });
}

/** "2031-05-10" → "10 May" (a UTC day). */
export function shortDate(isoDate) {
  const date = new Date(`${isoDate}T00:00:00Z`);
  return date.toLocaleDateString("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
}

function weekday(isoDate) {
  return (new Date(`${isoDate}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
}

function gameMark(game) {
  const kind = game.won ? "won" : game.played ? "played" : game.status === "playing" ? "playing" : "none";
  return el("span", { class: `mark mark-${kind}`, dataset: { variant: game.variant, mark: kind }, "aria-hidden": "true" });
}

function dayWords(day, frozen = false) {
  const words = dayOnlyWords(day);
  return frozen ? `${words}; a freeze saved your streak` : words;
}

function dayOnlyWords(day) {
  const date = new Date(`${day.date}T00:00:00Z`);
  const name = `${WEEKDAY_NAMES[weekday(day.date)]} ${date.getUTCDate()} ${date.toLocaleDateString("en-GB", { month: "long", timeZone: "UTC" })}`;
  if (day.state === "upcoming") return `${name}: to come`;
  if (!day.challenges) return `${name}: no daily challenges`;
  const prefix = day.state === "open" ? `${name}, today` : name;
  if (!day.games.length) return `${prefix}: ${plural(day.challenges, "challenge")}`;
  const played = day.games.filter((g) => g.played).length;
  const won = day.games.filter((g) => g.won).length;
  const playing = day.games.filter((g) => g.status === "playing").length;
  const parts = [`${played} of ${day.games.length} played`, `${won} won`];
  if (playing) parts.push(`${playing} in play`);
  return `${prefix}: ${parts.join(", ")}${day.all_played ? ", all five played" : ""}`;
}

function dayCell(day, selected, onPick, saved) {
  const frozen = saved.has(day.date);
  const number = el("span", { class: "day-number" }, String(Number(day.date.slice(8))), frozen ? el("span", { class: "freeze-mark", "aria-hidden": "true", title: "A freeze saved your streak" }, "❄") : null);
  const marks = day.games.length ? el("span", { class: "marks" }, ...day.games.map(gameMark)) : null;
  const classes = ["month-day", `day-${day.state}`];
  if (!day.challenges) classes.push("no-challenges");
  if (day.all_played) classes.push("all-played");
  if (day.date === selected) classes.push("selected");
  if (frozen) classes.push("saved");
  const attrs = { class: classes.join(" "), dataset: { date: day.date, state: day.state } };
  if (day.state === "upcoming" || !day.challenges) {
    return el("td", attrs, el("span", { class: "day-inner", "aria-label": dayWords(day, frozen), role: "img" }, number, marks));
  }
  const link = el(
    "a",
    {
      class: "day-inner",
      href: `/daily/?date=${day.date}`,
      "aria-label": dayWords(day, frozen),
      "aria-current": day.date === selected ? "date" : null,
    },
    number,
    marks,
  );
  link.addEventListener("click", (event) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0 || !onPick) return;
    event.preventDefault();
    onPick(day.date);
  });
  return el("td", attrs, link);
}

/** The month as a table: `answer` from /api/daily/month/, `selected` the day shown. */
export function monthTable(answer, selected, onPick) {
  const rows = [];
  const saved = new Set(answer.streak?.saved ?? []);
  let row = Array.from({ length: weekday(answer.days[0].date) }, () => el("td", { class: "month-day blank" }));
  for (const day of answer.days) {
    row.push(dayCell(day, selected, onPick, saved));
    if (row.length === 7) {
      rows.push(el("tr", {}, ...row));
      row = [];
    }
  }
  if (row.length) {
    while (row.length < 7) row.push(el("td", { class: "month-day blank" }));
    rows.push(el("tr", {}, ...row));
  }
  return el(
    "table",
    { class: "month-calendar", id: "month-calendar", dataset: { month: answer.month } },
    el("caption", { class: "visually-hidden" }, `Daily challenges of ${monthName(answer.month)}`),
    el("thead", {}, el("tr", {}, ...WEEKDAYS.map((d, i) => el("th", { scope: "col", abbr: WEEKDAY_NAMES[i] }, d)))),
    el("tbody", {}, ...rows),
  );
}

export function legend() {
  const item = (kind, words) => el("li", {}, el("span", { class: `mark mark-${kind}`, "aria-hidden": "true" }), ` ${words}`);
  return el(
    "ul",
    { class: "month-legend", "aria-label": "Marks" },
    item("won", "won"),
    item("played", "played, not won"),
    item("playing", "in play"),
    item("none", "not played"),
    el("li", {}, el("span", { class: "ring-sample", "aria-hidden": "true" }), " all five played"),
    el("li", {}, el("span", { class: "freeze-mark", "aria-hidden": "true" }, "❄"), " a freeze saved the streak"),
  );
}

const BADGE_WORDS = { bronze: "Bronze", silver: "Silver", gold: "Gold" };

/** "Bronze badge" etc., drawn as a medal with its word. */
export function badgeMedal(badge, label) {
  return el("span", { class: `medal medal-${badge}`, dataset: { badge } }, el("span", { class: "medal-disc", "aria-hidden": "true" }), ` ${label ?? `${BADGE_WORDS[badge]} badge`}`);
}

/** What the month's badge needs next: "14 days with all five played · Bronze badge · silver at 20". */
export function badgeLine(answer) {
  const days = answer.full_days;
  const total = answer.days.length;
  const parts = [el("span", { class: "full-days" }, `${plural(days, "day")} with all five played`)];
  if (answer.badge) parts.push(" · ", badgeMedal(answer.badge));
  const next = !answer.badge && days < 10 ? "bronze at 10" : answer.badge === "bronze" ? "silver at 20" : answer.badge === "silver" ? `gold at all ${total}` : null;
  if (next) parts.push(` · ${next}`);
  return el("p", { id: "month-badge", class: "badge-line", dataset: { badge: answer.badge ?? "" } }, ...parts);
}

/** "Streak 12 days · 1 freeze · a freeze saved your streak on 28 Nov". */
export function streakText(streak) {
  const parts = [`Streak ${plural(streak.current, "day")}`, plural(streak.freezes, "freeze")];
  if (streak.saved.length) {
    const last = streak.saved.map(shortDate);
    parts.push(`${streak.saved.length === 1 ? "a freeze" : "freezes"} saved your streak on ${last.join(" and ")}`);
  }
  return parts.join(" · ");
}
