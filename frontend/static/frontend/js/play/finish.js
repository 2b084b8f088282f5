// Automatic play to the foundations (a setting) and Finish (the cards that can go home, one
// move at a time): both send ordinary moves through the action queue, each chosen from the
// version shown when its turn comes.

import { motionMs } from "../motion.js";
import { moveSummary } from "../narration.js";
import { settings } from "../settings.js";
import { cardsWord, choosesBaseRank, hasFoundations, homeMoves, notOver, overWords } from "./facts.js";
import { announce, noteText, say, sayOnly } from "./messages.js";
import { $, boardStop, page } from "./page.js";

// Finish waits this long after each answer before the next move: the player sees each card go
// home, and the moves are never a "burst" to fair play (FAIR_PLAY_BURST_MS, 150 ms; pinned by
// tests/games/moderation/test_fair_play.py, which reads this line). Fair play's time check
// leaves a win's final run of moves to the foundations out, so a long Finish does not make a win
// look fast.
const FINISH_STEP_MS = 220;

/** What a move did, in words, for #announce (actions.js act's `summary`). */
export const moveSummaryOf = (fields, before, next) => moveSummary(fields.move, before, next, page.variant);

/** The moves automatic play may send now, as the setting says: the safe ones the server lists
 * (safe_home_moves: the solver's safe rule, from what the player sees), or every card that can
 * go (as Finish). Never the move that chooses Selective Castle's base rank. */
function autoMoves(shown) {
  const mode = settings().autoplay;
  if (mode === "off" || !shown || shown.status !== "playing" || choosesBaseRank(shown)) return [];
  if (mode === "all") return homeMoves(shown);
  return shown.safe_home_moves ?? [];
}

/** Wait `ms`, or less if the run is stopped meanwhile. */
function pause(run, ms) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    run.wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });
}

/** Automatic play and Finish, given the action queue's `act` and `idle` (actions.js) and
 * `whenSignedOut()`. Returns {finish, autoPlaySoon, showFinish}. */
export function createFinish({ act, idle, whenSignedOut }) {
  let finishing = null; // {sent, stopped, wake, notes} while Finish sends cards home one by one
  let autoTimer = 0;
  let offeredFor = null;
  const movesPath = () => `/api/games/${page.gameId}/moves/`;

  /** After a move of the player's (never after an undo, which would send the card home again),
   * send the cards automatic play may send, one ordinary move at a time, each after the answer
   * to the one before is drawn and a pause (never a fair-play burst; the card's slide shown).
   * Each is chosen from the version shown when its turn comes. */
  function autoPlaySoon() {
    clearTimeout(autoTimer);
    if (finishing || page.signedOut || !autoMoves(page.game).length) return offerFinish();
    autoTimer = setTimeout(async () => {
      if (finishing) return;
      const pick = (shown) => {
        const move = autoMoves(shown)[0];
        return move ? { move } : null;
      };
      const accepted = await act(movesPath(), pick, notOver, { summary: moveSummaryOf });
      if (accepted) autoPlaySoon();
      else offerFinish();
    }, Math.max(FINISH_STEP_MS, motionMs()));
  }

  /** When every card left can only go home (finishes_home), offer Finish: the button stands out
   * and #message says so, once a game. */
  function offerFinish() {
    const game = page.game;
    const offer = Boolean(game?.finishes_home && game.status === "playing" && !finishing);
    $("finish").classList.toggle("offer", offer);
    if (offer && offeredFor !== game.id) {
      offeredFor = game.id;
      sayOnly("Every card left can go home: Finish sends them there.", "info", "board");
    }
  }

  /** The Finish button: shown while a card can go home in a game in play, "Stop" while running.
   * While the game is in play its place in the bar is kept when hidden (site.css .keep-room), so
   * the board never moves for it; once the game is over Result takes that place. */
  function showFinish() {
    const game = page.game;
    const button = $("finish");
    const running = Boolean(finishing);
    const hide = !running && (!game || game.status !== "playing" || !homeMoves(game).length);
    if (hide && document.activeElement === button) boardStop()?.focus();
    button.hidden = hide;
    // Gone once the game is over, and never kept in a game with no foundation (Grounds for
    // Divorce), where it never shows.
    button.classList.toggle("keep-room", game?.status === "playing" && hasFoundations());
    button.textContent = running ? "Stop" : "Finish";
    button.classList.toggle("offer", !running && Boolean(game?.finishes_home && game.status === "playing"));
    button.title = running ? "Stop sending cards to the foundations (F)" : "Send the cards that can go to the foundations (F)";
  }

  function stopFinishing() {
    if (!finishing || finishing.stopped) return;
    finishing.stopped = true;
    finishing.wake?.();
  }

  /** Send cards to the foundations for the player: a legal foundation move, its answer drawn, a
   * pause, and again, until none is left, the game ends, the server refuses, or the player does
   * anything else (stopFinishing). Deals are never made. Again while running: stop. */
  async function finish() {
    if (finishing) return stopFinishing();
    await idle(); // the version the player sees once what they sent before is answered
    if (!page.game || finishing || whenSignedOut()) return;
    if (page.game.status !== "playing") return sayOnly(overWords());
    if (choosesBaseRank(page.game)) return sayOnly("Choose the base rank first: put a card on a foundation yourself.", "info", "board");
    if (!homeMoves(page.game).length) return sayOnly("No card can go to a foundation now.", "info", "board");
    const run = { sent: 0, stopped: false, wake: null, notes: [], refused: false };
    finishing = run;
    page.putBack = "";
    showFinish();
    sayOnly("Sending cards to the foundations. Any key or click stops.", "info");
    // The move is chosen when its turn in the queue comes, from the version shown then (a newer
    // one from the websocket, when another tab moved meanwhile).
    const pick = (shown) => {
      const move = shown.status === "playing" ? homeMoves(shown)[0] : null;
      return move ? { move } : null;
    };
    while (!run.stopped) {
      const accepted = await act(movesPath(), pick, () => null, { quiet: true });
      if (!accepted) {
        run.refused = accepted === false; // #message gives the server's reason then
        break;
      }
      run.sent += 1;
      const note = noteText(page.game.events);
      if (note) run.notes.push(note);
      if (page.game.status !== "playing" || run.stopped) break;
      await pause(run, FINISH_STEP_MS);
    }
    finishing = null;
    showFinish();
    const sent = run.sent ? `Sent ${cardsWord(run.sent)} to the foundations.` : "No card went to the foundations.";
    if (run.refused) announce(`Stopped. ${sent}`); // #message keeps the server's reason
    else say([...run.notes, run.stopped ? `Stopped. ${sent}` : sent, page.putBack].filter(Boolean).join(" "), "info");
  }

  // Anything else the player does stops Finish at once: a press anywhere, any key (but F and the
  // button's own Enter or Space, which stop it themselves).
  document.addEventListener(
    "pointerdown",
    (event) => {
      if (!event.target.closest?.("#finish")) stopFinishing();
    },
    true,
  );
  document.addEventListener(
    "keydown",
    (event) => {
      const plain = !event.altKey && !event.ctrlKey && !event.metaKey;
      if (plain && (event.key === "f" || event.key === "F")) return;
      if (event.target.closest?.("#finish") && (event.key === "Enter" || event.key === " ")) return;
      stopFinishing();
    },
    true,
  );

  return { finish, autoPlaySoon, showFinish };
}
