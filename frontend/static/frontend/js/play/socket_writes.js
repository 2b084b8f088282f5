// The play page's writes on the game's websocket (docs/api.md, "Moves on the game's
// websocket"): a move, undo, resignation or end goes as a message on the socket the page
// already holds, with its Idempotency-Key and body (expected_move_number among it), and its
// answer comes back on that socket. REST is the way when the socket is not in step: not open,
// the browser offline, or the server not heard on it yet (a refused socket opens too, and one
// that brings nothing is no use). A write whose answer does not come within ANSWER_WAIT_MS (the
// socket died on the way), whose socket closes before its answer, or that the server could not
// take just now (503 service_unavailable, 429 throttled) goes over REST with the same key: the
// server applies a key once, whichever way it came. A socket that let a write's answer wait
// that long is taken for dead (its host may have vanished, or a proxy dropped it without a
// word) and opened afresh, with ?since= catching up on what it missed. A refusal reads exactly as REST's
// (api.js answerError): the same status, code, message and members.

import { answerError, api } from "../api.js";

const ANSWER_WAIT_MS = 4000;
// A REST path's last step, and the message type that stands for it.
const TYPES = { moves: "move", undo: "undo", resign: "resign", end: "end" };
const ACTION = /^\/api\/games\/\d+\/(moves|undo|resign|end)\/$/;

/** Whether a refusal on the socket says "not now" rather than "no": then REST is asked. */
function notNow(error) {
  return (error.status === 503 && error.code === "service_unavailable") || (error.status === 429 && error.code === "throttled");
}

/**
 * createSocketWrites() → {post(path, body, {key, onRetry}), attach(socket), heard(), answer(data),
 * closed()}. post() is what the outbox sends with (outbox.js): it resolves to the answer's body
 * or rejects with an ApiError, as api("POST", …) does. live.js tells it of the socket: attach()
 * once it is made, heard() on every message from the server, answer(data) on an answer, closed()
 * when the socket closes.
 */
export function createSocketWrites() {
  let updates = null; // the game's socket (api.js socket)
  let inStep = false; // the server has spoken on this connection since its last unanswered write
  let sent = 0;
  const waiting = new Map(); // request_id → settle(answer or null)

  function usable() {
    return Boolean(updates?.open) && inStep && navigator.onLine;
  }

  /** The answer message to `message`, or null when none came in time or the socket closed. */
  function onSocket(message) {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        inStep = false; // until the server speaks on a socket again: the next writes go over REST
        settle(null);
        updates.reconnect();
      }, ANSWER_WAIT_MS);
      function settle(answer) {
        clearTimeout(timer);
        waiting.delete(message.request_id);
        resolve(answer);
      }
      waiting.set(message.request_id, settle);
      updates.send(message);
    });
  }

  async function post(path, body, { key, onRetry = null } = {}) {
    const type = TYPES[path.match(ACTION)?.[1]];
    if (type && key && usable()) {
      sent += 1;
      const answer = await onSocket({ ...body, type, request_id: `w-${sent}`, idempotency_key: key });
      if (answer) {
        if (answer.status >= 200 && answer.status < 300) return answer.body;
        const error = answerError(answer.status, answer.body);
        if (!notNow(error)) throw error;
      }
      onRetry?.(); // sent again, over REST, with the same key
    }
    return api("POST", path, body, { key, onRetry });
  }

  return {
    post,
    attach(socket) {
      updates = socket;
    },
    heard() {
      inStep = true;
    },
    answer(data) {
      waiting.get(data.request_id)?.(data);
    },
    closed() {
      inStep = false;
      for (const settle of [...waiting.values()]) settle(null);
    },
  };
}
