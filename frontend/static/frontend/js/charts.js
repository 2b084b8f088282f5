// Charts drawn as SVG by the page (no library): each a <figure> with its caption, a picture
// named by one sentence (role="img"), and the same figures as a table in a <details> for
// whoever would rather read them, or cannot see them. Their viewBox scales them to the width
// they are given, a phone's included. Used by progress.js (the profile pages).

import { duration, el, percent } from "./ui.js";

const SVG = "http://www.w3.org/2000/svg";
let ids = 0;

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) if (value !== null && value !== undefined) node.setAttribute(name, String(value));
  node.append(...children.filter(Boolean));
  return node;
}

const titled = (node, words) => {
  node.append(svg("title", {}, words));
  return node;
};

/** "2031-05-05" → "5 May" (a UTC day). */
export function dayLabel(isoDate, year = false) {
  const options = { day: "numeric", month: "short", timeZone: "UTC", ...(year ? { year: "numeric" } : {}) };
  return new Date(`${isoDate}T00:00:00Z`).toLocaleDateString("en-GB", options);
}

function table(caption, head, rows) {
  return el(
    "table",
    { class: "data-table" },
    el("caption", { class: "visually-hidden" }, caption),
    el("thead", {}, el("tr", {}, ...head.map((h, i) => el("th", { scope: "col", class: i ? "num" : null }, h)))),
    el("tbody", {}, ...rows.map((cells) => el("tr", {}, el("th", { scope: "row" }, cells[0]), ...cells.slice(1).map((c) => el("td", { class: "num" }, c))))),
  );
}

function figure(kind, caption, picture, summary, tableNode) {
  const id = `chart-${++ids}`;
  picture.setAttribute("role", "img");
  picture.setAttribute("aria-labelledby", id);
  return el(
    "figure",
    { class: `chart chart-${kind}`, dataset: { chart: kind } },
    el("figcaption", {}, caption),
    el("p", { id, class: "visually-hidden" }, summary),
    picture,
    el("details", {}, el("summary", {}, "As a table"), tableNode),
  );
}

const W = 320;

/** The win rate of each week that had a game: one bar a week, 0 to 100 %. */
export function winRateChart(weeks) {
  const H = 120;
  const left = 30;
  const top = 6;
  const bottom = 20;
  const plot = H - top - bottom;
  const step = (W - left) / Math.max(weeks.length, 1);
  const picture = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "win-rate" });
  for (const rate of [0, 0.5, 1]) {
    const y = top + plot * (1 - rate);
    picture.append(svg("line", { class: "grid", x1: left, x2: W, y1: y, y2: y }), svg("text", { x: left - 4, y: y + 4, "text-anchor": "end" }, percent(rate)));
  }
  weeks.forEach((week, i) => {
    const height = Math.max(plot * week.win_rate, week.played ? 1.5 : 0);
    const bar = svg("rect", { class: "bar", x: left + i * step + step * 0.15, width: step * 0.7, y: top + plot - height, height });
    bar.dataset.week = week.week;
    picture.append(titled(bar, `Week of ${dayLabel(week.week)}: ${week.won} of ${week.played} won (${percent(week.win_rate)})`));
  });
  if (weeks.length) {
    picture.append(svg("text", { x: left, y: H - 4 }, dayLabel(weeks[0].week)));
    if (weeks.length > 1) picture.append(svg("text", { x: W, y: H - 4, "text-anchor": "end" }, dayLabel(weeks.at(-1).week)));
  }
  const last = weeks.at(-1);
  const best = weeks.reduce((a, b) => (b.win_rate > a.win_rate ? b : a), weeks[0]);
  const summary = `Win rate in ${weeks.length} weeks: the week of ${dayLabel(last.week)} ${percent(last.win_rate)}, the best ${percent(best.win_rate)} (week of ${dayLabel(best.week)}).`;
  const rows = weeks.map((w) => [`Week of ${dayLabel(w.week, true)}`, String(w.played), String(w.won), percent(w.win_rate)]);
  return figure("win-rate", "Win rate by week", picture, summary, table("Win rate by week", ["Week", "Played", "Won", "Win rate"], rows));
}

/** The moves or time of wins: a dot per win, the box from the first to the third quartile
 * with the median across it, and the best marked (the best of every win, which may lie
 * before the wins drawn). */
