// The result dialog (#result): the outcome, the server's figures (time, moves, hints, the best
// and the streak, a daily's rank), the deal's number to share, and a short celebration on a win.

import { api, canPlayAgain } from "../api.js";
import { cardElement } from "../cards.js";
import { motionMs } from "../motion.js";
import { playSound } from "../sound.js";
import { duration } from "../ui.js";
import { elapsed } from "./clock.js";
import { OUTCOMES } from "./facts.js";
import { NOTES, say } from "./messages.js";
import { $, page } from "./page.js";

/** The result dialog for the game as shown (over). */
export function showResult() {
  const game = page.game;
  // The figures are the server's (the representation's `result`, games/play/results.py): the
  // time as it records it, the best before this game, the streak, the day's rank.
  const result = game.result ?? null;
  const moves = result?.moves ?? game.counts.moves;
  const hints = result?.hints ?? game.counts.hints ?? 0;
  $("result-outcome").textContent = OUTCOMES[game.status] ?? game.status;
  $("result-outcome").dataset.status = game.status;
  $("result-moves").textContent = String(moves);
  $("result-time").textContent = duration(result ? result.time_seconds : elapsed());
  $("result-hints").textContent = hints ? `${hints} ${hints === 1 ? "hint" : "hints"}` : "None";
  // A race has no hints: no row to say so.
  $("result-hints").parentElement.hidden = Boolean(game.race && !game.race.hints);
  showRecords(result);
  // The deal's number, once the server shows it, to share.
  $("result-seed").hidden = game.seed === null || game.seed === undefined;
  $("result-seed-text").textContent = `Deal number ${game.seed}: anyone can play this deal with it.`;
  $("result-again").hidden = !canPlayAgain(game);
  // A race's game has its room's Rematch instead; any other game can start a race of its game.
  $("result-race-friend").hidden = Boolean(game.race);
  $("result-race-error").hidden = true;
  $("replay-link").href = `/replay/${game.id}/`;
  showDailyResult(result);
  // Closed by the service at midnight, not by a move here: say why the game is over.
  if (game.status === "closed") say(NOTES.day_closed(), "info");
  if (!$("result").open) $("result").showModal();
  celebrate(game.status === "won");
  if (game.status === "won") playSound("win");
}

/** The player's best at this game and the wins in a row, as the server counted them. */
function showRecords(result) {
  const game = page.game;
  const won = game.status === "won" && result;
  $("result-records").hidden = !won;
  if (!won) return;
  const name = page.variant?.name ?? "this game";
  const best = $("result-best");
  const improved = [];
  if (result.beat_moves) improved.push(`fewest moves (was ${result.best_moves})`);
  if (result.beat_time) improved.push(`fastest time (was ${duration(result.best_time_seconds)})`);
  best.dataset.kind = result.first_win ? "first" : improved.length ? "new-best" : "best";
  if (result.first_win) best.textContent = `Your first win at ${name}!`;
  else if (improved.length) best.textContent = `New personal best: ${improved.join(" and ")}.`;
  else
    best.textContent = `Your best at ${name}: ${result.best_moves} moves, ${duration(result.best_time_seconds)}.`;
  const streak = $("result-streak");
  streak.dataset.streak = String(result.streak);
  streak.textContent =
    result.streak > 1
      ? `Winning streak: ${result.streak} wins in a row at ${name}.`
      : "Winning streak: 1 win. Win the next one to keep it going.";
}

/** A short celebration on a win: the cards of the foundations fall into a fan at the top of
 * the dialog, one after another, and bounce. It is drawn either way; it moves only when the
 * player's animation speed is on and the system asks for no reduced motion (motion.js). */
function celebrate(won) {
  const game = page.game;
  const place = $("celebration");
  place.hidden = !won;
  place.replaceChildren();
  if (!won) return;
  const tops = Object.entries(game.state?.piles ?? {})
    .filter(([id]) => id.startsWith("foundation") || id.startsWith("discard"))
    .map(([, pile]) => pile.cards.at(-1))
    .filter(Boolean);
  const codes = [...new Set(tops)].slice(0, 8);
  while (codes.length < 4) codes.push(["AS", "AH", "AC", "AD"][codes.length]);
  const ms = motionMs();
  const middle = (codes.length - 1) / 2;
  codes.forEach((code, i) => {
    const card = cardElement(code);
    card.removeAttribute("role");
    card.removeAttribute("aria-label");
    const turn = (i - middle) * (64 / Math.max(1, codes.length - 1));
    card.style.setProperty("--turn", `${turn}deg`);
    card.style.setProperty("--drop", `${Math.abs(i - middle) * 2}px`);
    place.append(card);
    if (!ms) return;
    // From above the dialog, spinning, to its place in the fan; then a little hop in turn.
    const speed = ms / 230;
    card.animate(
      [
        { transform: `translate(${(i - middle) * 40}px, -260px) rotate(${turn * 6}deg)`, opacity: 0 },
        { opacity: 1, offset: 0.3 },
        { transform: `translateY(calc(var(--drop) + 6px)) rotate(var(--turn))`, offset: 0.8 },
        { transform: "translateY(var(--drop)) rotate(var(--turn))", opacity: 1 },
      ],
      { duration: 700 * speed, delay: i * 90 * speed, easing: "cubic-bezier(0.25, 0.8, 0.35, 1)", fill: "backwards" },
    );
    card.animate(
      [
        { transform: "translateY(var(--drop)) rotate(var(--turn))" },
        { transform: "translateY(calc(var(--drop) - 14px)) rotate(var(--turn))" },
        { transform: "translateY(var(--drop)) rotate(var(--turn))" },
      ],
      { duration: 360 * speed, delay: (700 + codes.length * 90 + i * 70) * speed, easing: "ease-in-out" },
    );
  });
}

/** A daily deal's result leads to its day's leaderboard (first among the actions, where a
 * casual game offers a new deal), and a ranked attempt says where it stands there (the rank
 * the server gave with the result). */
function showDailyResult(result) {
  const game = page.game;
  const daily = Boolean(game.daily);
  $("result-board").hidden = !daily;
  // A race's game leads back to its room: the others' progress, then the result and Rematch.
  $("result-race").hidden = !game.race;
  if (game.race) $("result-race").href = game.race.link;
  $("result-new").classList.toggle("primary", !daily && !game.race);
  const rank = result?.daily_rank;
  $("result-rank").hidden = !(daily && rank);
  if (!daily) return;
  $("result-board").href = `/daily/${game.daily}/${game.variant}/`;
  if (rank) $("result-rank").textContent = `Rank ${rank.rank} of ${rank.count} on the day's leaderboard so far.`;
}

/** "Race a friend on this game": a new race of the game (not this deal: a deal someone has
 * seen is no race), winnable if this one was, unlisted (joined from its link), and its room,
 * which shows the link to send. */
export async function raceAFriend() {
  const game = page.game;
  const button = $("result-race-friend");
  button.disabled = true;
  try {
    const race = await api(
      "POST",
      "/api/races/",
      { variant: game.variant, winnable: Boolean(game.winnable), listed: false },
      { idempotent: true },
    );
    window.location.assign(race.link);
  } catch (failure) {
    $("result-race-error").textContent = failure.message || "Could not open a race.";
    $("result-race-error").hidden = false;
    button.disabled = false;
  }
}
