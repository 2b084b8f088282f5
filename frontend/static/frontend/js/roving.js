// The board as one tab stop (a roving tabindex, as in a WAI-ARIA toolbar or grid), shared by the
// play page (input.js) and the replay page: one pile has tabindex=0, the others -1, so Tab
// enters the board once and the next Tab leaves it, instead of stopping at each of up to 20
// piles. The arrow keys (Home, End) move within it, and the pile last focused stays the one Tab
// comes back to. The DOM itself holds that choice: the pile with tabindex=0.

const piles = (board) => [...board.querySelectorAll(".pile[data-pile]")];
const tabStop = (board) => board.querySelector('.pile[data-pile][tabindex="0"]');

/** Make the pile `id` (the first pile when there is no such pile) the board's one tab stop;
 * returns it. */
function rove(board, id) {
  const all = piles(board);
  const stop = all.find((pile) => pile.dataset.pile === id) ?? all[0];
  for (const pile of all) pile.tabIndex = pile === stop ? 0 : -1;
  return stop;
}

/** Run `draw()` (which replaces the board's piles) and give the focus back to the pile that had
 * it, so keyboard play carries on across redraws; the same pile stays the board's tab stop
 * when the focus is elsewhere. */
export function keepFocus(board, draw) {
  const focused = board.contains(document.activeElement) ? document.activeElement.dataset.pile : null;
  const stop = focused ?? tabStop(board)?.dataset.pile;
  draw();
  const pile = rove(board, stop);
  if (focused) pile?.focus({ preventScroll: true });
}

const DIRECTIONS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

// Where a pile "is" for arrow keys: its first card's area (a card's size), not the middle
// of a long fan, down or sideways.
function anchor(pile) {
  const box = pile.getBoundingClientRect();
  const card = pile.querySelector(".card")?.getBoundingClientRect();
  const width = Math.min(box.width, card?.width || box.width);
  const height = Math.min(box.height, card?.height || width * 1.4);
  return { x: box.left + width / 2, y: box.top + height / 2, left: box.left, top: box.top, width, height };
}

/** The nearest pile of `board` in a direction from `from`: in the same row (left, right) or
 * column (up, down) when there is one that way, else the nearest, favouring piles in line. */
function neighbour(board, from, [dx, dy]) {
  const a = anchor(from);
  const inLine = (b) =>
    dx ? b.top < a.top + a.height && a.top < b.top + b.height : b.left < a.left + a.width && a.left < b.left + b.width;
  let best = null;
  let bestScore = Infinity;
  for (const pile of piles(board)) {
    if (pile === from) continue;
    const b = anchor(pile);
    const along = (b.x - a.x) * dx + (b.y - a.y) * dy;
    const across = Math.abs((b.x - a.x) * dy) + Math.abs((b.y - a.y) * dx);
    if (along <= 1) continue;
    // A pile in line always beats one that is not (scores past any distance on a board).
    const score = along + 2 * across + (inLine(b) ? 0 : 1e6);
    if (score < bestScore) [best, bestScore] = [pile, score];
  }
  return best;
}

/**
 * Make `board` one tab stop whose arrow keys move the focus between its piles (the nearest pile
 * that way, favouring those in line), Home and End to the first and last pile (reading order:
 * rows top to bottom, left to right). Those keys are used up there (preventDefault): a
 * document-wide handler that checks `event.defaultPrevented` leaves them alone. Call once per
 * board; draw its piles through keepFocus().
 */
export function attachRoving(board) {
  // Whichever way a pile gets the focus (arrows, a click, a script), it becomes the tab stop.
  board.addEventListener("focusin", (event) => {
    const pile = event.target.closest?.(".pile[data-pile]");
    if (pile && pile.tabIndex !== 0) rove(board, pile.dataset.pile);
  });

  board.addEventListener("keydown", (event) => {
    const pile = event.target.closest?.(".pile[data-pile]");
    if (!pile || event.altKey || event.ctrlKey || event.metaKey) return;
    if (DIRECTIONS[event.key]) {
      event.preventDefault();
      neighbour(board, pile, DIRECTIONS[event.key])?.focus();
    } else if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      const all = piles(board);
      (event.key === "Home" ? all[0] : all.at(-1))?.focus();
    }
  });
}
