// What counts toward a game's time, in the player's words, where the time is shown (the play
// page's clock, its result): one definition, games/core/clock.py, as docs/api.md "A game's
// time" states it for the boards and staff too.

import { durationWords } from "./ui.js";

/** The clock's title: what it counts, from the game's `clock` (cap_seconds, counts_time_away). */
export function clockExplanation(clock) {
  const cap = durationWords(clock?.cap_seconds ?? 0).replace(/ 0 s$/, "");
  const away = clock?.counts_time_away
    ? "A ranked attempt's clock runs on while this tab is hidden."
    : "It pauses while this game is not on screen (another tab, the page closed).";
  return `Time spent on this game. ${away} At most ${cap} counts between two moves: a game left longer counts ${cap} for that pause.`;
}

/** #message's line once the time since the last move has reached the cap: said, so that the
 * clock standing still reads as the rule, not as a fault. */
export function cappedWords(clock) {
  const cap = durationWords(clock?.cap_seconds ?? 0).replace(/ 0 s$/, "");
  return `The clock has paused: at most ${cap} counts between two moves. It runs again from your next move.`;
}
