// The game's websocket and the live indicator (#live): the server sends the game as it is on
// each (re)connection and after every change (another tab or device), and the indicator says
// whether this page is in step. The page's own writes go on it too, and their answers come
// back on it (socket_writes.js, told here of what the socket hears).

import { socket } from "../api.js";
import { outdated } from "./messages.js";
import { $ } from "./page.js";

// What the live indicator says when the game's websocket closes with the server's code.
// After 4401-4429 the socket does not reconnect (api.js), so none of them says "Reconnecting…".
const CLOSED_SAYS = {
  4401: "Signed out",
  4403: "Live updates refused: reload the page",
  4404: "This game is gone",
  4429: "Live updates stopped: reload the page",
  4430: "Too many live pages open: moves still save; retrying in a minute",
};

// What the indicator said before an action's retry said "Reconnecting…" (see reconnecting).
let liveSaid = null;

/** The live indicator says `text`, its `state` one of connecting, open, closed, offline. */
export function live(state, text) {
  $("live").dataset.state = state;
  $("live").textContent = text;
  liveSaid = null;
}

// An action sent again while the server is out of reach for a moment (api.js onRetry) says
// "Reconnecting…" on the live indicator, and nothing more; what the indicator said before
// comes back once the action is answered, unless the socket has said something since.
export function reconnecting() {
  const before = liveSaid ?? { state: $("live").dataset.state, text: $("live").textContent };
  live("closed", "Reconnecting…");
  liveSaid = before;
}
export function reconnected() {
  if (liveSaid) live(liveSaid.state, liveSaid.text);
}
/** api.js options for a request retried while the server is out of reach (a hint). */
export const retrying = { idempotent: true, onRetry: reconnecting };

/** Open the game's websocket. `path()` is asked on each (re)connection (?since= the version
 * shown: the server then sends only what was missed). `onBack()` runs when the server has sent
 * the game on a (re)connection, before `onGame(game)`, which every game the server sends
 * reaches; `onSignedOut(message)` when the server says this page's sign-in has ended. `writes`
 * (socket_writes.js) sends the page's writes on the socket and hears their answers. Returns
 * the socket (api.js: send, close, reconnect). */
export function openLive({ path, onGame, onBack, onSignedOut, writes }) {
  const updates = socket(
    path,
    (data) => {
      writes.heard(); // before onBack(): the writes kept meanwhile may go on this socket
      if (data.type === "answer") {
        writes.answer(data);
        return;
      }
      if (["sync", "catch_up", "update"].includes(data.type)) {
        // "Live" once the server has sent the game: a socket it refuses (too many pages open)
        // opens too, only to be closed at once.
        live("open", "Live");
        if (data.type !== "update") {
          outdated("connection"); // (re)connected: the server is back
          onBack(); // and the writes kept meanwhile go now
        }
        onGame(data.game);
      }
      if (data.type === "error" && data.code === "signed_out") onSignedOut(data.message);
    },
    {
      onClose: (code) => {
        writes.closed(); // the writes waiting for an answer on it go over REST
        if (navigator.onLine) live("closed", CLOSED_SAYS[code] ?? "Reconnecting…");
        else live("offline", "Offline");
      },
    },
  );
  writes.attach(updates);
  // The browser's word on the network: a socket may stay open while it is offline, and lose
  // what is sent meanwhile, so it is opened afresh once the browser is back online.
  window.addEventListener("offline", () => live("offline", "Offline"));
  window.addEventListener("online", () => {
    live("closed", "Reconnecting…");
    updates.reconnect();
  });
  if (!navigator.onLine) live("offline", "Offline");
  return updates;
}
