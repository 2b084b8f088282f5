// The play page's writes (moves, undo, resign) are never lost to a dropped connection. Each is
// sent with an Idempotency-Key made once, when it is first sent, and its expected_move_number;
// while the network fails, or a proxy answers 502/503/504 for a server that is restarting, it
// is kept and sent again with the same key and the same body, so the server applies it exactly
// once however many times it arrives (docs/api.md, "Writing once"). It goes again as soon as
// the browser is back online or the game's websocket reconnects (wake()), and otherwise after a
// wait that doubles from 1 s up to 30 s. The actions made meanwhile wait their turn behind it,
// in order; the outbox counts them so that the page can show them as pending. It sends through
// `post`, which may take another way than REST (the play page's: the game's websocket when it
// is up, play/socket_writes.js); each try carries the same key, whichever way it goes.

import { api, newKey } from "./api.js";

const FIRST_WAIT_MS = 1000;
const LONGEST_WAIT_MS = 30000;
// A 503 that the API explains otherwise ("not yet": no winnable deal ready) is an answer, not
// the server out of reach: only its own "for a moment" or a proxy's bare 503 is tried again.
const UNAVAILABLE_CODES = new Set(["service_unavailable", "http_503"]);

/** Whether `error` (an ApiError) says the server was not reached rather than what it decided. */
export function unreachable(error) {
  if (error.status === 0 || error.status === 502 || error.status === 504) return true;
  return error.status === 503 && UNAVAILABLE_CODES.has(error.code);
}

/** REST's way: api.js, with the outbox's key. */
const overRest = (path, body, options) => api("POST", path, body, options);

/**
 * createOutbox({onChange, post}) → {add(), send(path, body, options), wake(), get waiting, get held}.
 * add() counts one more action waiting for its turn and returns the function to call once it
 * is done (answered, refused or dropped). send() POSTs `body` to `path` (through
`post(path, body, {key, onRetry})`, which answers or throws as api.js does), keeping it while the
 * server cannot be reached, and resolves to the answer or rejects with the server's refusal
 * (an ApiError, with `wasHeld` set when it had to wait for the connection). `held` is true while
 * a send waits for the connection; onChange({waiting, held}) is called whenever either changes.
 */
export function createOutbox({ onChange = () => {}, post = overRest } = {}) {
  let waiting = 0;
  let held = false;
  const wakers = new Set();

  const changed = () => onChange({ waiting, held });

  function setHeld(value) {
    if (held === value) return;
    held = value;
    changed();
  }

  /** Wait `ms`, or less if woken meanwhile (online again, the websocket back). */
  function waitOrWake(ms) {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      wakers.add(done);
    });
  }

  function wake() {
    for (const done of [...wakers]) done();
  }

  window.addEventListener("online", wake);

  async function send(path, body, { onRetry = null } = {}) {
    const key = newKey();
    let wasHeld = false;
    for (let wait = FIRST_WAIT_MS; ; wait = Math.min(wait * 2, LONGEST_WAIT_MS)) {
      try {
        const answer = await post(path, body, { key, onRetry });
        setHeld(false);
        return answer;
      } catch (error) {
        if (!unreachable(error)) {
          setHeld(false);
          error.wasHeld = wasHeld;
          throw error;
        }
        wasHeld = true;
        setHeld(true);
        await waitOrWake(wait);
      }
    }
  }

  function add() {
    waiting += 1;
    changed();
    let counted = true;
    return () => {
      if (!counted) return;
      counted = false;
      waiting -= 1;
      changed();
    };
  }

  return {
    add,
    send,
    wake,
    get waiting() {
      return waiting;
    },
    get held() {
      return held;
    },
  };
}