export function spreadChart(kind, caption, values, spread, best, format) {
  const H = 64;
  const pad = 12;
  const low = Math.min(spread.min, best ?? spread.min);
  const high = Math.max(spread.max, low + 1);
  const x = (v) => pad + ((v - low) / (high - low)) * (W - 2 * pad);
  const mid = 24;
  const picture = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "spread" });
  picture.append(svg("line", { class: "axis", x1: pad, x2: W - pad, y1: mid + 16, y2: mid + 16 }));
  picture.append(svg("rect", { class: "box", x: x(spread.q1), width: Math.max(x(spread.q3) - x(spread.q1), 1), y: mid - 12, height: 24, rx: 3 }));
  values.forEach((v, i) => picture.append(svg("circle", { class: "dot", cx: x(v), cy: mid - 8 + ((i * 7) % 17), r: 2.6 })));
  picture.append(titled(svg("line", { class: "median", x1: x(spread.median), x2: x(spread.median), y1: mid - 14, y2: mid + 14 }), `Median ${format(spread.median)}`));
  if (best !== null && best !== undefined) {
    const bx = x(best);
    picture.append(titled(svg("path", { class: "best", d: `M${bx} ${mid - 19} l5 5 l-5 5 l-5 -5 z` }), `Best ${format(best)}`));
  }
  picture.append(svg("text", { x: pad, y: H - 4 }, format(low)), svg("text", { x: W - pad, y: H - 4, "text-anchor": "end" }, format(high)));
  picture.append(svg("text", { x: x(spread.median), y: H - 4, "text-anchor": "middle" }, `median ${format(spread.median)}`));
  const summary = `${caption}: best ${format(best)}; the last ${values.length} wins from ${format(spread.min)} to ${format(spread.max)}, median ${format(spread.median)}, half of them between ${format(spread.q1)} and ${format(spread.q3)}.`;
  const rows = [
    ["Best (every win)", format(best)],
    ["Least", format(spread.min)],
    ["First quartile", format(spread.q1)],
    ["Median", format(spread.median)],
    ["Third quartile", format(spread.q3)],
    ["Most", format(spread.max)],
  ];
  return figure(kind, caption, picture, summary, table(caption, ["", `The last ${values.length} wins`], rows));
}

/** Games not won, by cards home: a bar for each count that happened, on an axis from none to
 * every card. */
export function lossesChart(bins, cards) {
  const H = 100;
  const top = 6;
  const bottom = 20;
  const left = 22;
  const plot = H - top - bottom;
  const most = Math.max(...bins.map((b) => b.games), 1);
  const width = (W - left) / (cards + 1);
  const picture = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "losses" });
  picture.append(svg("line", { class: "axis", x1: left, x2: W, y1: top + plot, y2: top + plot }));
  picture.append(svg("text", { x: left - 4, y: top + 8, "text-anchor": "end" }, String(most)));
  for (const bin of bins) {
    const height = (plot * bin.games) / most;
    const bar = svg("rect", { class: "bar loss", x: left + bin.cards_home * width, width: Math.max(width * 0.8, 2), y: top + plot - height, height });
    picture.append(titled(bar, `${bin.cards_home} cards home: ${bin.games} ${bin.games === 1 ? "game" : "games"}`));
  }
  for (const at of [0, Math.round(cards / 2), cards]) {
    picture.append(svg("text", { x: left + at * width + width / 2, y: H - 4, "text-anchor": "middle" }, String(at)));
  }
  const total = bins.reduce((n, b) => n + b.games, 0);
  const mostHome = Math.max(...bins.map((b) => b.cards_home));
  const summary = `Cards home in ${total} games not won, of ${cards}: the most ${mostHome}.`;
  const rows = bins.map((b) => [String(b.cards_home), String(b.games)]);
  return figure("losses", `Cards home in games not won (of ${cards})`, picture, summary, table("Cards home in games not won", ["Cards home", "Games"], rows));
}

/** The days of the last 26 weeks: a square a day, Monday at the top, coloured by the dailies
 * played and won that day. */
export function daysChart(days, today, span = 26 * 7) {
  const cell = 11;
  const gap = 2;
  const end = Date.parse(`${today}T00:00:00Z`);
  const weekdayOf = (t) => (new Date(t).getUTCDay() + 6) % 7;
  const start = end - (span - 1) * 86_400_000;
  const first = start - weekdayOf(start) * 86_400_000; // the Monday of the first week
  const weeks = Math.ceil((end - first) / (7 * 86_400_000)) + 1;
  const byDate = new Map(days.map((d) => [d.date, d]));
  const picture = svg("svg", { viewBox: `0 0 ${weeks * (cell + gap) + 16} ${7 * (cell + gap) + 14}`, class: "days" });
  ["M", "W", "F"].forEach((d, i) => picture.append(svg("text", { x: 0, y: i * 2 * (cell + gap) + cell - 2 }, d)));
  for (let t = first; t <= end; t += 86_400_000) {
    const iso = new Date(t).toISOString().slice(0, 10);
    const day = byDate.get(iso);
    const week = Math.floor((t - first) / (7 * 86_400_000));
    let kind = "day-cell";
    if (day) kind += day.won === 0 ? " played" : day.won === day.played ? " won-all" : " won-some";
    const square = svg("rect", { class: kind, x: 14 + week * (cell + gap), y: weekdayOf(t) * (cell + gap), width: cell, height: cell, rx: 2 });
    square.dataset.date = iso;
    picture.append(titled(square, `${dayLabel(iso, true)}: ${day ? `${day.played} played, ${day.won} won` : "none played"}`));
    if (new Date(t).getUTCDate() === 1) picture.append(svg("text", { x: 14 + week * (cell + gap), y: 7 * (cell + gap) + 11 }, dayLabel(iso).split(" ")[1]));
  }
  const won = days.reduce((n, d) => n + d.won, 0);
  const summary = `Dailies in the last 26 weeks: ${days.length} days played, ${won} challenges won.`;
  const rows = [...days].reverse().map((d) => [dayLabel(d.date, true), String(d.played), String(d.won)]);
  return figure("days", "Daily challenges, day by day", picture, summary, table("Daily challenges day by day", ["Day", "Played", "Won"], rows));
}

export const formatMoves = (n) => (n === null || n === undefined ? "—" : String(Math.round(n)));
export const formatTime = (s) => duration(s);
