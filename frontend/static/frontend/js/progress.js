// Progress over time on the profile pages (profile.html: /api/me/progress/, every game;
// player.html: /api/players/<username>/progress/, the ranked dailies): per game, the win rate
// by week, the moves and time of wins, the cards home in games not won (charts.js); the days
// of dailies played; and the monthly badges.

import { daysChart, formatMoves, formatTime, lossesChart, spreadChart, winRateChart } from "./charts.js";
import { badgeMedal, monthName } from "./month_calendar.js";
import { el, plural } from "./ui.js";

function gameCharts(game) {
  const charts = [];
  if (game.weeks.length) charts.push(winRateChart(game.weeks));
  if (game.moves) {
    const moves = game.wins.map((w) => w.moves);
    charts.push(spreadChart("moves", "Moves of wins", moves, game.moves, game.best_moves, formatMoves));
  }
  if (game.time_seconds) {
    const times = game.wins.map((w) => w.time_seconds).filter((t) => t !== null);
    charts.push(spreadChart("time", "Time of wins", times, game.time_seconds, game.best_time_seconds, formatTime));
  }
  if (game.losses_cards_home.length) charts.push(lossesChart(game.losses_cards_home, game.cards));
  return charts;
}

function gamePanel(game) {
  return el(
    "section",
    { class: "progress-game card-panel", dataset: { variant: game.variant }, "aria-label": game.name },
    el("h3", {}, game.name),
    el("p", { class: "note" }, `${plural(game.played, "game")} finished · ${plural(game.won, "win")}`),
    ...gameCharts(game),
  );
}

/** Draw `progress` into `games` (a panel per game played), `days` and `badges`. */
export function renderProgress(progress, today, { games, days, badges, empty }) {
  const played = progress.games.filter((g) => g.played > 0);
  games.replaceChildren(...played.map(gamePanel));
  if (empty) empty.hidden = played.length > 0;
  if (days) days.replaceChildren(daysChart(progress.daily_days, today));
  if (badges) {
    badges.replaceChildren(
      ...progress.badges.map((b) =>
        el("li", { dataset: { month: b.month, badge: b.badge } }, badgeMedal(b.badge, `${monthName(b.month)}: ${b.badge}`), el("span", { class: "note" }, ` · ${plural(b.full_days, "day")} with all five played`)),
      ),
    );
    badges.parentElement.querySelector(".badges-empty").hidden = progress.badges.length > 0;
  }
}
