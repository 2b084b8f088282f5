// The one door to the server: JSON over /api/… and websockets over /ws/….
// Every page goes through api() so errors, CSRF and retries are handled the same way.

/** An error answer: `status` (0 when the server could not be reached), the API's stable
 * `code`, its `message` for people, `fields` for validation errors. Any other member of the
 * error body (`move_number` of a stale move, `game_id` of an existing attempt) is copied onto
 * the error too, and the whole body is `details`. */
export class ApiError extends Error {
  constructor(status, code, message, fields = null, details = {}) {
    super(message);
    this.name = "ApiError";
    Object.assign(this, details);
    this.status = status;
    this.code = code;
    this.message = message;
    this.fields = fields;
    this.details = details;
  }
}

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

// The account this page was opened as (<html data-user>; "" when signed out), read once: the
// header may drop to signed out later (ui.js headerSignedOut), but the page stays that
// account's. Every open page shares the browser's one session, so each unsafe request names
// it (X-Patience-Account) and the server refuses it, changing nothing, when the browser is now
// signed in as someone else (or signed out): 409 account_changed, whose message says so.
const PAGE_ACCOUNT = document.documentElement.dataset.user ?? null;

/** The account this page was opened as ("" signed out). */
export function pageAccount() {
  return PAGE_ACCOUNT ?? "";
}
const NETWORK_MESSAGE = "Could not reach the server. Check your connection and try again.";

/** An error answer without the API's body: a proxy's page in front of the server, say. */
function unexplained(status) {
  if (status >= 500) return `The server could not answer just now (error ${status}). Try again in a moment.`;
  return `The request failed (error ${status}).`;
}

function cookie(name) {
  const entry = document.cookie.split("; ").find((part) => part.startsWith(`${name}=`));
  return entry ? decodeURIComponent(entry.slice(name.length + 1)) : null;
}

// Read on every write: signing in rotates the token, so a cached one would go stale.
async function csrfToken() {
  if (!cookie("csrftoken")) await fetch("/api/auth/csrf/", { credentials: "same-origin" });
  return cookie("csrftoken");
}

// crypto.randomUUID needs a secure context; getRandomValues works on plain http too.
export function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * api("POST", "/api/games/", {variant: slug}, {idempotent: true}) → the parsed JSON
 * (null for an empty answer). Throws ApiError. An idempotent request carries an
 * Idempotency-Key and is retried with the same key when the network fails, so the server acts
 * once however many times it arrives. `account` names the account the request is meant for
 * instead of the page's (the header's "Sign out" of the account the browser was signed in as
 * since: refused in turn if that has changed again). A 503 `service_unavailable` (or a proxy's
 * 503) is retried like a network failure. `key`: the Idempotency-Key to send (the outbox's, kept
 * across its own later tries) instead of a new one; it makes the request idempotent.
 */
export async function api(method, path, body, { idempotent = false, key = null, account = PAGE_ACCOUNT, onRetry = null } = {}) {
  if (key) idempotent = true;
  method = method.toUpperCase();
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (!SAFE.has(method)) {
    headers["X-CSRFToken"] = (await csrfToken()) || "";
    if (account !== null) headers["X-Patience-Account"] = encodeURIComponent(account);
  }
  if (idempotent) headers["Idempotency-Key"] = key || newKey();
  const init = {
    method,
    headers,
    credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  };

  // Sent again, with the same key, after a network failure (twice, soon) or a 503 (the
  // server's database out of reach for a moment: a restart, a failover; for about 10 s, as
  // its Retry-After asks but never more than 5 s apart). `onRetry()` is called before each
  // new try (the play page says "Reconnecting…").
  const retries = idempotent || SAFE.has(method);
  let response;
  for (let attempt = 0, unavailable = 0; ; attempt += 1) {
    try {
      response = await fetch(path, init);
    } catch {
      if (!retries || attempt - unavailable >= 2) throw new ApiError(0, "network_error", NETWORK_MESSAGE);
      onRetry?.();
      await pause(400 * 2 ** (attempt - unavailable));
      continue;
    }
    if (response.status !== 503 || !retries || unavailable >= 8) break; // a 503 beyond: its message
    // Only "out of reach for a moment" is retried here; a 503 that says "not yet" (no winnable
    // deal ready, the day's challenge still being prepared) is the player's to read at once.
    const code = await response
      .clone()
      .json()
      .then((data) => data?.error?.code, () => null);
    if (code && code !== "service_unavailable") break;
    unavailable += 1;
    const asked = Number(response.headers.get("Retry-After")) * 1000;
    onRetry?.();
    await pause(Math.min(asked > 0 ? asked : 1000, 5000));
  }

  const text = await response.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!response.ok) throw answerError(response.status, data);
  return data;
}

/** The ApiError of an error answer: its status and its parsed body (null when there was none,
 * or not JSON). The same for an answer that came over HTTP and one that came on the game's
 * websocket (play/socket_writes.js), so that a refusal reads the same whichever way it came. */
export function answerError(status, data) {
  const error = (data && typeof data.error === "object" && data.error) || {};
  return new ApiError(status, error.code || `http_${status}`, error.message || unexplained(status), error.fields || null, error);
}

