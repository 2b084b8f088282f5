// The replay page's keys (replay.js): the steps and play/pause, on the page and on the board.

import { attachRoving } from "./roving.js";

/** ``ready()``: a game or line is loaded; ``at()`` and ``end()``: the current and last step. */
export function attachReplayKeys({ boardBox, scrubber, ready, step, toggle, at, end }) {
  // The board is one tab stop: Tab enters it on the pile last focused (at first the first pile)
  // and the next Tab leaves it. There the arrow keys, Home and End move between piles (roving.js
  // uses them up), each pile named with its cards as on the play page, and Page Up and Page Down
  // step instead; everywhere else the arrows, Home and End step. Space plays or pauses anywhere.
  attachRoving(boardBox);
  // Nothing on the board is for clicking: a click leaves the focus where it was, so the step
  // keys keep stepping after a look at the cards with the mouse.
  boardBox.addEventListener("mousedown", (event) => event.preventDefault());

  const KEYS = {
    ArrowLeft: () => step(at() - 1),
    ArrowRight: () => step(at() + 1),
    Home: () => step(0),
    End: () => step(end()),
    " ": toggle,
  };
  const BOARD_KEYS = {
    PageUp: () => step(at() - 1),
    PageDown: () => step(at() + 1),
  };

  /** What a key does here, if it steps or plays (null: the key is left to the browser). */
  function action(event) {
    // Used up already: the board's arrows, Home and End move between piles.
    if (!ready() || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return null;
    const target = event.target;
    const keys = boardBox.contains(target) ? { ...KEYS, ...BOARD_KEYS } : KEYS;
    if (!Object.hasOwn(keys, event.key)) return null;
    if (target === scrubber && event.key !== " ") return null; // the slider moves by itself
    // Space opens or closes the history list when its summary has focus; the arrows still step.
    if (event.key === " " && target.closest?.("summary")) return null;
    // Space presses "Copy link", "Play this deal" and the analysis's buttons as it would any
    // button; the arrows still step.
    if (event.key === " " && target.closest?.("#replay-deal, #analysis")) return null;
    if (target.closest?.("input, textarea, select, [contenteditable]")) return null;
    return keys[event.key];
  }

  document.addEventListener("keydown", (event) => {
    const run = action(event);
    if (!run) return;
    event.preventDefault(); // no page scroll, and Space on a focused button is not also a click
    run();
  });
  // A button "clicks" on Space's keyup: keep that from repeating the toggle.
  document.addEventListener("keyup", (event) => {
    if (event.key === " " && action(event)) event.preventDefault();
  });
}
