// The play page's shared facts: the game shown, its variant, and the elements every part uses.
// Each part of the page (play/*.js) reads the game from here; only play.js's show() replaces it.

export const $ = (id) => document.getElementById(id);

export const page = {
  gameId: Number($("play").dataset.gameId),
  board: $("board"),
  /** The version shown: the server's latest, from the answer to a move or from the websocket. */
  game: null,
  variant: null,
  /** The server's message once this page's sign-in has ended elsewhere (signed_out.js). */
  signedOut: null,
  /** What the last redraw put back of the cards the player held, in words ("" for nothing). */
  putBack: "",
};

/** The pile the board's one Tab stop is on: where the focus goes when its control is gone. */
export const boardStop = () => page.board.querySelector('.pile[tabindex="0"]');