/** Start a game and go to its page: by default a new game ({variant} for a random deal,
 * {variant, seed} for a numbered one), or what `path` starts (a daily deal replayed). Throws
 * ApiError, and then stays on this page. */
export async function startGame(body, path = "/api/games/") {
  const game = await api("POST", path, body, { idempotent: true });
  window.location.assign(`/play/${game.id}/`);
}

/** Whether `game` (a game's representation) can be dealt again in a new casual game: once it is
 * over and the server shows its number; a daily challenge's, by its day's replay, once the day
 * has closed (its number is shown from then on, and the replay is refused before). */
export function canPlayAgain(game) {
  const known = game.seed !== null && game.seed !== undefined;
  return game.status !== "playing" && known;
}

/** Start a new casual game on `game`'s deal (see canPlayAgain) and go to its page. */
export function playAgain(game) {
  return game.daily
    ? startGame(undefined, `/api/daily/${game.daily}/${game.variant}/replay/`)
    : startGame({ variant: game.variant, seed: game.seed });
}

/**
 * socket("/ws/games/7/", onMessage) — or socket(() => path, …) to build the path afresh on each
 * (re)connection, e.g. with ?since= the last version seen. Reconnects with backoff (up to 30 s),
 * except after the server's own refusals (4401 not signed in, 4403, 4404 no such thing, 4429
 * flooding), which would only repeat; after 4430 (too many connections open for the account or
 * address) it tries again once a minute, as other pages close, or as soon as the page is shown
 * again (the player may have closed other pages to come back to this one). The backoff starts
 * over once a connection has brought a message: a refused one opens and closes at once.
 * Returns {close(), send(obj), reconnect(), get open()}: reconnect() drops the connection and
 * opens a new one at once (the browser back online: one that stayed open may have lost messages;
 * a write's answer that never came: its host may have vanished), without waiting for the old
 * one to finish closing, which a connection to a host that is gone may take minutes to do: what
 * it says from then on is not listened to, and onClose hears of it as a 1006 at once.
 * The page pings every 25 s (proxies drop idle connections) and takes a connection that has
 * said nothing for 10 s after a ping for dead (a network that dropped it without a word: a
 * phone's, a NAT's), reconnecting as above; the server answers every ping at once.
 * Options: onClose(code) — e.g. to show a "live"/"offline" indicator.
 */
export function socket(path, onMessage, { onClose } = {}) {
  const FINAL = new Set([4401, 4403, 4404, 4429]);
  const TOO_MANY_CONNECTIONS = 4430;
  let ws = null;
  let closed = false;
  let delay = 500;
  let retry = null;
  let keepAlive = null;
  let silence = null; // the wait for a word after a ping
  let waitingForRoom = false; // refused with 4430; `retry` is the minute's wait

  function connect() {
    waitingForRoom = false;
    const where = typeof path === "function" ? path() : path;
    const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    const mine = new WebSocket(`${scheme}//${window.location.host}${where}`);
    ws = mine;
    mine.addEventListener("open", () => {
      if (ws !== mine) return;
      // A rare ping keeps proxies from dropping an idle connection (well under the flood limit).
      keepAlive = setInterval(() => {
        send({ type: "ping" });
        clearTimeout(silence);
        silence = setTimeout(() => handle.reconnect(), 10000);
      }, 25000);
    });
    mine.addEventListener("message", (event) => {
      if (ws !== mine) return; // dropped by reconnect()
      clearTimeout(silence);
      let data;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      if (data?.type === "error" && data.code === "too_many_connections") return;
      delay = 500;
      if (data && data.type !== "pong") onMessage(data);
    });
    mine.addEventListener("close", (event) => {
      if (ws !== mine) return;
      clearInterval(keepAlive);
      clearTimeout(silence);
      onClose?.(event.code);
      if (closed || FINAL.has(event.code)) return;
      if (event.code === TOO_MANY_CONNECTIONS) {
        waitingForRoom = true;
        retry = setTimeout(connect, 60000 + Math.random() * 15000);
        return;
      }
      retry = setTimeout(connect, delay + Math.random() * 250);
      delay = Math.min(delay * 2, 30000);
    });
  }

  function send(message) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  }

  document.addEventListener("visibilitychange", () => {
    if (closed || !waitingForRoom || document.visibilityState !== "visible") return;
    // Shortly, not at once: a tab just closed to make room shows this one before its own
    // socket has closed on the server.
    clearTimeout(retry);
    retry = setTimeout(connect, 1500);
  });

  connect();
  const handle = {
    send,
    reconnect() {
      if (closed) return;
      delay = 500;
      clearTimeout(retry);
      const old = ws;
      if (old && old.readyState !== WebSocket.CLOSED) {
        ws = null; // its events are no longer heard
        clearInterval(keepAlive);
        clearTimeout(silence);
        old.close();
        onClose?.(1006);
      }
      connect();
    },
    close() {
      closed = true;
      clearTimeout(retry);
      clearInterval(keepAlive);
      clearTimeout(silence);
      ws?.close();
    },
    get open() {
      return ws?.readyState === WebSocket.OPEN;
    },
  };
  return handle;
}
