// A race's game: the race, live, in one line above the table (#race-strip): the time left,
// the player's place by cards home ("2nd of 3") and every player's cards home ("you 14 · ada
// 12 · bo 9"), from the race room's websocket (/ws/races/<code>/: the whole race on connecting,
// so a reconnection catches up, then each change, and each other player's move as their line
// alone, race_progress). Once the race is over: "The race is over: see the result", a link to
// the room. Only progress ever comes: nothing of anyone's cards.

import { pageAccount, socket } from "../api.js";
import { duration, el } from "../ui.js";
import { $ } from "./page.js";

const DONE = { won: "won", stuck: "stuck", resigned: "resigned", out_of_time: "out of time" };

let race = null;
let offset = 0; // the server's clock less this browser's
let ticker = null;
let opened = false;

function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] ?? "th");
  return `${n}${suffix}`;
}

const better = (a, b) => (a.standing === "won") !== (b.standing === "won") ? a.standing === "won" : a.cards_home > b.cards_home;

/** The players, the most cards home first (a win before all), and the viewer's place among
 * them (ties share one). */
function standings() {
  const players = [...race.players].sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0));
  const me = players.find((p) => p.username === pageAccount());
  const place = me ? 1 + players.filter((p) => better(p, me)).length : null;
  return { players, me, place };
}

function secondsLeft() {
  return Math.max(0, (Date.parse(race.ends_at) - (Date.now() + offset)) / 1000);
}

function clockText() {
  if (race.phase === "countdown") return `Starting in ${Math.max(0, Math.ceil((Date.parse(race.starts_at) - (Date.now() + offset)) / 1000))}…`;
  return `${duration(secondsLeft())} left`;
}

function entrant(player, me) {
  const mine = player === me;
  const done = DONE[player.standing];
  const name = mine ? "you" : player.username;
  const words = `${name} ${player.cards_home}${done ? ` (${done})` : ""}`;
  return el(
    "li",
    { class: mine ? "race-entrant mine" : "race-entrant", dataset: { player: player.username, standing: player.standing } },
    el("span", { class: "race-name" }, name),
    " ",
    el("span", { class: "race-cards", title: `${words}: cards home` }, String(player.cards_home)),
    done
      ? el(
          "span",
          { class: "race-done", title: done },
          el("span", { "aria-hidden": "true" }, player.standing === "won" ? "✓" : "✕"),
          el("span", { class: "visually-hidden" }, `, ${done}`),
        )
      : null,
  );
}

function draw() {
  const strip = $("race-strip");
  if (race.phase === "finished") {
    clearInterval(ticker);
    strip.dataset.phase = "finished";
    $("race-strip-line").replaceChildren();
    $("race-strip-over").replaceChildren("The race is over: ", el("a", { href: race.link }, "see the result"));
    return;
  }
  strip.dataset.phase = race.phase;
  const { players, me, place } = standings();
  const line = [el("span", { class: "race-clock" }, el("time", { id: "race-strip-clock" }, clockText()))];
  if (place !== null) line.push(el("span", { class: "race-place" }, `${ordinal(place)} of ${players.length}`));
  line.push(el("ol", { class: "race-entrants", "aria-label": "Cards home" }, ...players.map((p) => entrant(p, me))));
  $("race-strip-line").replaceChildren(...line);
}

function tick() {
  const clock = $("race-strip-clock");
  if (clock && race && race.phase !== "finished") clock.textContent = clockText();
}

function heard(data) {
  const strip = $("race-strip");
  if (data.type === "race") {
    race = data.race;
    offset = Date.parse(race.now) - Date.now();
    strip.dataset.state = "live";
    draw();
  } else if (data.type === "race_progress" && race !== null) {
    const at = race.players.findIndex((p) => p.username === data.player.username);
    if (at < 0) return;
    race.players[at] = data.player;
    offset = Date.parse(data.now) - Date.now();
    draw();
  }
}

/** Show the strip for a race's game (`game.race`) and open its room's websocket; once a page.
 * Called before the table's size is measured: the strip's line is there from the start. */
export function showRaceStrip(game) {
  if (!game?.race || opened) return;
  opened = true;
  const strip = $("race-strip");
  strip.hidden = false;
  $("play").classList.add("racing");
  $("race-strip-line").replaceChildren(el("span", { class: "race-clock" }, "Race: connecting…"));
  socket(`/ws/races/${game.race.code}/`, heard, {
    onClose() {
      // Its figures may be behind until the socket is back (and the race is sent again).
      strip.dataset.state = "stale";
    },
  });
  ticker = setInterval(tick, 1000);
}
