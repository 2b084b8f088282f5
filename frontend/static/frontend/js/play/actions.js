// The action queue: the player's actions run one after another, each naming the version it saw
// (expected_move_number); their writes go through the outbox (outbox.js), kept and sent again
// while the connection is lost, by `post` (the game's websocket when it is up, else REST:
// socket_writes.js). The answer is drawn (show), and a refusal puts the cards back
// and says why.

import { api } from "../api.js";
import { createOutbox } from "../outbox.js";
import { playSound } from "../sound.js";
import { awayField } from "./clock.js";
import { notOver } from "./facts.js";
import { announce, messageIsCalm, noteText, say, sayOnly } from "./messages.js";
import { live, reconnected, reconnecting } from "./live.js";
import { page } from "./page.js";

/** The queue, given what it draws with: `show(game, {force})` draws a version of the game,
 * `reset()` puts back a card the player holds, `whenSignedOut()` says whether the page's sign-in
 * has ended (and says so); `post` is the outbox's way to send (outbox.js; REST without one).
 * Returns {act, enqueue, idle, refused, wake}. */
export function createActions({ show, reset, whenSignedOut, post }) {
  let queue = Promise.resolve();
  // The actions' writes, kept and sent again while the connection is lost (outbox.js); those
  // waiting their turn are shown as pending meanwhile.
  const outbox = createOutbox({ onChange: showPending, post });
  // Bumped when a write kept offline is refused as stale (the game moved on elsewhere): the
  // actions queued behind it were chosen on the board it was made on, and are dropped.
  let queuedOn = 0;
  let pendingShown = false;

  /** While a write waits for the connection, the actions not yet sent are shown as pending
   * (#message, and #board's data-pending); once they have all gone, the page says so. */
  function showPending({ waiting, held }) {
    const board = page.board;
    if (held && waiting) {
      pendingShown = true;
      board.dataset.pending = String(waiting);
      const actions = waiting === 1 ? "1 move waits" : `${waiting} moves wait`;
      say(`Not sent yet: ${actions} for the connection, and will be sent as soon as it is back.`, "info");
      if (!navigator.onLine) live("offline", "Offline");
      return;
    }
    delete board.dataset.pending;
    if (pendingShown && !waiting) {
      pendingShown = false;
      if (messageIsCalm()) say("Connection back: the moves kept meanwhile were sent.", "info", "board");
    }
  }

  /** The notes of a move's effects, before what its redraw put back of the cards held meanwhile
   * (which the redraw said already: written again only together with notes, not read twice). */
  function notes(events) {
    const text = noteText(events);
    if (text) say([text, page.putBack].filter(Boolean).join(" "), "info");
  }

  async function reload() {
    show(await api("GET", `/api/games/${page.gameId}/`), { force: true });
  }

  /** A refusal: the engine's message, the cards back where they were (or the game as it is now,
   * when another tab moved first). */
  async function refused(error) {
    if (error.code === "stale_move_number" || error.code === "challenge_closed") {
      // Another tab or device moved first, or the day closed under the player (and the server
      // closed the attempt as it answered): show the game as it is now, then say why, once (the
      // redraw writes its own note first).
      await reload().catch(() => {});
      // The server's stale message tells a script to reload; the page has done so already.
      let stale = "The game moved on in another tab or device. The board now shows the latest position.";
      if (error.code === "stale_move_number" && error.wasHeld) {
        queuedOn += 1;
        stale = "While you were offline the game moved on in another tab or device, so the moves made meanwhile were not played. The board now shows the latest position.";
      }
      sayOnly(error.code === "stale_move_number" ? stale : error.message);
      return;
    }
    // The server out of reach, or failing behind its proxy: said until it sends the game again.
    const passing = error.status === 0 || error.status >= 500;
    sayOnly(error.message || "Something went wrong.", "error", passing ? "connection" : "action");
    if (page.game) show(page.game, { force: true });
  }

  /** Send an action about the version shown, after those before it; `refusal()` says why it
   * cannot apply to that version (checked when its turn comes), and then nothing is sent.
   * `body` may be a function of the game shown when its turn comes, giving null to send nothing.
   * `summary(fields, before, next)`: what the accepted action did, in words, for #announce (left
   * empty without one, so that it never keeps an older action's words). `quiet`: leave #message,
   * its notes and #announce to the caller (Finish). Resolves to true when the server accepted the
   * action, false when it was refused or not sent for a reason #message now gives, null when
   * `body` gave nothing to send. */
  function act(path, body, refusal = notOver, { quiet = false, summary = null } = {}) {
    const done = outbox.add();
    const chosenOn = queuedOn;
    queue = queue.then(async () => {
      if (!page.game || whenSignedOut() || chosenOn !== queuedOn) return false;
      const before = page.game;
      const why = refusal();
      if (why) {
        reset(); // put back a card picked up
        show(page.game, { force: true });
        sayOnly(why);
        return false;
      }
      const fields = typeof body === "function" ? body(page.game) : body;
      if (!fields) return null;
      try {
        const timed = /\/(moves|undo)\/$/.test(path) ? awayField() : {};
        const sent = { ...fields, ...timed, expected_move_number: page.game.move_number };
        const next = await outbox.send(path, sent, { onRetry: reconnecting }).finally(reconnected);
        if (!quiet) say("", "info");
        show(next);
        playSound(fields.move?.type === "deal" ? "deal" : fields.move?.to?.startsWith("foundation:") ? "home" : "move");
        if (quiet) return true;
        notes(next.events);
        announce(summary ? summary(fields, before, next) : "");
        return true;
      } catch (error) {
        await refused(error);
        return false;
      }
    });
    queue = queue.finally(done);
    return queue;
  }

  /** Run `task()` (which sends no write: a hint) after the actions queued before it. */
  function enqueue(task) {
    queue = queue.then(task);
    return queue;
  }

  return {
    act,
    enqueue,
    /** Settles once every action queued so far is answered. */
    idle: () => queue,
    refused,
    /** The connection is back: the writes kept meanwhile go now. */
    wake: () => outbox.wake(),
  };
}
